#!/usr/bin/env bash
# Compares PDF text extractors on the shared samples and measures citecheck's own reader.
#
#   scripts/bench-pdf.sh            # samples from ../shared/pdf_samples (SAMPLES=DIR to change)
#
# Writes everything under target/bench-pdf: pdftotext's text as the reference, each candidate's
# text, the tables printed here (BENCHMARKS.md, "PDF text"). Needs pdftotext (poppler-utils).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SAMPLES="$(cd "${SAMPLES:-../shared/pdf_samples}" && pwd)"
WORK="$ROOT/target/bench-pdf"
FUZZ="${FUZZ:-40}"
command -v pdftotext >/dev/null || { echo "pdftotext is missing: apt-get install -y poppler-utils" >&2; exit 1; }
mkdir -p "$WORK/ref" "$WORK/out/citecheck"
for f in "$SAMPLES"/*.pdf; do pdftotext -enc UTF-8 "$f" "$WORK/ref/$(basename "$f" .pdf).txt"; done

echo "## CPU"; lscpu | grep -E "Model name|^CPU\(s\)|Thread"; grep -o -w -E "avx512f|avx2|fma" /proc/cpuinfo | sort -u | tr '\n' ' '; echo

(cd benches/pdf-extractors && cargo build --release --locked -q)
BENCH="$ROOT/benches/pdf-extractors/target/release/pdf-extractors-bench"
cd "$WORK"
echo "## Raw extractors: bag-of-words F1 against pdftotext (as extracted), median of 5 reads"
"$BENCH" "$SAMPLES" ref
"$BENCH" "$SAMPLES" ref dump
echo "## Robustness: $FUZZ damaged copies per sample (total | ok | error | panic | hang)"
"$BENCH" "$SAMPLES" ref fuzz "$FUZZ"
cd "$ROOT"
echo "## citecheck's reader (lopdf opens, pdf-extract lays out, normalised)"
# The dev profile optimises dependencies (lopdf, pdf-extract: the parsing); only the normaliser
# is unoptimised, which keeps this step from rebuilding the whole workspace in release mode.
cargo run -q -p citecheck-core --example pdf_text -- --text "$WORK/out/citecheck" "$SAMPLES"/*.pdf
echo "## F1 against pdftotext, both sides NFKC-normalised"
python3 benches/pdf-extractors/score.py "$WORK/ref" \
  lopdf="$WORK/out/lopdf" pdf-extract="$WORK/out/pdf-extract" pdf_oxide="$WORK/out/pdf_oxide" \
  citecheck="$WORK/out/citecheck"
