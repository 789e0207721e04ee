"""A raw format's field table for people, from its one executable table (the native tree).

    field_rows(fmt)  -> [Row(location, cls, use), ...]     (redact/tables/doc.py)
    doc_block(fmt)   -> the Markdown between `<!-- <name>-tables:begin/end -->` in docs/formats.md

A format folder provides `native_table.TABLE` with `use` texts on its nodes (redact/tables/spec.py);
`table.markdown()`, when the folder defines it, renders only its name tables (record types, tools).
Older folders that still keep a hand-written `table.FIELDS` (location, class, use) are read as they
are: their `table.markdown()` renders the whole block, FIELDS included (scripts/gen_format_docs.py
writes the blocks; tests/formats/test_formats_docs.py fails when the doc is not current).
"""
from __future__ import annotations

from importlib import import_module
from types import ModuleType

from redact.formats.registry import Format
from redact.tables.doc import Row, markdown, rows


def _names(fmt: Format) -> ModuleType:
    return import_module(f"{fmt.package}.table")


def legacy_fields(fmt: Format) -> tuple[tuple[str, str, str], ...] | None:
    """The hand-written FIELDS of a folder in the older two-list shape, else None."""
    found = getattr(_names(fmt), "FIELDS", None)
    return tuple(found) if found is not None else None


def field_rows(fmt: Format) -> list[Row]:
    legacy = legacy_fields(fmt)
    if legacy is not None:
        return [Row(where, cls, use) for where, cls, use in legacy]
    return rows(fmt.table())


def doc_block(fmt: Format) -> str:
    module = _names(fmt)
    render = getattr(module, "markdown", None)
    if legacy_fields(fmt) is not None and render is not None:
        return str(render())
    head = str(render()) + "\n" if render is not None else ""
    return head + markdown(field_rows(fmt))
