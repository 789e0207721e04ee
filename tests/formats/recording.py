"""Run a format's reader with every parsed record wrapped so each key it reads is logged against the
format's table (tests/formats/test_tables.py).

`orjson.loads` is patched for the read: a value parsed from bytes (a JSONL line, a whole document,
a companion file's first lines) comes back as a `Recorded` dict that knows its node of the native
table. A string the table holds as JSON text (Codex `arguments`, `output`) is handed to the reader as
a `JsonStr` that knows its node, so the document the reader parses out of it is recorded too. Reads
that bypass these methods (`dict(record)`, `{**record}`, serialising a record) are not seen.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson

from redact.tables.spec import ByType, JsonText, Leaf, Many, Obj, Spec, Switch, Table

_NOWHERE = Leaf("drop")  # the node of a value the table does not classify (reads inside it are logged)


@dataclass
class Log:
    table: Table
    unclassified: set[str] = field(default_factory=set)  # paths read that no node classifies
    inside_leaf: set[str] = field(default_factory=set)  # paths read inside a leaf (a blob the reader opens)
    read: set[str] = field(default_factory=set)  # every path read and classified
    parsed: int = 0  # JSON documents (records, lines) parsed from bytes while recording


def _layout(spec: Spec | None, data: dict[str, Any], log: Log, keys: set[str] | None = None) -> Spec | None:
    """The object node `data` takes under `spec` (the Switch case it dispatches to), or None; `keys`
    collects the keys of the switches passed on the way (each is a classified field)."""
    seen = 0
    while spec is not None and seen < 32:
        seen += 1
        spec = log.table.resolve(spec)
        if isinstance(spec, Switch):
            if keys is not None:
                keys.add(spec.key)
            tag = dict.get(data, spec.key)
            chosen = spec.cases.get(tag) if isinstance(tag, str) else None
            if chosen is None and spec.default is None:
                return _common(spec, log)  # its key, and the fields every layout has
            spec = chosen if chosen is not None else spec.default
        elif isinstance(spec, ByType):
            spec = spec.obj
        else:
            return spec
    return None


def _common(switch: Switch, log: Log) -> Switch:
    """A record of a type the table does not list: the fields every layout of the switch has (the
    envelope of a record: its id, time, hash chain) are still classified, as the switch key is."""
    layouts: list[Obj] = []

    def collect(spec: Spec) -> bool:
        spec = log.table.resolve(spec)
        if isinstance(spec, Obj):
            layouts.append(spec)
            return True
        if isinstance(spec, Switch):
            subs = list(spec.cases.values()) + ([spec.default] if spec.default is not None else [])
            return all(collect(sub) for sub in subs)
        return False

    keys = set.intersection(*(set(o.fields) for o in layouts)) \
        if all(collect(case) for case in switch.cases.values()) and layouts else set()
    return Switch(switch.key, {}, Obj({k: Leaf("drop") for k in keys}))


def _child(spec: Spec | None, key: str, log: Log, data: dict[str, Any]) -> tuple[bool, Spec | None]:
    keys: set[str] = set()
    node = _layout(spec, data, log, keys)
    if key in keys:
        return True, Leaf("enum", frozenset({"x"}))
    if isinstance(node, Switch):
        if key == node.key:
            return True, Leaf("enum", frozenset({"x"}))
        common = node.default
        return (True, common.fields[key]) if isinstance(common, Obj) and key in common.fields else (False, None)
    if isinstance(node, Obj):
        sub = node.fields.get(key)
        return sub is not None, sub
    return False, None


class JsonStr(str):
    """A string the table holds as JSON text: parsing it yields a document recorded under `inner`."""

    inner: Spec
    path: str


def _wrap(value: Any, spec: Spec | None, path: str, log: Log) -> Any:
    if spec is not None:
        spec = log.table.resolve(spec)
    if isinstance(value, str):
        text = spec.text if isinstance(spec, ByType) else spec
        if isinstance(text, JsonText):
            out = JsonStr(value)
            out.inner, out.path = text.inner, path
            return out
        return value
    if isinstance(value, dict):
        return Recorded(value, spec, path, log)
    if isinstance(value, list):
        item: Spec | None = None
        if isinstance(spec, Many):
            item = spec.item
        elif isinstance(spec, ByType) and isinstance(spec.items, Many):
            item = spec.items.item
        elif isinstance(spec, ByType) and isinstance(spec.items, Leaf):
            item = spec.items  # a list the table takes whole (its shape): reads inside it are inside a leaf
        elif isinstance(spec, Leaf):
            item = spec
        return RecordedList(value, item, path + "[]", log)
    return value


class Recorded(dict):  # type: ignore[type-arg]
    def __init__(self, data: dict[str, Any], spec: Spec | None, path: str, log: Log) -> None:
        super().__init__(data)
        self._spec, self._path, self._log = spec, path, log

    def _note(self, key: Any) -> Spec | None:
        where = f"{self._path}.{key}" if self._path else str(key)
        log = self._log
        if isinstance(self._spec, Leaf) or self._spec is None:
            (log.inside_leaf if isinstance(self._spec, Leaf) and self._spec is not _NOWHERE
             else log.unclassified).add(where)
            return self._spec if self._spec is not None else _NOWHERE
        if isinstance(self._spec, JsonText):
            log.unclassified.add(where)
            return _NOWHERE
        known, sub = _child(self._spec, key, log, self)
        if not known:
            log.unclassified.add(where)
            return _NOWHERE
        log.read.add(where)
        return sub

    def __getitem__(self, key: Any) -> Any:
        sub = self._note(key)
        return _wrap(super().__getitem__(key), sub, self._child_path(key), self._log)

    def get(self, key: Any, default: Any = None) -> Any:
        sub = self._note(key)
        if not super().__contains__(key):
            return default
        return _wrap(super().__getitem__(key), sub, self._child_path(key), self._log)

    def __contains__(self, key: object) -> bool:
        found = super().__contains__(key)
        if found:  # asking for a field the record does not have reads nothing (layout sniffing)
            self._note(key)
        return found

    def _quiet(self, key: Any) -> Any:
        """A value reached by iterating (hashing a record, copying it): not a read of its own; what the
        reader then reads inside it is."""
        sub: Spec | None = None
        if isinstance(self._spec, Leaf):
            sub = self._spec
        elif self._spec is not None and not isinstance(self._spec, JsonText):
            known, sub = _child(self._spec, key, self._log, self)
            sub = sub if known else None
        return _wrap(super().__getitem__(key), sub, self._child_path(key), self._log)

    def items(self) -> Iterator[tuple[Any, Any]]:  # type: ignore[override]
        for key in super().keys():
            yield key, self._quiet(key)

    def values(self) -> Iterator[Any]:  # type: ignore[override]
        for key in super().keys():
            yield self._quiet(key)

    def _child_path(self, key: Any) -> str:
        return f"{self._path}.{key}" if self._path else str(key)


class RecordedList(list):  # type: ignore[type-arg]
    def __init__(self, data: list[Any], item: Spec | None, path: str, log: Log) -> None:
        super().__init__(data)
        self._item, self._path, self._log = item if item is not None else _NOWHERE, path, log

    def __iter__(self) -> Iterator[Any]:
        for value in super().__iter__():
            yield _wrap(value, self._item, self._path, self._log)

    def __getitem__(self, index: Any) -> Any:
        got = super().__getitem__(index)
        if isinstance(index, slice):
            return RecordedList(got, self._item, self._path, self._log)
        return _wrap(got, self._item, self._path, self._log)


@contextmanager
def recording(table: Table) -> Iterator[Log]:
    """While active, values `orjson.loads` parses from bytes are `Recorded` against `table`."""
    log = Log(table)
    real = orjson.loads

    def loads(raw: Any) -> Any:
        if isinstance(raw, JsonStr):
            value = real(str(raw))
            return _wrap(value, raw.inner, raw.path, log) if isinstance(value, dict) else value
        value = real(raw)
        if isinstance(raw, str):
            return value
        log.parsed += 1
        if isinstance(value, list) and not table.jsonl:  # a one-document format whose root is a list
            return _wrap(value, table.root, "", log)
        if not isinstance(value, dict):
            return value
        spec: Spec = table.root
        if table.document is not None and table.document_key in value:
            spec = table.document
        return _wrap(value, spec, "", log)

    orjson.loads = loads  # type: ignore[assignment]
    try:
        yield log
    finally:
        orjson.loads = real  # type: ignore[assignment]
