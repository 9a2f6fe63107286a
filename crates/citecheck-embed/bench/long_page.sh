#!/usr/bin/env bash
# One claim against the 23,000-word fixture page (fixtures/embedding/long_page.html), end to end:
# `citecheck verify` fetches it from a loopback server, extracts, splits, ranks with the embedding
# ranker and judges with the local judge. Run twice: first with an empty embedding cache, then
# cached. Prints wall time and peak RSS of each run, the CPU model and its vector flags.
#
#   crates/citecheck-embed/bench/long_page.sh            # after cargo build --release
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${CARGO_TARGET_DIR:-$repo/target}/release/citecheck
claim="The port's customs building was demolished in 1887 because flooding had eaten away the ground under it."
cache=$(mktemp -d)
port_file=$(mktemp)
python3 -m http.server 0 --bind 127.0.0.1 --directory "$repo/fixtures/embedding" > "$port_file" 2>&1 &
server=$!
trap 'kill $server; rm -rf "$cache" "$port_file"' EXIT
for _ in $(seq 50); do grep -q "port" "$port_file" && break; sleep 0.1; done
port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$port_file" | head -1)
url="http://127.0.0.1:$port/long_page.html"
model_dir=$("$bin" model info | sed -n 's/^directory: //p')

. "$repo/crates/citecheck-embed/bench/cpu.sh"
print_cpu
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" model info | grep runtime
for run in first cached; do
  /usr/bin/time -f "$run: %e s wall, peak RSS %M KiB" \
    env XDG_CACHE_HOME="$cache" CITECHECK_MODEL_DIR="$model_dir" \
    "$bin" verify --no-audit --allow-private-hosts --judge local --format text \
      --claim "$claim" "$url" > "$cache/$run.txt" || true  # exit 2: a verdict other than supported
  head -c 600 "$cache/$run.txt"; echo
done
