#!/usr/bin/env python3
"""Writes crates/citecheck/demo/reports/high-altitude-cooking.pdf, the demo's real PDF.

A one-page PDF 1.4 in the standard Helvetica font (no embedded font, WinAnsi text), one line of
text per `Tj`, with a correct cross-reference table. The text is original to this project. Run it
again only if the text changes; the file is committed so the demo needs no Python.
"""
from pathlib import Path

LINES = [
    "High-altitude cooking notes",
    "Field kitchen handbook, chapter 3",
    "",
    "Water boils at a lower temperature as the air pressure around it falls.",
    "At sea level the boiling point of pure water is 100 degrees Celsius.",
    "On the summit of Mount Everest, where the air pressure is about a third",
    "of that at sea level, water boils at roughly 70 degrees Celsius.",
    "Pasta and rice therefore take much longer to cook at high camps, and",
    "expedition cooks rely on pressure cookers to reach higher temperatures.",
]


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def content() -> bytes:
    ops = ["BT", "/F1 12 Tf", "14 TL", "72 740 Td"]
    for line in LINES:
        ops.append(f"({escape(line)}) Tj T*")
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


def build() -> bytes:
    stream = content()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


if __name__ == "__main__":
    target = Path(__file__).resolve().parent.parent / "crates/citecheck/demo/reports/high-altitude-cooking.pdf"
    target.write_bytes(build())
    print(f"wrote {target}")
