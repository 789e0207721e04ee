"""Write each raw format's tables into docs/formats.md, between its marker comments.

    python scripts/gen_format_docs.py          # rewrite the blocks
    python scripts/gen_format_docs.py --check  # exit 1 when the doc is not current

The blocks are `<!-- <format>-tables:begin -->` ... `<!-- <format>-tables:end -->`, one per format of
the registry (redact/formats/registry.py); the text comes from the format's one table
(redact/formats/fieldtable.py). `<!-- homes:begin -->` ... `<!-- homes:end -->` holds where each
agent keeps its sessions (each format's `homes`). A format whose markers are missing is an error: add the two marker
lines to its section of the doc, then run this.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "formats.md"


def render(text: str) -> str:
    """`text` (docs/formats.md) with every format's block regenerated."""
    from redact.formats.fieldtable import doc_block
    from redact.formats.registry import formats, homes_markdown

    begin, end = "<!-- homes:begin -->\n", "<!-- homes:end -->"
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"{DOC}: no {begin.strip()} ... {end} markers for the places of the formats")
    text = text[:start + len(begin)] + homes_markdown() + text[stop:]

    for fmt in formats():
        begin, end = f"<!-- {fmt.name}-tables:begin -->\n", f"<!-- {fmt.name}-tables:end -->"
        start, stop = text.find(begin), text.find(end)
        if start < 0 or stop < start:
            raise SystemExit(f"{DOC}: no {begin.strip()} ... {end} markers for format {fmt.name}")
        text = text[:start + len(begin)] + doc_block(fmt) + text[stop:]
    return text


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    old = DOC.read_text(encoding="utf-8")
    new = render(old)
    if "--check" in argv:
        if new != old:
            print(f"{DOC} is not current: run python scripts/gen_format_docs.py", file=sys.stderr)
            return 1
        return 0
    if new != old:
        DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
