"""The table drives the readers: a reader names each field it reads by its place in its format's one
table (redact/formats/slots.py), and no module of a format folder spells a key of its input.

- `Slots` finds exactly the places a table classifies, and refuses any other at import;
- every module of every format folder (the reader, its helpers, the sniffer, the native scrubber's
  own code) reads no key by a string literal: `.get("k")`, `.pop("k")`, `x["k"]`. The keys come
  from `Slots`, so a field the table does not classify cannot be read on any code path, including
  those the fixtures never reach (tests/formats/test_tables.py proves the same dynamically);
- every format whose reader parses JSON builds its keys from its own table.

They iterate the registry, so a format added later is covered without editing this file.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from redact.formats.registry import formats
from redact.formats.slots import SWITCH_KEY, SlotError, Slots
from redact.tables.spec import (
    DROP, ID, NUMBER, PATH, SHAPE, ByType, JsonText, Many, Ref, Switch, Table, enum, obj, used,
)

ROOT = Path(__file__).resolve().parents[2]

#: Modules of a format folder that may spell keys, each with the reason. The native table defines the
#: places; nothing else is exempt.
EXEMPT: dict[str, str] = {
    "native_table.py": "it is the table: it defines the places the others read",
    "tool_table.py": "part of the table: the tool table native_table.py builds on (Codex)",
}


def _table() -> Table:
    call = obj(id=ID, args=JsonText(obj(path=PATH)), input=used("command and paths", DROP), blob=DROP)
    record = Switch("type", {
        "user": obj(type=enum("user", "tool"), id=ID, text=SHAPE, content=ByType(text=SHAPE, items=Many(
            Ref("BLOCK")))),
        "tool": obj(type=enum("user", "tool"), id=ID, call=call, calls=Many(call)),
    })
    block = Switch("kind", {"image": obj(kind=enum("image"), size=NUMBER)}, default=obj(kind=SHAPE))
    return Table("toy", record, named={"BLOCK": block})


def test_key_finds_each_classified_place() -> None:
    s = Slots(_table())
    assert s.key("type") == "type" and s.node("type") is SWITCH_KEY
    assert s.key("user", "text") == "text"
    assert s.key("tool", "call", "id") == "id"
    assert s.key("tool", "calls", "id") == "id"  # through a list
    assert s.key("tool", "call", "args", "path") == "path"  # through JSON text
    assert s.key("user", "content", "kind") == "kind"  # through a JSON type and a Ref to a switch key
    assert s.key("user", "content", "image", "size") == "size"
    assert s.key("<BLOCK>", "image", "size") == "size"
    assert s.key("id") == "id"  # the envelope: every layout classifies it
    assert s.node("tool", "call") == _table().root.cases["tool"].fields["call"]  # type: ignore[union-attr]


@pytest.mark.parametrize("place", [
    ("text",),  # only the user layout has it: not a field of every record
    ("user", "call"),  # the wrong layout
    ("tool", "call", "secret"),  # an unclassified field
    ("user", "text", "inner"),  # inside a leaf
    ("tool", "call", "blob", "command"),  # inside a leaf the reader does not open
    ("<NOPE>", "x"),
    ("kind",),  # a switch key below the root is not the root's
])
def test_key_refuses_other_places(place: tuple[str, ...]) -> None:
    with pytest.raises(SlotError):
        Slots(_table()).key(*place)


def test_one_read_at_several_places() -> None:
    s = Slots(_table())
    assert s.at("id", ("user",), ("tool", "call")) == "id"
    assert s.same(("user", "id"), ("tool", "calls", "id")) == "id"
    with pytest.raises(SlotError):
        s.at("text", ("user",), ("tool",))  # the tool layout has no text
    with pytest.raises(SlotError, match="not one field"):
        s.same(("user", "id"), ("user", "text"))


def test_enum_and_another_root() -> None:
    s = Slots(_table())
    assert s.enum("user", "type") == {"user", "tool"}
    with pytest.raises(SlotError, match="not an enum"):
        s.enum("user", "text")
    doc = Slots(_table(), root=obj(run=obj(run_id=ID)))
    assert doc.key("run", "run_id") == "run_id"
    with pytest.raises(SlotError):
        doc.key("user", "text")  # the table's own root is not where this one starts


def test_blob_needs_what_the_reader_keeps() -> None:
    s = Slots(_table())
    assert s.blob("tool", "call", "input") == "input"
    with pytest.raises(SlotError, match="keeps"):
        s.blob("tool", "call", "blob")
    with pytest.raises(SlotError, match="not a leaf"):
        s.blob("tool", "call")


def test_cases_read_the_switch() -> None:
    table = Table("toy", Switch("type", {"a": used("an a", obj(type=SHAPE)), "b": obj(type=SHAPE)}))
    assert Slots(table).cases() == {"a": "mapped", "b": "skipped"}
    with pytest.raises(SlotError, match="not a switch"):
        Slots(_table()).cases("user", "text")


# -- no format module spells a key -----------------------------------------------------------------

def literal_keys(source: str) -> list[tuple[int, str]]:
    """(line, key) of each read of a key by a string literal: `.get("k")`, `.pop("k")`,
    `.setdefault("k", ...)`, `x["k"]`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("get", "pop", "setdefault") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.append((node.lineno, node.args[0].value))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            found.append((node.lineno, node.slice.value))
    return found


def test_literal_keys_sees_each_spelling() -> None:
    src = 'a = r.get("x")\nb = r["y"]\nc = r.pop("z", None)\nd = r.get(KEY)\ne = r[KEY]\nr["w"] = 1\n'
    assert literal_keys(src) == [(1, "x"), (2, "y"), (3, "z")]


FOLDERS = sorted({fmt.package.rsplit(".", 1)[1] for fmt in formats()})



@pytest.mark.parametrize("folder", FOLDERS)
def test_no_format_module_spells_a_key(folder: str) -> None:
    spelled = {}
    for path in sorted((ROOT / "redact" / "formats" / folder).glob("*.py")):
        if path.name in EXEMPT:
            continue
        found = literal_keys(path.read_text(encoding="utf-8"))
        if found:
            spelled[path.name] = found
    assert not spelled, f"{folder}: keys spelled instead of read from the table (Slots): {spelled}"


def _parses_json(folder: str) -> bool:
    fmt = next(fmt for fmt in formats() if fmt.package.endswith("." + folder))
    return not getattr(fmt, "text", False)


@pytest.mark.parametrize("folder", FOLDERS)
def test_reader_keys_come_from_its_own_table(folder: str) -> None:
    """A format whose reader parses JSON builds its keys with Slots over its own native table."""
    if not _parses_json(folder):
        source = (ROOT / "redact" / "formats" / folder / "reader.py").read_text(encoding="utf-8")
        assert "orjson" not in source and "json" not in source.replace("jsonl", "")
        return
    sources = {p.name: p.read_text(encoding="utf-8")
               for p in (ROOT / "redact" / "formats" / folder).glob("*.py") if p.name not in EXEMPT}
    users = [name for name, src in sources.items() if "Slots(" in src]
    assert users, f"{folder}: no module reads its keys through Slots"
    for name in users:
        assert f"redact.formats.{folder}.native_table import" in sources[name] \
            or f"redact.formats.{folder} import native_table" in sources[name], \
            f"{folder}/{name}: Slots over another format's table"
