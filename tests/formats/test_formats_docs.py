"""docs/formats.md shows each raw format's tables exactly as its one table declares them.

The field table of each format is rendered from its native table (redact/tables/doc.py) with the
`use` text of each node; scripts/gen_format_docs.py writes the blocks. Every format of the registry
is checked, so a format added later must have its markers in the doc.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from redact.formats.fieldtable import doc_block, field_rows, legacy_fields
from redact.formats.registry import Format, formats
from redact.tables.spec import CLASSES

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"
NAMES = [fmt.name for fmt in formats()]
#: Rows for inner nodes that carry a use: what kind of node the field is.
NODE_KINDS = {"object", "list", "by JSON type", "JSON text", "switch"}
#: The classes of the older hand-written FIELDS lists (a format merged in that shape).
LEGACY = {"text", "blob", "path", "command", "id", "number", "bool", "enum", "timestamp", "version"}


def _format(name: str) -> Format:
    return next(fmt for fmt in formats() if fmt.name == name)


@pytest.mark.parametrize("name", NAMES)
def test_docs_tables_match_the_code(name: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = f"<!-- {name}-tables:begin -->\n", f"<!-- {name}-tables:end -->"
    assert begin in text and end in text, f"add the {name} markers to docs/formats.md"
    block = text[text.index(begin) + len(begin): text.index(end)]
    assert block == doc_block(_format(name)), "run: python scripts/gen_format_docs.py"


@pytest.mark.parametrize("name", NAMES)
def test_every_field_has_a_class(name: str) -> None:
    fmt = _format(name)
    legacy = legacy_fields(fmt) is not None
    for row in field_rows(fmt):
        parts = [p.strip() for p in row.cls.replace("(", "/").replace(")", "").split("/")] if legacy else [row.cls]
        for part in filter(None, parts):
            base = part.split(":")[0]
            ok = base in LEGACY | {"ident", "JSON in a string"} if legacy else \
                base in CLASSES | NODE_KINDS or part.startswith("record (")
            assert ok, (row.location, row.cls)
        assert row.use, row.location


def test_only_aiders_markdown_keeps_a_line_table() -> None:
    """Every JSON format's one table is its tree; Aider's history is Markdown, so its table is its
    list of structured lines (its tree is `DROP`: it reads no JSON field; tests/formats/test_tables.py
    checks it parses none)."""
    assert [name for name in NAMES if legacy_fields(_format(name)) is not None] == ["aider"]


@pytest.mark.parametrize("name", [n for n in NAMES if n != "aider"])
def test_the_reader_says_what_it_keeps(name: str) -> None:
    """The table says what the reader keeps of the fields it reads: the record dispatch, times, and
    the fields it maps (a table with no use texts would render a doc of dashes)."""
    fmt = _format(name)
    used = [row for row in field_rows(fmt) if row.use != "-"]
    assert len(used) >= 10, [row.location for row in used]
    assert any("dispatch" in row.use for row in used)


def test_the_generator_leaves_the_doc_as_it_is() -> None:
    """scripts/gen_format_docs.py (what a contributor runs) writes exactly what is committed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_format_docs", DOC.parents[1] / "scripts" / "gen_format_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = DOC.read_text(encoding="utf-8")
    assert module.render(text) == text, "run: python scripts/gen_format_docs.py"


def test_the_closed_list_of_names_is_what_the_tables_produce() -> None:
    """redact/tables/vocabulary.txt is data the format tables produce (so the shared layer that reads
    it imports no table): the committed file is exactly what they produce now, and the list the
    reports ask is every plain name of it."""
    from redact.formats.vocabulary import known_names, render
    from redact.tables import names

    committed = (DOC.parents[1] / "redact" / "tables" / "vocabulary.txt").read_text(encoding="utf-8")
    assert committed == render(), "run: python scripts/gen_format_docs.py"
    plain = {n for n in known_names() if names.is_plain_name(n)}
    assert names.known_names() == plain and {"assistant", "tool_use", "sessionId"} <= plain


def test_a_folder_in_the_older_shape_is_read_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A format merged with a hand-written `table.FIELDS` and a `markdown()` that renders it keeps
    working: its rows are its FIELDS and its block is its markdown(); one in the new shape gets its
    rows from its tree and its name tables from its markdown()."""
    import sys
    import types

    from redact.formats.registry import FormatFolder
    from redact.tables.spec import ID, Switch, Table, const, obj, used

    old = types.ModuleType("redact.formats.old_shape.table")
    old.FIELDS = (("*.type", "enum", "record dispatch"), ("x.id", "id", "session.id"))  # type: ignore[attr-defined]
    old.markdown = lambda: "| field | class | what the reader keeps |\n"  # type: ignore[attr-defined]
    new = types.ModuleType("redact.formats.new_shape.table")
    new.markdown = lambda: "| record type | handling |\n"  # type: ignore[attr-defined]
    tree = types.ModuleType("redact.formats.new_shape.native_table")
    tree.TABLE = Table("new-shape", used("record dispatch", Switch("type", {  # type: ignore[attr-defined]
        "x": obj(type=const("x"), id=used("session.id", ID))})))
    for module in (old, new, tree):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    old_fmt = FormatFolder("old-shape", "", "redact.formats.old_shape")
    new_fmt = FormatFolder("new-shape", "", "redact.formats.new_shape")
    assert [(r.location, r.cls, r.use) for r in field_rows(old_fmt)] == list(old.FIELDS)  # type: ignore[attr-defined]
    assert doc_block(old_fmt) == old.markdown()  # type: ignore[attr-defined]
    assert [(r.location, r.cls, r.use) for r in field_rows(new_fmt)] == [("type", "const", "record dispatch"),
                                                                          ("id", "id", "session.id")]
    assert doc_block(new_fmt).startswith("| record type | handling |\n\n| field | class |")
