#!/usr/bin/env python3
"""Lists pairs of top-level modules that import each other (via `crate::` paths) in a crate.

Usage: scripts/module-cycles.py crates/citecheck/src   (exit 1 when a pair is found)
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "crates/citecheck/src")
edges = {}
for path in root.rglob("*.rs"):
    rel = path.relative_to(root)
    if rel.name in ("lib.rs", "main.rs") and len(rel.parts) == 1:
        continue
    module = rel.parts[0].removesuffix(".rs")
    text = path.read_text()
    # Skip `#[cfg(test)]` modules: tests may reach anywhere.
    text = text.split("#[cfg(test)]")[0]
    for line in text.splitlines():
        if line.lstrip().startswith("//"):
            continue
        for target in re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", line):
            if target != module:
                edges.setdefault(module, set()).add(target)
        m = re.match(r"\s*(?:pub\s+)?use\s+crate::\{([^}]*)\}", line)
        if m:
            for target in re.findall(r"([a-z_][a-z0-9_]*)(?:::|\s*,|\s*$)", m.group(1)):
                if target != module:
                    edges.setdefault(module, set()).add(target)
pairs = sorted(
    (a, b) for a in edges for b in edges[a] if a < b and a in edges.get(b, set())
)
for a in sorted(edges):
    print(f"{a} -> {', '.join(sorted(edges[a]))}")
print()
if pairs:
    for a, b in pairs:
        print(f"MUTUAL: {a} <-> {b}")
    sys.exit(1)
print("no module pair imports each other")
