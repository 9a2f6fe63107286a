#!/usr/bin/env bash
# Batch benchmark: citations per second and peak memory of `citecheck batch` over a generated
# fixture site on 127.0.0.1, for each size given (default: 1000 and 10000 citations).
#
#   scripts/bench-batch.sh [N ...]
#
# The fixture generator, fixture server and mock OpenAI judge are the Python baseline's
# (stdlib only): ../shared/bench/python-baseline next to this repository, or BASELINE_DIR.
# env: JUDGE=local|mock (default local: the offline judge; mock: --judge openai against
#      mock_judge.py), BATCH_CONCURRENCY (default 4), OUT_DIR (default target/bench-batch).
# Stops only the servers it started (by PID). Prints one summary line per size and writes
# OUT_DIR/summary-<judge>.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
BASELINE_DIR="${BASELINE_DIR:-$ROOT/../shared/bench/python-baseline}"
JUDGE="${JUDGE:-local}"
OUT="${OUT_DIR:-$ROOT/target/bench-batch}"
export BATCH_CONCURRENCY="${BATCH_CONCURRENCY:-4}"
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000)
[ -f "$BASELINE_DIR/gen_fixture.py" ] || { echo "no gen_fixture.py in $BASELINE_DIR (set BASELINE_DIR)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
mkdir -p "$OUT"

cargo build --release --locked -q -p citecheck
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/citecheck"

PIDS=()
RUN="$(mktemp -d)"
stop_servers() {
  local p
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] || continue
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  PIDS=()
}
trap 'stop_servers; rm -rf "$RUN"' EXIT

wait_port() {
  for _ in $(seq 300); do [ -s "$1" ] && return 0; sleep 0.1; done
  echo "server did not start ($1)" >&2; exit 1
}

SUMMARY="$OUT/summary-$JUDGE.tsv"
printf "citations\tclaims\tjudge\twall_s\tcitations_per_s\tpeak_rss_mib\trss_halves_mib\tcpu_s\tcitation_precision\n" > "$SUMMARY"
for N in "${SIZES[@]}"; do
  FIX="$OUT/fixture-$N"
  if [ ! -f "$FIX/manifest.json" ]; then
    python3 "$BASELINE_DIR/gen_fixture.py" --citations "$N" --out "$FIX" >/dev/null
  fi
  rm -f "$RUN"/*.port
  python3 "$BASELINE_DIR/serve_fixture.py" --root "$FIX" --port 0 --port-file "$RUN/fixture.port" &
  PIDS+=("$!")
  wait_port "$RUN/fixture.port"
  FPORT="$(cat "$RUN/fixture.port")"
  # RANKER=embedding measures the default ranker; these figures were taken with BM25.
  JUDGE_ARGS=(--ranker "${RANKER:-lexical}" --judge local)
  if [ "$JUDGE" = mock ]; then
    python3 "$BASELINE_DIR/mock_judge.py" --port 0 --port-file "$RUN/judge.port" &
    PIDS+=("$!")
    wait_port "$RUN/judge.port"
    JUDGE_ARGS=(--ranker "${RANKER:-lexical}" --judge openai --judge-base-url "http://127.0.0.1:$(cat "$RUN/judge.port")/v1")
  fi
  sed "s#__BASE__#http://127.0.0.1:${FPORT}#g" "$FIX/input.jsonl" > "$RUN/input.jsonl"
  CLAIMS="$(grep -c . "$RUN/input.jsonl")"
  STORE="$RUN/store-$N"
  rm -rf "$STORE"; mkdir -p "$STORE"
  /usr/bin/time -v -o "$RUN/time.txt" \
    env OPENAI_API_KEY=bench-key CITECHECK_ALLOW_PRIVATE_HOSTS=1 \
      CITECHECK_AUDIT_DB="$STORE/audit.sqlite3" CITECHECK_EVIDENCE_DIR="$STORE/evidence" \
      "$BIN" "${JUDGE_ARGS[@]}" --quiet batch "$RUN/input.jsonl" \
      --out "$STORE/report.csv" --jsonl "$STORE/results.jsonl" > "$OUT/batch-$JUDGE-$N.txt" &
  TIME_PID=$!
  # Resident memory every half second (env execs citecheck, so it is time's only child): the
  # peak of the run's second half against its first shows whether memory grows with the batch.
  : > "$RUN/rss.txt"
  while kill -0 "$TIME_PID" 2>/dev/null; do
    CHILD="$(pgrep -P "$TIME_PID" -n 2>/dev/null || true)"
    [ -n "$CHILD" ] && awk '/^VmRSS/{print $2}' "/proc/$CHILD/status" 2>/dev/null >> "$RUN/rss.txt" || true
    sleep 0.5
  done
  wait "$TIME_PID"
  HALVES="$(awk '{v[NR]=$1} END{h=int(NR/2); for(i=1;i<=NR;i++){if(i<=h){if(v[i]>a)a=v[i]}else{if(v[i]>b)b=v[i]}} printf "%.1f/%.1f", a/1024, b/1024}' "$RUN/rss.txt")"
  stop_servers
  WALL="$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$RUN/time.txt")"
  RSS_KB="$(awk -F': ' '/Maximum resident set size/{print $2}' "$RUN/time.txt")"
  CPU="$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.1f", s}' "$RUN/time.txt")"
  CITES="$(awk -F': ' '/^citations: /{print $2}' "$OUT/batch-$JUDGE-$N.txt")"
  PREC="$(grep -o 'citation_precision=[^ ]*' "$OUT/batch-$JUDGE-$N.txt" | cut -d= -f2)"
  RATE="$(awk -v c="$CITES" -v w="$WALL" 'BEGIN{printf "%.1f", c/w}')"
  RSS="$(awk -v k="$RSS_KB" 'BEGIN{printf "%.1f", k/1024}')"
  printf "%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n" "$CITES" "$CLAIMS" "$JUDGE" "$WALL" "$RATE" "$RSS" "$HALVES" "$CPU" "$PREC" >> "$SUMMARY"
  echo "citations=$CITES claims=$CLAIMS judge=$JUDGE wall=${WALL}s rate=${RATE}/s peak_rss=${RSS}MiB rss_halves=${HALVES}MiB cpu=${CPU}s citation_precision=$PREC load=$(cut -d' ' -f1-3 /proc/loadavg)"
done
column -t -s $'\t' "$SUMMARY"
