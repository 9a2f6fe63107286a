#!/usr/bin/env bash
# HTTP service benchmark: requests per second and p50/p99 latency of `citecheck serve` at each
# concurrency level (default 8 and 64 clients), and the server's peak resident memory, against
# the development set's fixture pages served on 127.0.0.1.
#
#   scripts/bench-server.sh
#
# env: JUDGE=local|mock (default local: the offline judge; mock: --judge openai against the
#      Python baseline's mock_judge.py, found in BASELINE_DIR, default ../shared/bench/python-baseline),
#      REQUESTS per level (default 2000), CONCURRENCY (default 8,64), WARMUP (default 200).
# The load generator is crates/citecheck/examples/serve_load.rs; it starts and stops the server
# itself. Only loopback is used. Stops only the mock judge it started (by PID).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
JUDGE="${JUDGE:-local}"
REQUESTS="${REQUESTS:-2000}"
CONCURRENCY="${CONCURRENCY:-8,64}"
WARMUP="${WARMUP:-200}"
BASELINE_DIR="${BASELINE_DIR:-$ROOT/../shared/bench/python-baseline}"

cargo build --release --locked -q -p citecheck --bin citecheck --example serve_load
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}/release"

JUDGE_PID=""
RUN="$(mktemp -d)"
cleanup() {
  if [ -n "$JUDGE_PID" ]; then
    kill "$JUDGE_PID" 2>/dev/null || true
    wait "$JUDGE_PID" 2>/dev/null || true
  fi
  rm -rf "$RUN"
}
trap cleanup EXIT

# RANKER=embedding measures the default ranker; these figures were taken with BM25.
JUDGE_ARGS=(--ranker "${RANKER:-lexical}" --judge local)
if [ "$JUDGE" = mock ]; then
  [ -f "$BASELINE_DIR/mock_judge.py" ] || { echo "no mock_judge.py in $BASELINE_DIR (set BASELINE_DIR)" >&2; exit 1; }
  python3 "$BASELINE_DIR/mock_judge.py" --port 0 --port-file "$RUN/judge.port" &
  JUDGE_PID="$!"
  for _ in $(seq 300); do [ -s "$RUN/judge.port" ] && break; sleep 0.1; done
  [ -s "$RUN/judge.port" ] || { echo "the mock judge did not start" >&2; exit 1; }
  JUDGE_ARGS=(--ranker "${RANKER:-lexical}" --judge openai --judge-base-url "http://127.0.0.1:$(cat "$RUN/judge.port")/v1")
  export OPENAI_API_KEY=bench-key
fi

echo "judge=$JUDGE requests_per_level=$REQUESTS concurrency=$CONCURRENCY cores=$(nproc)"
"$TARGET/examples/serve_load" --server "$TARGET/citecheck" \
  --requests "$REQUESTS" --concurrency "$CONCURRENCY" --warmup "$WARMUP" \
  -- "${JUDGE_ARGS[@]}"
