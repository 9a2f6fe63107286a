# Bag-of-words F1 against pdftotext, both sides NFKC-normalised (ligatures -> letters), and a
# few targeted checks. Usage: score.py REFDIR NAME=DIR...
import sys, os, re, unicodedata, collections
ref = sys.argv[1]
def words(t):
    t = unicodedata.normalize("NFKC", t)
    return collections.Counter(w.lower() for w in re.findall(r"\w+", t))
def f1(got, want):
    g, w = words(got), words(want)
    inter = sum((g & w).values()); gs, ws = sum(g.values()), sum(w.values())
    p = inter/gs if gs else 0; r = inter/ws if ws else 0
    return p, r, (2*p*r/(p+r) if p+r else 0)
print("| extractor | file | words | P | R | F1 vs pdftotext |")
print("|---|---|---|---|---|---|")
for spec in sys.argv[2:]:
    name, d = spec.split("=", 1)
    for f in sorted(os.listdir(ref)):
        stem = f[:-4]
        cands = [os.path.join(d, stem + ".txt")] if os.path.exists(os.path.join(d, stem + ".txt")) else []
        if not cands: print(f"| {name} | {stem} | (no text) | | | |"); continue
        got = open(cands[0], encoding="utf-8", errors="replace").read()
        want = open(os.path.join(ref, f), encoding="utf-8").read()
        p, r, f = f1(got, want)
        print(f"| {name} | {stem} | {sum(words(got).values())} | {p:.3f} | {r:.3f} | {f:.3f} |")
