#!/usr/bin/env bash
# The Python baseline's batch and citecheck's, side by side from the same fixture, in one run:
# the same fixture server and mock OpenAI judge (the baseline's own serve_fixture.py and
# mock_judge.py, on free 127.0.0.1 ports), the same input, BATCH_CONCURRENCY claims in flight.
#
#   crates/citecheck-embed/bench/baseline.sh WORKDIR [N]
#
# WORKDIR: a copy of ../shared/bench/python-baseline with its venv installed (WORKDIR/.venv,
# see its README); N citations (default 300; the fixture WORKDIR/fixture is generated when it
# has another size). citecheck runs with its default (embedding) ranker and `--judge openai`
# against the mock, three times: Python first, then citecheck with an empty embedding cache
# (first run, model load included), then again with that cache warm (cached re-run). The audit
# index of each citecheck run is a fresh one, so no verdict is reused: only the embeddings are.
# Prints the CPU model, its vector flags, the load before each run, and per run the wall time,
# citations/s, peak RSS and CPU time (each process's own, from /usr/bin/time -v), then the
# ratios the issue's targets are stated in.
# env: BATCH_CONCURRENCY (default 4), RANKER (default embedding), CITECHECK_EMBED_BACKEND.
set -euo pipefail
work=$(cd "${1:?usage: baseline.sh PYTHON_BASELINE_COPY [N]}" && pwd)
n=${2:-300}
repo=$(cd "$(dirname "$0")/../../.." && pwd)
target=${CARGO_TARGET_DIR:-$repo/target}
export BATCH_CONCURRENCY="${BATCH_CONCURRENCY:-4}"
[ -x "$work/.venv/bin/python" ] || { echo "no venv at $work/.venv (see its README.md)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

(cd "$repo" && cargo build --quiet --release --locked -p citecheck -p citecheck-embed)
bin="$target/release/citecheck"
model_dir=$("$target/release/fetch-model" | sed -n 's/^directory: //p')

fix="$work/fixture"
have=""
[ -f "$fix/manifest.json" ] && have=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["citations"])' "$fix/manifest.json")
[ "$have" = "$n" ] || python3 "$work/gen_fixture.py" --citations "$n" --out "$fix" --seed 1234 >/dev/null

run=$(mktemp -d)
pids=()
stop_servers() {
  local p
  for p in "${pids[@]:-}"; do
    [ -n "$p" ] || continue
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
}
trap 'stop_servers; rm -rf "$run"' EXIT
python3 "$work/serve_fixture.py" --root "$fix" --port 0 --port-file "$run/fixture.port" &
pids+=("$!")
python3 "$work/mock_judge.py" --port 0 --port-file "$run/judge.port" &
pids+=("$!")
for _ in $(seq 100); do [ -s "$run/fixture.port" ] && [ -s "$run/judge.port" ] && break; sleep 0.1; done
fport=$(cat "$run/fixture.port")
judge="http://127.0.0.1:$(cat "$run/judge.port")/v1"
sed "s#__BASE__#http://127.0.0.1:${fport}#g" "$fix/input.jsonl" > "$run/input.jsonl"

. "$repo/crates/citecheck-embed/bench/cpu.sh"
print_cpu
echo "cores: $(nproc) online; citecheck embedding runtime: $(CITECHECK_MODEL_DIR="$model_dir" "$bin" model info | sed -n 's/^runtime: //p')"
echo "$n citations, BATCH_CONCURRENCY=$BATCH_CONCURRENCY"

# measure NAME CMD...: runs CMD under /usr/bin/time -v and prints one line; the figures go to
# $run/NAME.{wall,rss}.
measure() {
  local name=$1
  shift
  echo "-- $name (load $(cut -d' ' -f1-3 /proc/loadavg))"
  /usr/bin/time -v -o "$run/$name.time" "$@" > "$run/$name.out" 2> "$run/$name.err" || {
    echo "$name failed (exit $?):"; tail -5 "$run/$name.err"; }
  local wall rss cpu
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$run/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/{printf "%.0f", $2/1024}' "$run/$name.time")
  cpu=$(awk -F': ' '/User time|System time/{s+=$2} END{printf "%.1f", s}' "$run/$name.time")
  echo "$wall" > "$run/$name.wall"
  echo "$rss" > "$run/$name.rss"
  printf '%-18s %8.2f s wall  %6.2f citations/s  peak RSS %5s MiB  CPU %6s s\n' \
    "$name" "$wall" "$(awk -v n="$n" -v w="$wall" 'BEGIN{print n/w}')" "$rss" "$cpu"
}

(cd "$work" && measure python .venv/bin/python baseline.py batch "$run/input.jsonl" \
  --out "$run/python.csv" --judge-url "$judge")

cache="$run/cache"
mkdir -p "$cache"
for pass in citecheck-first citecheck-cached; do
  store="$run/store-$pass"
  mkdir -p "$store"
  measure "$pass" env XDG_CACHE_HOME="$cache" CITECHECK_MODEL_DIR="$model_dir" \
    OPENAI_API_KEY=bench-key CITECHECK_ALLOW_PRIVATE_HOSTS=1 \
    CITECHECK_AUDIT_DB="$store/audit.sqlite3" CITECHECK_EVIDENCE_DIR="$store/evidence" \
    "$bin" --quiet --ranker "${RANKER:-embedding}" --judge openai --judge-base-url "$judge" \
    batch "$run/input.jsonl" --out "$store/report.csv" --jsonl "$store/results.jsonl"
done

awk -v py="$(cat "$run/python.wall")" -v first="$(cat "$run/citecheck-first.wall")" \
  -v cached="$(cat "$run/citecheck-cached.wall")" -v pyr="$(cat "$run/python.rss")" \
  -v r1="$(cat "$run/citecheck-first.rss")" -v r2="$(cat "$run/citecheck-cached.rss")" 'BEGIN {
  rss = r1 > r2 ? r1 : r2
  printf "speed vs Python: first run %.1fx (target 1.5x), cached re-run %.1fx (target 20x)\n", py / first, py / cached
  printf "peak RSS: citecheck %d MiB vs Python %d MiB = 1/%.1f (target at most 1/5)\n", rss, pyr, pyr / rss
}'
