#!/usr/bin/env bash
# Embedding throughput, citecheck-embed beside Python sentence-transformers + torch, on the same
# 200-word passages, in one run (the box is shared: both sides see the same load, and the load
# average is printed before each side).
#
#   crates/citecheck-embed/bench/run.sh WORKDIR
#
# WORKDIR: a copy of ../shared/bench/python-baseline outside the repository with its venv
# installed (python3 -m venv .venv && .venv/bin/pip install -r requirements.txt: ~6 GB, ~2 min).
# The model directory is $CITECHECK_MODEL_DIR or the per-user default (scripts/fetch-model.sh).
set -euo pipefail
work=$(cd "${1:?usage: run.sh PYTHON_BASELINE_COPY}" && pwd)
repo=$(cd "$(dirname "$0")/../../.." && pwd)
rounds=${ROUNDS:-2}
# The backends to measure (each one the CPU lacks is reported as skipped); REPEATS per batch size.
backends=${BACKENDS:-avx512-bf16 avx512 avx-vnni-int8 avx2-int8 avx2 portable}
repeats=${REPEATS:-3}

target=${CARGO_TARGET_DIR:-$repo/target}

cd "$repo"
# The same packages as the build the README gives: another set unifies the dependencies'
# features differently and rebuilds them (minutes on a busy machine).
cargo build --quiet --release --locked -p citecheck -p citecheck-embed
model_dir=$("$target/release/fetch-model" | sed -n 's/^directory: //p')

cp "$repo/crates/citecheck-embed/bench/dump_passages.py" "$work/"
cd "$work"
[ -d fixture ] || python3 gen_fixture.py --citations 300 --out fixture --seed 1234 >/dev/null
.venv/bin/python dump_passages.py --fixture fixture --passages 96 > passages.jsonl

. "$repo/crates/citecheck-embed/bench/cpu.sh"
print_cpu
for round in $(seq "$rounds"); do
  echo "== round $round: torch ($(cut -d' ' -f1-3 /proc/loadavg) load)"
  EMBED_MODEL_DIR="$model_dir" /usr/bin/time -f "torch process peak RSS: %M KiB" \
    .venv/bin/python bench_embed.py --fixture fixture 2> >(grep "peak RSS" >&2)
  # torch held to AVX2 + FMA (ATen's kernels, oneDNN and MKL each have their own switch), so that
  # the avx2 backend meets torch on the same instructions on a CPU that also has AVX-512.
  echo "== round $round: torch forced to AVX2 ($(cut -d' ' -f1-3 /proc/loadavg) load)"
  ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2 \
    EMBED_MODEL_DIR="$model_dir" .venv/bin/python bench_embed.py --fixture fixture
  for backend in $backends; do
    echo "== round $round: citecheck-embed $backend ($(cut -d' ' -f1-3 /proc/loadavg) load)"
    "$target/release/embed-bench" --passages passages.jsonl --model-dir "$model_dir" \
      --backend "$backend" --repeats "$repeats" || echo "SKIPPED backend $backend (see the error above)"
  done
done
