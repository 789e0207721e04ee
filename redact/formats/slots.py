"""A reader's keys, taken from its format's one table: the table drives what a reader can read.

A reader never spells a key of its input. It names the field by its place in the native tree of its
format (`native_table.TABLE`), once, at import:

    S = Slots(TABLE)
    KIND = S.key("crush")                              # the record switch's own key
    PROJECT = S.key("session", "project")              # a field of the `session` layout
    TEXT = S.key("message", "parts", "text", "data", "text")
    INPUT = S.blob("message", "parts", "tool_call", "data", "input")

and reads `record.get(PROJECT)`. `key` returns the field's name (a plain `str`: the read costs what a
literal costs) after proving the place is one the table classifies; a place it does not classify
fails the import, so a reader cannot read a field the table does not know, on any code path (the
recording test, tests/formats/test_tables.py, proves the same dynamically over real sessions, and
tests/formats/test_slots.py proves no reader module spells a key).

A place is a sequence of names, walked from the table's root (or from a named node, `"<NAME>"` first):

- at a `Switch`, its own key (last name only), or a case name, which selects that layout; any other
  name is looked up in the default layout, else in every layout (a field all of them classify: the
  envelope of a record, its id and time);
- at an `Obj`, a field name;
- `Many`, `ByType`, `JsonText` and `Ref` are passed through (an item, the JSON type that has the
  field, the parsed JSON text, the named node).

A leaf ends a place: `key` refuses to step inside one. `blob` names a leaf the reader opens itself (a
tool's arguments, a JSON string the native table drops whole): its node must say what the reader
keeps of it (`use`), and the names read inside it belong to the format's tool table.
"""
from __future__ import annotations

from collections.abc import Sequence

from redact.tables.spec import ByType, JsonText, Leaf, Many, Obj, Ref, Spec, Switch, Table, handling

#: The node a switch's own key resolves to (its value selects a layout).
SWITCH_KEY = Leaf("enum", frozenset({"<switch key>"}))


class SlotError(ValueError):
    """A reader names a place its format's table does not classify (raised at import)."""


class Slots:
    """The places of one format's table, looked up by name (see the module docstring)."""

    def __init__(self, table: Table, root: Spec | None = None) -> None:
        """`root`: where places start instead of the table's root (a one-document layout of a JSONL
        format, `Table.document`)."""
        self.table = table
        self.root = table.root if root is None else root

    def node(self, *place: str) -> Spec:
        """The node at `place`, or SlotError."""
        if not place:
            raise SlotError(f"{self.table.format}: an empty place")
        start: Spec = self.root
        names: Sequence[str] = place
        if place[0].startswith("<") and place[0].endswith(">"):
            named = place[0][1:-1]
            if named not in self.table.named:
                raise SlotError(f"{self.table.format}: no named node {place[0]}")
            start, names = self.table.named[named], place[1:]
            if not names:
                return self.table.resolve(start)
        found = self._find(start, names, 0)
        if found is None:
            raise SlotError(f"{self.table.format}: the table does not classify {'.'.join(place)}")
        return found

    def key(self, *place: str) -> str:
        """The name of the field at `place` (its last name), after proving the table classifies it."""
        self.node(*place)
        if place[-1].startswith("<"):
            raise SlotError(f"{self.table.format}: {place[-1]} is a node, not a field")
        return place[-1]

    def at(self, name: str, *places: tuple[str, ...]) -> str:
        """`name`, a field one read reaches at each of `places` (the same key of several layouts):
        each `(*place, name)` must be classified."""
        for place in places:
            self.key(*place, name)
        return name

    def same(self, *places: tuple[str, ...]) -> str:
        """The one name of the fields at `places` (one read reaching several places by one name)."""
        names = {self.key(*place) for place in places}
        if len(names) != 1:
            raise SlotError(f"{self.table.format}: {sorted(names)} are not one field")
        return names.pop()

    def enum(self, *place: str) -> frozenset[str]:
        """The values of the enum at `place` (a closed set the reader compares with)."""
        found = self.node(*place)
        if not isinstance(found, Leaf) or found.cls != "enum" or not found.values or found is SWITCH_KEY:
            raise SlotError(f"{self.table.format}: {'.'.join(place)} is not an enum")
        return found.values

    def blob(self, *place: str) -> str:
        """The name of a leaf the reader opens itself; its node must say what the reader keeps of it."""
        found = self.node(*place)
        if not isinstance(found, Leaf) or found is SWITCH_KEY:
            raise SlotError(f"{self.table.format}: {'.'.join(place)} is not a leaf")
        if not found.use:
            raise SlotError(f"{self.table.format}: {'.'.join(place)} is opened by the reader, "
                            "so its node says what the reader keeps of it (used(...))")
        return place[-1]

    def cases(self, *place: str) -> dict[str, str]:
        """The layouts of the switch at `place`: `mapped` for those the reader maps (their node says
        what it keeps), `skipped` for the others (redact/tables/spec.py `handling`)."""
        found = self.node(*place) if place else self.table.resolve(self.root)
        while isinstance(found, Many | ByType | JsonText):
            found = self.table.resolve(_through(found)[0])
        if not isinstance(found, Switch):
            raise SlotError(f"{self.table.format}: {'.'.join(place) or 'the root'} is not a switch")
        return handling(found)

    def _find(self, spec: Spec, names: Sequence[str], depth: int) -> Spec | None:
        if depth > 64:
            return None
        spec = self.table.resolve(spec)
        if not names:
            return spec
        head, rest = names[0], names[1:]
        if isinstance(spec, Leaf):
            return None
        if isinstance(spec, Obj):
            sub = spec.fields.get(head)
            return None if sub is None else self._find(sub, rest, depth + 1)
        if isinstance(spec, Switch):
            if head == spec.key and not rest:
                return SWITCH_KEY
            if head in spec.cases:
                found = self._find(spec.cases[head], rest, depth + 1)
                if found is not None:
                    return found
            if spec.default is not None:
                return self._find(spec.default, names, depth + 1)
            layouts = [self._find(case, names, depth + 1) for case in spec.cases.values()]
            return layouts[0] if layouts and all(found is not None for found in layouts) else None
        for option in _through(spec):
            found = self._find(option, names, depth + 1)
            if found is not None:
                return found
        return None


def _through(spec: Spec) -> list[Spec]:
    """The nodes a place passes through at a list, a JSON-typed field or a JSON string."""
    if isinstance(spec, Many):
        return [spec.item]
    if isinstance(spec, ByType):
        return [option for option in (spec.obj, spec.items, spec.text, spec.scalar) if option is not None]
    if isinstance(spec, JsonText):
        return [spec.inner] + ([spec.text] if spec.text is not None else [])
    if isinstance(spec, Ref):
        return [spec]
    return []
