"""The closed list of names this tool knows: record types, subtypes and field names of every format.

A report may name a record type it skipped or a field it dropped, but only when the name is one of
these (redact/tables/names.py, which reads them from `redact/tables/vocabulary.txt`: `render()`
below is that file's text, written by scripts/gen_format_docs.py): the input chooses its keys and its `type` values, and a plain-looking word
(`globex-merger-layoffs`) is as private as any other. The list is read from the tables that already
describe each format, so there is no second hand-written list:

- the agentplay/v1 map model (redact/model/table.py): every field name and every closed enum value;
- each raw format's one table (`redact/formats/<name>/native_table.py`, through the registry): every
  object key, switch key and case, enum value;
- the raw formats' name tables (`redact/formats/<name>/table.py`): the keys of their record-type,
  subtype, status and kind tables (and, for a folder still in the older shape, the field names its
  hand-written `FIELDS` list).

Built on first use and cached; pure (no input is involved).
"""
from __future__ import annotations

import re
from functools import cache
from importlib import import_module
from typing import Any

_NAME = re.compile(r"[A-Za-z_][A-Za-z_-]*")


def _model_names(out: set[str]) -> None:
    from redact.model.table import TOP_LEVEL_ORDER, Nested, Node, event_nodes, map_node

    seen: set[int] = set()

    def walk(node: Node) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        for name, item in node.fields.items():
            out.add(name)
            if isinstance(item, Nested):
                walk(item.node)
            elif item.values:
                out.update(item.values)

    walk(map_node())
    out.update(TOP_LEVEL_ORDER)  # `events` is walked by kind, not as a field of the map's node
    out.update(event_nodes())
    for node in event_nodes().values():
        walk(node)


def _native_names(out: set[str]) -> None:
    from redact.tables import spec as sp
    from redact.formats.registry import formats

    def walk(node: Any, seen: set[int]) -> None:
        if node is None or id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, sp.Leaf):
            if node.cls in ("enum", "const"):
                out.update(node.values or ())
        elif isinstance(node, sp.Obj):
            for key, sub in node.fields.items():
                out.add(key)
                walk(sub, seen)
        elif isinstance(node, sp.Many):
            walk(node.item, seen)
        elif isinstance(node, sp.Switch):
            out.add(node.key)
            for tag, sub in node.cases.items():
                out.add(tag)
                walk(sub, seen)
            walk(node.default, seen)
        elif isinstance(node, sp.ByType):
            for part in (node.text, node.items, node.obj, node.scalar):
                walk(part, seen)
        elif isinstance(node, sp.JsonText):
            walk(node.inner, seen)
            walk(node.text, seen)

    for fmt in formats():  # every format's one table, with or without native output
        tab = fmt.table()
        seen: set[int] = set()
        walk(tab.root, seen)
        walk(tab.document, seen)
        for named in tab.named.values():
            walk(named, seen)


def _raw_names(out: set[str]) -> None:
    from redact.formats.registry import formats  # the one list of raw formats

    for fmt in formats():
        module = import_module(f"{fmt.package}.table")
        for attr, value in vars(module).items():
            if not attr.isupper() or attr.startswith("_"):
                continue
            if attr == "FIELDS":  # an older folder's (location, class, use) list: its location names
                for location, _cls, _use in value:
                    out.update(_NAME.findall(location.split("(")[0]))
            elif isinstance(value, (dict, frozenset)):
                out.update(k for k in value if isinstance(k, str))


@cache
def known_names() -> frozenset[str]:
    """Every record type, subtype, enum value and field name of every format this tool reads."""
    out: set[str] = set()
    _model_names(out)
    _native_names(out)
    _raw_names(out)
    return frozenset(out)


def render() -> str:
    """The text of `redact/tables/vocabulary.txt`: a header, then the names sorted, one a line (only
    the plain-shaped ones: no other name is ever shown, whatever the list says)."""
    from redact.tables.names import is_plain_name

    header = "# The closed list of names (redact/tables/names.py). Generated: python scripts/gen_format_docs.py\n"
    return header + "".join(f"{name}\n" for name in sorted(known_names()) if is_plain_name(name))
