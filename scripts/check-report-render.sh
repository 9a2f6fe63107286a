#!/usr/bin/env bash
# Renders the HTML report in headless Chromium and checks that its inline script ran.
#
#   scripts/check-report-render.sh [SCREENSHOT.png]
#
# Installs Chromium from the distribution's packages when it is missing (needs root, as on CI),
# writes the report of fixtures/report/results.jsonl with the citecheck binary, loads it from a
# file:// URL with networking features off, fails unless the page's script marked it ready, and
# saves a screenshot (default: target/report-render/report.png; docs/report.png is one). Run it
# before `cargo test`: the render test in crates/citecheck/tests/it/report.rs then finds
# Chromium too (it fails when Chromium is absent and CI is set).
#
# Where Chromium cannot be installed (no root, no apt), CITECHECK_SKIP_BROWSER_CHECK=1 skips this
# check with a note; CI (the CI variable set) always runs it. CITECHECK_BIN names a citecheck
# binary to use instead of `cargo run` (scripts/test.sh passes the one its test build made).
set -euo pipefail
cd "$(dirname "$0")/.."
SHOT="${1:-target/report-render/report.png}"

if [ -n "${CITECHECK_SKIP_BROWSER_CHECK:-}" ] && [ "${CITECHECK_SKIP_BROWSER_CHECK}" != 0 ]; then
  if [ -n "${CI:-}" ]; then
    echo "CITECHECK_SKIP_BROWSER_CHECK is ignored on CI: the report's render check always runs there" >&2
  else
    echo "skipped: the report's browser render check (CITECHECK_SKIP_BROWSER_CHECK is set)" >&2
    exit 0
  fi
fi

find_chromium() {
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  done
  return 1
}

if ! CHROME="$(find_chromium)"; then
  if [ "$(id -u)" != 0 ]; then
    echo "chromium is not installed; as root: apt-get install -y chromium" >&2
    exit 1
  fi
  echo "installing chromium from the distribution's packages..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    chromium fonts-dejavu-core >/dev/null
  CHROME="$(find_chromium)"
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ -n "${CITECHECK_BIN:-}" ]; then
  CITECHECK=("$CITECHECK_BIN")
else
  CITECHECK=(cargo run -q --locked -p citecheck --)
fi
"${CITECHECK[@]}" -q report --results fixtures/report/results.jsonl \
  --title "citecheck report: sample batch" --out "$WORK/report.html"

chrome() {
  "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$WORK")" --window-size=1280,1800 "$@" 2>/dev/null
}

chrome --dump-dom "file://$WORK/report.html" > "$WORK/dom.html"
if ! grep -q 'data-ready="1"' "$WORK/dom.html"; then
  echo "the report's script did not run to its end in $CHROME" >&2
  exit 1
fi
mkdir -p "$(dirname "$SHOT")"
chrome --screenshot="$SHOT" "file://$WORK/report.html" >/dev/null
[ "$(head -c 8 "$SHOT" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || {
  echo "no PNG screenshot written to $SHOT" >&2
  exit 1
}
echo "report renders in $("$CHROME" --version 2>/dev/null || echo chromium); screenshot: $SHOT"
