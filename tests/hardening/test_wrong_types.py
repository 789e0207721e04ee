"""Wrong JSON types in every field of a map, generated from the field table (redact/model/table.py).

For each field of each object of the format (the map, its session, totals, repos, files, agents, tasks,
prs, every event kind and the objects inside events), a value of a type the field does not accept goes
through the CLI. Exit 2 naming the field's JSON pointer; the `tasks` block is the format's one
exception (a malformed block is dropped, never fatal) and an event whose `kind` is not a string is an
unknown kind (dropped and counted).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.model.table import Leaf, Nested, Node, event_nodes, map_node
from tests.hardening.helpers import assert_refused, cli, example_map

_SAMPLE: dict[type, Any] = {str: "x", int: 7, float: 0.5, bool: True}
_COMMON_EVENT_FIELDS = set.intersection(*(set(n.fields) for n in event_nodes().values()))


def _wrong_values(spec: Leaf | Nested) -> list[Any]:
    """A value of a JSON type the field does not take, and null where null is not allowed.

    Objects and lists in scalar fields, the other confusion, are checked on a sample below.
    """
    if isinstance(spec, Nested):
        return ["x"]
    if spec.many:
        return ["not a list"]
    if spec.mapping:
        return [[1, 2]]
    if str in spec.py:
        out: list[Any] = [7]
    elif bool in spec.py:
        out = ["true"]
    else:
        out = [True]  # a bool where a number belongs: JSON has no int/bool confusion, Python does
    if not spec.nullable:
        out.append(None)
    return out


def _minimal(node: Node) -> dict[str, Any]:
    """A valid object of `node` with only its required fields."""
    out: dict[str, Any] = {}
    for name, spec in node.fields.items():
        if isinstance(spec, Leaf) and spec.required:
            if spec.values:
                out[name] = min(spec.values)
            else:
                out[name] = _SAMPLE[min(spec.py, key=lambda t: t.__name__)]
    return out


def _cases() -> list[tuple[str, str, Any]]:
    """(container pointer, field, wrong value): the pointer's object gets `field` set to the value."""
    cases: list[tuple[str, str, Any]] = []

    def walk(node: Node, ptr: str) -> None:
        for name, spec in node.fields.items():
            for value in _wrong_values(spec):
                cases.append((ptr, name, value))
            if isinstance(spec, Nested):
                walk(spec.node, f"{ptr}/{name}/0" if spec.many else f"{ptr}/{name}")

    walk(map_node(), "")
    for kind, node in sorted(event_nodes().items()):
        for name, spec in node.fields.items():
            if name in _COMMON_EVENT_FIELDS and kind not in ("exec", "llm"):
                continue  # the fields every event has: checked on two kinds, not on all 23
            if name == "kind":
                continue
            for value in _wrong_values(spec):
                cases.append((f"@{kind}", name, value))
            if isinstance(spec, Nested) and kind == "exec":  # the same objects in read, edit...
                for inner, inner_spec in spec.node.fields.items():
                    for value in _wrong_values(inner_spec):
                        cases.append((f"@{kind}/{name}" + ("/0" if spec.many else ""), inner, value))
    return cases


CASES = _cases()


def _base_event(kind: str, seq: int) -> dict[str, Any]:
    return {"seq": seq, "t": 10**9, "kind": kind, "agent": "main"}


def _place(m: dict[str, Any], container: str, field: str, value: Any) -> str:
    """Put `value` at `container/field` in `m`; returns the JSON pointer the error must name."""
    if container.startswith("@"):
        kind, *rest = container[1:].split("/")
        seq = len(m["events"])
        m["events"].append(_base_event(kind, seq))
        node: Any = m["events"][-1]
        ptr = f"/events/{seq}"
        if rest:
            name = rest[0]
            spec = event_nodes()[kind].fields[name]
            assert isinstance(spec, Nested)
            inner = _minimal(spec.node)
            node[name] = [inner] if spec.many else inner
            node = inner
            ptr += "/" + "/".join(rest)
    else:
        node = m
        ptr = container
        for part in container.strip("/").split("/") if container else []:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
    node[field] = value
    return f"{ptr}/{field}"


def _id(case: tuple[str, str, Any]) -> str:
    container, field, value = case
    return f"{container or '/'}:{field}={type(value).__name__}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_wrong_type(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: tuple[str, str, Any]) -> None:
    container, field, value = case
    m = example_map()
    pointer = _place(m, container, field, value)
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    out = tmp_path / "out.json"
    if pointer.startswith("/tasks"):
        run = cli(capsys, src, "-o", out)
        assert run.code == 0, run.err
        assert "tasks" not in orjson.loads(out.read_bytes())
        return
    if pointer == "/events":
        assert_refused(capsys, tmp_path, src, "-o", out, names=f"{src}#/events")
        return
    if pointer == "/schema":
        assert_refused(capsys, tmp_path, src, "-o", out, names=f"{src}#/schema")
        return
    line = assert_refused(capsys, tmp_path, src, "-o", out, names=f"{src}#{pointer}")
    assert "an object" in line or "a list" in line or "expected" in line or "null" in line, line


def test_every_field_of_the_table_is_covered() -> None:
    fields = {(c[0].split("/")[0] if c[0].startswith("@") else c[0], c[1]) for c in CASES}
    assert ("", "session") in fields and ("/session", "startedAt") in fields
    assert all(any(k == f"@{kind}" for k, _ in fields) for kind in event_nodes())
    assert len(CASES) > 200


def test_wrong_kind_type_is_an_unknown_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = example_map()
    m["events"].append({"seq": len(m["events"]), "t": 1, "kind": ["exec"], "agent": "main", "verb": "Zq"})
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out, "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    report = orjson.loads((tmp_path / "r.json").read_bytes())
    assert b"Zq" not in out.read_bytes() and "unknown kind" in orjson.dumps(report).decode()


@pytest.mark.parametrize("pointer,value", [
    ("/session/id", {"an": "object"}), ("/session/models", [{"an": "object"}]), ("/session/models", ["7", 7]),
    ("/totals/tokens", "7"), ("/totals/tokens", [7]), ("/totals/errorsBySource", {"tool": "seven"}),
    ("/repos/0/name", ["a", "list"]), ("/files/0/path", {"an": "object"}), ("/agents/0/model", [None]),
    ("/prs/0/number", "12"), ("/events/0/t", "2026-01-01T00:00:00Z"), ("/events/0/agent", {"id": "main"}),
])
def test_objects_and_lists_in_scalar_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str], pointer: str,
                                            value: Any) -> None:
    m = example_map()
    *parents, last = pointer.strip("/").split("/")
    node: Any = m
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[last] = value
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}#{pointer}")
