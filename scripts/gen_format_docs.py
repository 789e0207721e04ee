"""Write what the format tables produce: each raw format's tables into docs/formats.md, between its
marker comments, and the closed list of names into redact/tables/vocabulary.txt.

    python scripts/gen_format_docs.py          # rewrite the blocks and the list
    python scripts/gen_format_docs.py --check  # exit 1 when either is not current

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
VOCABULARY = ROOT / "redact" / "tables" / "vocabulary.txt"


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
    from redact.formats.vocabulary import render as vocabulary

    stale = []
    for path, make in ((DOC, render), (VOCABULARY, lambda _old: vocabulary())):
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        new = make(old)
        if new == old:
            continue
        if "--check" in argv:
            stale.append(path)
        else:
            path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{path} is not current: run python scripts/gen_format_docs.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
