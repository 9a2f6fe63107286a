#!/usr/bin/env bash
# The embedding engine on aarch64, emulated: cross-builds citecheck-embed's tests for
# aarch64-unknown-linux-gnu (after clippy on the whole workspace for that target) and runs the
# reference-vector tests (RANKING=1: the ranking tests too) under qemu-user. On aarch64 only the
# `portable` backend exists (safe Rust + matrixmultiply's NEON kernel, chosen by its own run-time
# dispatch); the x86 backends are reported as skipped by name. Emulation proves the code builds
# and computes the right vectors there; its speed says nothing about real ARM hardware, so no
# timing is printed.
#
#   crates/citecheck-embed/bench/aarch64.sh
#
# Installs what it needs when missing: the Rust standard library for the target (rustup), and
# as root Debian's cross linker and qemu-user (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross,
# qemu-user). Builds into target/aarch64 (its own directory, so the host build is left alone).
# The model directory is $CITECHECK_MODEL_DIR or the per-user default (scripts/fetch-model.sh).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"
triple=aarch64-unknown-linux-gnu

rustup target list --installed | grep -qx "$triple" || rustup target add "$triple"
if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "needs gcc-aarch64-linux-gnu and qemu-user (run as root to install)" >&2; exit 1; }
  apt-get install -y -q gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user >/dev/null
fi
model_dir=$(cargo run --quiet --locked -p citecheck-embed --bin fetch-model | sed -n 's/^directory: //p')

export CARGO_TARGET_DIR="$repo/target/aarch64"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CITECHECK_MODEL_DIR="$model_dir"
echo "host: $(uname -m); target: $triple under $(qemu-aarch64 --version | head -1)"
# The whole workspace first, lints as errors: x86-only code must stay behind its cfg.
cargo clippy --locked --workspace --target "$triple" -- -D warnings
# Release: the debug build's forward pass under emulation takes minutes per test. The reference
# vectors first (about 3 min emulated); the ranking tests, which embed a 23,000-word page, take
# over 20 min under qemu, so they run only with RANKING=1.
tests=(--test reference)
[ "${RANKING:-0}" = 1 ] && tests+=(--test ranking)
cargo test --locked --release -p citecheck-embed --target "$triple" "${tests[@]}" -- --nocapture
