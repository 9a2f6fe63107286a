#!/usr/bin/env bash
# Claim and citation accuracy of `citecheck eval` on the development set (fixtures/devset, never
# the test set) for BM25 alone and for the embedding ranker at each shortlist size and fusion,
# with the local judge: the measurement behind DEFAULT_SHORTLIST and DEFAULT_FUSION.
#
#   crates/citecheck-embed/bench/devset.sh            # after cargo build --release -p citecheck
#
# env: SHORTLISTS (default "1 2 12 0"; 0 embeds every passage), FUSIONS (default
# "embedding rrf"), CITECHECK_EMBED_BACKEND. One embedding cache is shared by the runs
# (the cached windows do not depend on the shortlist or fusion), so only the first run embeds.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${CARGO_TARGET_DIR:-$repo/target}/release/citecheck
shortlists=${SHORTLISTS:-1 2 12 0}
fusions=${FUSIONS:-embedding rrf}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
cd "$repo"

. "$repo/crates/citecheck-embed/bench/cpu.sh"
print_cpu
python3 - fixtures/devset/pages <<'EOF'
import pathlib, re, sys
pages = [p for p in pathlib.Path(sys.argv[1]).rglob("*") if p.is_file() and p.suffix in ("", ".html")]
words = sorted(len(re.sub(r"<[^>]+>", " ", p.read_text(errors="replace")).split()) for p in pages)
print(f"devset: {len(pages)} pages, {min(words)}-{max(words)} words with chrome (median {words[len(words)//2]})")
EOF

# row RANKER SHORTLIST FUSION: one eval, one table row.
row() {
  local json
  json=$(env XDG_CACHE_HOME="$cache" CITECHECK_EMBED_SHORTLIST="$2" CITECHECK_EMBED_FUSION="$3" \
    "$bin" --quiet --no-audit --ranker "$1" --judge local eval --format json)
  python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
claims = "%d/%d = %.3f" % (r["claims_correct"], r["claims"], r["claim_accuracy"])
cites = "%d/%d = %.3f" % (r["citations_correct"], r["citations"], r["citation_accuracy"])
print("| %s | %s | %s | %s | %s |" % (sys.argv[1], sys.argv[2], sys.argv[3], claims, cites))
' "$1" "${2:--}" "${3:--}" <<< "$json"
}

echo "| ranker | shortlist | fusion | claim accuracy | citation accuracy |"
echo "|---|---:|---|---:|---:|"
row lexical "" ""
for s in $shortlists; do
  for f in $fusions; do
    row embedding "$s" "$f"
  done
done
