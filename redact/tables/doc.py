"""A native table read as the field table people read: (location, class, what the reader keeps).

    rows(table)     -> [Row("message.usage.input_tokens / output_tokens", "number", "in, out"), ...]
    markdown(rows)  -> the `| field | class | what the reader keeps |` table of docs/formats.md

The tree (redact/tables/spec.py) is the format's one table; this only renders it. Locations use `.`
for nesting and `[]` for list items; a record type chosen at the top (`type` of a line) prefixes the
location (`assistant.message.id`), a layout chosen by a nested switch is named after it in parentheses
(`message.content[].id (tool_use)`, `... (name=Bash)`). A field every layout of a switch has is
written once, without its layouts; sibling fields with the same class and use share one row
(`usage.input_tokens / output_tokens`). The class is the native class (`shape`, `drop`, `ident:model`,
...); the use is the node's `use` text, `-` when the reader never reads the field.
"""
from __future__ import annotations

from dataclasses import dataclass

from redact.tables.spec import ByType, JsonText, Leaf, Many, Obj, Ref, Spec, Switch, Table


@dataclass(frozen=True)
class Row:
    location: str
    cls: str
    use: str


# (relative location: "" or ".name..." or "[]...", qualifiers outer first, class, use)
_Rel = tuple[str, tuple[str, ...], str, str]


def _label(leaf: Leaf) -> str:
    return f"ident:{leaf.category}" if leaf.cls == "ident" else leaf.cls


def _head(kind: str, spec: Spec) -> list[_Rel]:
    return [("", (), kind, spec.use)] if spec.use else []


def _walk(spec: Spec, at_root: bool) -> list[_Rel]:
    if isinstance(spec, Leaf):
        return [("", (), _label(spec), spec.use)]
    if isinstance(spec, Ref):
        return [("", (), f"record (`{spec.name}`)", spec.use)]
    if isinstance(spec, Obj):
        out = _head("object", spec)
        for name, sub in spec.fields.items():
            out += [(f".{name}{rel}", q, c, u) for rel, q, c, u in _walk(sub, False)]
        return out
    if isinstance(spec, Many):
        return _head("list", spec) + [(f"[]{rel}", q, c, u) for rel, q, c, u in _walk(spec.item, False)]
    if isinstance(spec, ByType):
        options = [(o, w) for o, w in ((spec.text, "string"), (spec.items, None), (spec.obj, None),
                                       (spec.scalar, "number/bool")) if o is not None]
        out = _head("by JSON type", spec)
        for option, what in options:
            extra = (what,) if what and len(options) > 1 else ()
            out += [(rel, extra + q, c, u) for rel, q, c, u in _walk(option, at_root)]
        return out
    if isinstance(spec, JsonText):
        out = _head("JSON text", spec)
        out += [(rel, ("JSON text",) + q, c, u) for rel, q, c, u in _walk(spec.inner, False)]
        if spec.text is not None:
            out += [(rel, ("not JSON",) + q, c, u) for rel, q, c, u in _walk(spec.text, False)]
        return out
    return _switch(spec, at_root)


def _switch(spec: Switch, at_root: bool) -> list[_Rel]:
    layouts = [(case, _walk(sub, False)) for case, sub in spec.cases.items()]
    if spec.default is not None:
        layouts.append(("*" if at_root else "other", _walk(spec.default, False)))
    common = set(layouts[0][1]).intersection(*(set(rows) for _, rows in layouts[1:])) if layouts else set()
    out: list[_Rel] = []
    key = f".{spec.key}"
    if spec.use and not any(rel == key and not q for _, rows in layouts for rel, q, _, _ in rows):
        out.append((key, (), "switch", spec.use))
    grouped: dict[_Rel, list[str]] = {}  # the rows every layout has first, then each layout's own
    for _, rows in layouts:
        for row in rows:
            if row in common:
                grouped.setdefault(row, [])
    for case, rows in layouts:
        for row in rows:
            if row not in common:
                grouped.setdefault(row, []).append(case)
    for (rel, q, c, u), cases in grouped.items():
        if rel == key and not q and spec.use:
            u = spec.use  # the key's rows, in whichever layouts they are
        if not cases:
            out.append((rel, q, c, u))
        elif at_root:
            out.append((f".{_cases(cases)}{rel}", q, c, u))
        else:
            name = _cases(cases)
            out.append((rel, (name if spec.key == "type" else f"{spec.key}={name}",) + q, c, u))
    return out


def _cases(cases: list[str]) -> str:
    """The layouts a row belongs to; a long list (tool spellings) is shortened."""
    if len(cases) <= _SHOWN:
        return "|".join(cases)
    return "|".join(cases[:_SHOWN // 2]) + f"|... ({len(cases)} in all)"


_SHOWN = 12


def rows(table: Table) -> list[Row]:
    """The field table of `table`: every field (each named node once), with its class and use."""
    found: list[_Rel] = _walk(table.root, True)
    if table.document is not None:
        found += [(rel, ("one-document layout",) + q, c, u) for rel, q, c, u in _walk(table.document, True)]
    for name, node in table.named.items():
        if node is not table.root:
            found += [(rel, (f"`{name}`",) + q, c, u) for rel, q, c, u in _walk(node, True)]
    return _merge(found)


def _merge(found: list[_Rel]) -> list[Row]:
    """Sibling fields with the same class, use and layouts share one row."""
    groups: dict[tuple[str, tuple[str, ...], str, str], list[str]] = {}
    for rel, q, c, u in found:
        where = rel.lstrip(".")
        parent, _, last = where.rpartition(".")
        if "[" in last or "|" in last or " " in last:
            parent, last = where, ""
        groups.setdefault((parent, q, c, u), []).append(last)
    out: list[Row] = []
    for (parent, q, c, u), names in groups.items():
        lasts = list(dict.fromkeys(names))
        where = parent if lasts == [""] else " / ".join(
            f"{parent}.{n}" if i == 0 and parent else n for i, n in enumerate(lasts) if n)
        if "" in lasts and lasts != [""]:
            where = f"{parent} / {where}" if parent else where
        location = (where or "(the record)") + (f" ({', '.join(q)})" if q else "")
        out.append(Row(location, c, u or "-"))
    return out


def markdown(found: list[Row]) -> str:
    lines = ["| field | class | what the reader keeps |", "|---|---|---|"]
    lines += [f"| `{r.location}` | {r.cls} | {r.use} |" for r in found]
    return "\n".join(lines) + "\n"
