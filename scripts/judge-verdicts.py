#!/usr/bin/env python3
"""Scores and compares the verdict files `judge-bench --verdicts FILE` writes.

Usage:
  scripts/judge-verdicts.py score SET VERDICTS [--misses] [--only PATTERN]
  scripts/judge-verdicts.py diff SET BEFORE AFTER

SET is a labelled set's directory (fixtures/devset, fixtures/testset): its claims.jsonl gives
each citation's gold label. `score` prints, per mode (words only, meaning), the citations right,
contradicted precision, supported recall and the two worst confusions; `--misses` lists each
wrong citation with its claim, quote and detail (never use it on the frozen test set, which is
scored in aggregate only); `--only` keeps the claims whose note matches a regular expression
("twenty-third round"). `diff` lists the citations whose label changed between two runs, marked
+ (now right), - (now wrong) or blank, and counts them.

The verdicts are matched to citations by claim text, in file order, so a claim cited twice is
matched in turn; dead links (no page on disk) are not in the verdict files and are skipped.
"""
import collections
import json
import pathlib
import re
import sys

LABELS = {"Supported": "supported", "Contradicted": "contradicted", "NotFound": "not_found"}


def gold_citations(set_dir, only=None):
    """(claim id, claim text, gold label) per citation whose label a judge decides."""
    out = []
    for line in (pathlib.Path(set_dir) / "claims.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        claim = json.loads(line)
        if only and not re.search(only, claim.get("note", "")):
            continue
        for gold in claim["gold"]:
            if gold["label"] != "unreachable":
                out.append((claim["id"], claim["claim"], gold["label"]))
    return out


def verdicts_by_mode(path):
    modes = collections.OrderedDict()
    for line in pathlib.Path(path).read_text().splitlines():
        if line.strip():
            v = json.loads(line)
            modes.setdefault(v["mode"], collections.defaultdict(list))[v["claim"]].append(v)
    return modes


def paired(gold, by_claim):
    """Each gold citation with its verdict, in turn for a claim cited more than once."""
    used = collections.Counter()
    for cid, claim, label in gold:
        found = by_claim.get(claim, [])
        if used[claim] < len(found):
            yield cid, claim, label, found[used[claim]]
            used[claim] += 1


def score(set_dir, path, misses=False, only=None):
    gold = gold_citations(set_dir, only)
    for mode, by_claim in verdicts_by_mode(path).items():
        confusion = collections.Counter()
        wrong = []
        for cid, claim, label, verdict in paired(gold, by_claim):
            got = LABELS.get(verdict["label"], verdict["label"])
            confusion[(label, got)] += 1
            if got != label:
                wrong.append((cid, label, got, claim, verdict))
        total = sum(confusion.values())
        right = sum(n for (g, p), n in confusion.items() if g == p)
        said_contradicted = sum(n for (g, p), n in confusion.items() if p == "contradicted")
        gold_supported = sum(n for (g, p), n in confusion.items() if g == "supported")
        print(
            f"{mode}: {right}/{total} right ({right / max(total, 1):.3f}); "
            f"contradicted precision {confusion[('contradicted', 'contradicted')]}/{said_contradicted}; "
            f"supported recall {confusion[('supported', 'supported')]}/{gold_supported}; "
            f"supported called contradicted {confusion[('supported', 'contradicted')]}; "
            f"contradicted called supported {confusion[('contradicted', 'supported')]}"
        )
        if misses:
            for cid, label, got, claim, verdict in wrong:
                print(f"  {cid}: gold {label}, got {got} | {verdict.get('detail')}")
                print(f"     claim: {claim}")
                print(f"     quote: {verdict.get('quote')}")


def diff(set_dir, before, after):
    gold = gold_citations(set_dir)
    a, b = verdicts_by_mode(before), verdicts_by_mode(after)
    for mode in a:
        gained = lost = 0
        print(f"{mode}:")
        pairs_a = {(cid, n): v for n, (cid, _, _, v) in enumerate(paired(gold, a[mode]))}
        pairs_b = {(cid, n): v for n, (cid, _, _, v) in enumerate(paired(gold, b.get(mode, {})))}
        labels = {(cid, n): label for n, (cid, _, label, _) in enumerate(paired(gold, a[mode]))}
        for key, va in pairs_a.items():
            vb = pairs_b.get(key)
            if vb is None:
                continue
            la, lb = LABELS[va["label"]], LABELS[vb["label"]]
            if la != lb:
                label = labels[key]
                mark = "+" if lb == label else "-" if la == label else " "
                gained += mark == "+"
                lost += mark == "-"
                print(f"{mark} {key[0]}: gold {label}: {la} -> {lb} | {vb.get('detail')}")
        print(f"  gained {gained}, lost {lost}")


def main(argv):
    if len(argv) >= 3 and argv[0] == "score":
        only = argv[argv.index("--only") + 1] if "--only" in argv else None
        score(argv[1], argv[2], misses="--misses" in argv, only=only)
    elif len(argv) == 4 and argv[0] == "diff":
        diff(argv[1], argv[2], argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
