"""docs/formats.md shows the Claude Code tables exactly as the reader declares them."""
from __future__ import annotations

from pathlib import Path

from redact.formats.claude_code.table import FIELDS, RECORD_TYPES, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"


def test_docs_tables_match_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = "<!-- claude-code-tables:begin -->\n", "<!-- claude-code-tables:end -->"
    block = text[text.index(begin) + len(begin): text.index(end)]
    assert block == markdown(), "regenerate the block from redact.formats.claude_code.table.markdown()"


def test_tables_are_well_formed() -> None:
    classes = {"text", "blob", "path", "command", "id", "number", "bool", "enum", "timestamp", "version",
               "enum/number"}
    for where, cls, use in FIELDS:
        assert cls in classes or cls.startswith("ident:"), where
        assert use
    assert set(RECORD_TYPES.values()) == {"mapped", "skipped"}
