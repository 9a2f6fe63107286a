#!/usr/bin/env bash
# Queue benchmark: citations per second of 1, 2 and 4 `citecheck worker` processes sharing one
# batch on a throwaway PostgreSQL, all on 127.0.0.1, against the Python baseline's fixture site
# with every page taking 200 ms and its mock OpenAI judge taking 300 ms per call.
#
#   scripts/bench-queue.sh [CITATIONS]          (default 300)
#
# env: WORKERS (default "1 2 4"), BATCH_CONCURRENCY per worker (default 4), BATCH_PER_HOST
#      (default 4: the global per-host limit; the fixture is ONE host), PAGE_MS (200),
#      JUDGE_MS (300), BIN (default: the debug build; the work is I/O-bound), OUT_DIR
#      (default target/bench-queue), BASELINE_DIR (../shared/bench/python-baseline).
# Stops only what it started (by PID, and its own PostgreSQL by its directory).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
BASELINE_DIR="${BASELINE_DIR:-$ROOT/../shared/bench/python-baseline}"
N="${1:-300}"
WORKERS="${WORKERS:-1 2 4}"
CONC="${BATCH_CONCURRENCY:-4}"
PER_HOST="${BATCH_PER_HOST:-4}"
OUT="${OUT_DIR:-$ROOT/target/bench-queue}"
mkdir -p "$OUT"
[ -f "$BASELINE_DIR/gen_fixture.py" ] || { echo "no gen_fixture.py in $BASELINE_DIR" >&2; exit 1; }

if [ -z "${BIN:-}" ]; then
  cargo build --locked -q -p citecheck
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/citecheck"
fi

PIDS=()
RUN="$(mktemp -d)"
PG_TEST_DIR=""
cleanup() {
  local p
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  [ -n "$PG_TEST_DIR" ] && ./scripts/pg-test-server.sh stop "$PG_TEST_DIR" || true
  rm -rf "$RUN"
}
trap cleanup EXIT
wait_port() {
  for _ in $(seq 300); do [ -s "$1" ] && return 0; sleep 0.1; done
  echo "server did not start ($1)" >&2; exit 1
}

eval "$(./scripts/pg-test-server.sh start)"
PG="$CITECHECK_TEST_PG_URL"
FIX="$OUT/fixture-$N"
[ -f "$FIX/manifest.json" ] || python3 "$BASELINE_DIR/gen_fixture.py" --citations "$N" --out "$FIX" >/dev/null
python3 "$BASELINE_DIR/serve_fixture.py" --root "$FIX" --port 0 --port-file "$RUN/fixture.port" \
  --delay-ms "${PAGE_MS:-200}" & PIDS+=("$!")
python3 "$BASELINE_DIR/mock_judge.py" --port 0 --port-file "$RUN/judge.port" \
  --delay-ms "${JUDGE_MS:-300}" & PIDS+=("$!")
wait_port "$RUN/fixture.port"; wait_port "$RUN/judge.port"
sed "s#__BASE__#http://127.0.0.1:$(cat "$RUN/fixture.port")#g" "$FIX/input.jsonl" > "$RUN/input.jsonl"
CLAIMS="$(grep -c . "$RUN/input.jsonl")"

export OPENAI_API_KEY=bench-key CITECHECK_ALLOW_PRIVATE_HOSTS=1 CITECHECK_QUEUE_URL="$PG"
export CITECHECK_AUDIT_DB="$RUN/audit.sqlite3" CITECHECK_EVIDENCE_DIR="$RUN/evidence"
PIPE=(--quiet --ranker lexical --judge openai --judge-base-url "http://127.0.0.1:$(cat "$RUN/judge.port")/v1")

echo "cpu: $(lscpu | awk -F': *' '/Model name/{print $2; exit}') x $(nproc); flags: $(grep -m1 -o -w -E 'avx2|avx512f|sse4_2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "citations=$N claims=$CLAIMS page=${PAGE_MS:-200}ms judge=${JUDGE_MS:-300}ms per_worker_concurrency=$CONC per_host=$PER_HOST"
SUMMARY="$OUT/summary-c$CONC-h$PER_HOST.tsv"
printf "workers\tclaims\tcitations\twall_s\tcitations_per_s\n" > "$SUMMARY"
for W in $WORKERS; do
  BATCH="bench-w$W-$$"
  "$BIN" "${PIPE[@]}" batch "$RUN/input.jsonl" --batch-id "$BATCH" >/dev/null 2>"$RUN/enqueue.log"
  START="$(date +%s.%N)"
  WP=()
  for _ in $(seq "$W"); do
    "$BIN" "${PIPE[@]}" worker --batch "$BATCH" --until-empty --concurrency "$CONC" \
      --per-host "$PER_HOST" 2>>"$RUN/workers.log" & WP+=("$!")
  done
  for p in "${WP[@]}"; do wait "$p"; done
  END="$(date +%s.%N)"
  CITES="$("$BIN" batch status "$BATCH" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["precision"]["total"])')"
  WALL="$(awk -v a="$START" -v b="$END" 'BEGIN{printf "%.2f", b-a}')"
  RATE="$(awk -v c="$CITES" -v w="$WALL" 'BEGIN{printf "%.1f", c/w}')"
  printf "%s\t%s\t%s\t%s\t%s\n" "$W" "$CLAIMS" "$CITES" "$WALL" "$RATE" >> "$SUMMARY"
  echo "workers=$W citations=$CITES wall=${WALL}s rate=${RATE}/s load=$(cut -d' ' -f1-3 /proc/loadavg)"
done
column -t -s $'\t' "$SUMMARY"
