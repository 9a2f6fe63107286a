#!/usr/bin/env bash
# The project's test command (README "Quick start"): formatting, lints, then every test.
# Everything the tests need is built or started by the tests themselves (fixture sites and mock
# provider servers on 127.0.0.1); nothing is fetched from the network except crates.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
