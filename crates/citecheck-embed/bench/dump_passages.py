#!/usr/bin/env python3
"""Writes the passages the python-baseline's bench_embed.py encodes (exactly-200-word passages
cut from its fixture's articles after readability + markdownify), one JSON string per line, so
that the Rust benchmark embeds the very same texts.

    cd python-baseline && .venv/bin/python dump_passages.py --fixture fixture --passages 96 > passages.jsonl
"""
import argparse
import json
import sys

from bench_embed import make_passages

ap = argparse.ArgumentParser()
ap.add_argument("--fixture", default="fixture")
ap.add_argument("--passages", type=int, default=96)
args = ap.parse_args()
for p in make_passages(args.fixture, args.passages):
    sys.stdout.write(json.dumps(p, ensure_ascii=False) + "\n")
