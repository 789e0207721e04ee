"""Every string the fixture logs hold, replaced one at a time by words: none survives.

The reviews that closed the value channels (a version suffix, `local:<label>:`, `vcs.action`, native
harness ids, MCP tool names) each found one loose grammar by reading. This test does it by brute
force, for every format and for a map given as input: each string value of a fixture log (every slot a harness writes, ids and
types and names included) is replaced by made-up words (a phrase, or spliced onto the value), and the log goes through both paths,
`--to native` and log -> map, under `default` and `public` (with a key, `hashed` paths). The words
must not come out, except inside an identifier the policy keeps in clear and the report lists
(`default` keeps model and tool names); refusing the input, or the scanner blocking the write, is a
safe outcome too.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest

from redact.api import redact_bytes
from redact.errors import RedactError
from redact.keys.material import Key
from redact.api_native import scrub_native
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import goosefix, storefix, zedfix
from tests.formats.test_aider import history
from tests.hardening.helpers import EXAMPLE_MAP
from tests.native.test_fail_closed import INPUTS, format_of

KEY = Key(bytes(range(7, 39)), source="test")
# The shapes the words take in a slot, in turn: a phrase, or spliced onto the slot's own value the way
# a loose grammar would let them ride (`toolu_01Ab` + `ZqxvGlobexian`, `2.1.40` + `-zqxv-globexian`).
SHAPES: tuple[Callable[[str], str], ...] = (
    lambda v: "zqxv Globexian payroll layoffs for Bobsmith",
    lambda v: v + "ZqxvGlobexianBobsmith",
    lambda v: v + "-zqxv-globexian",
    lambda v: v + "_zqxv_globexian",
    lambda v: "zqxv_globexian_bobsmith",
    lambda v: v.split("_")[0] + "_ZqxvGlobexianBobsmith01",
    lambda v: v + "-ZqxvGlobexian",
)
# What must not come out, even as a piece (compared without case): the made-up words.
PIECES = ("zqxv", "globexian", "bobsmith")


def _strings(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _strings(v, (*path, i))
    elif isinstance(node, str) and node:
        yield path


def _put(doc: Any, path: tuple[Any, ...], shape: Callable[[str], str]) -> Any:
    out = orjson.loads(orjson.dumps(doc))
    node = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = shape(node[path[-1]])
    return out


def _records(data: bytes) -> tuple[list[Any], bool]:
    """The fixture as parsed values, and whether it is JSON Lines."""
    lines = [line for line in data.split(b"\n") if line.strip()]
    try:
        return [orjson.loads(line) for line in lines], True
    except orjson.JSONDecodeError:
        return [orjson.loads(data)], False


def _serialize(records: list[Any], jsonl: bool) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records) if jsonl else orjson.dumps(records[0])


def _store_export(build: Callable[..., None], name: str) -> Callable[[], bytes]:
    """The JSON Lines a store format's reader reads: the export of a fixture store (maps only)."""
    def load() -> bytes:
        import tempfile
        from pathlib import Path

        from redact.formats.stores import export

        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / name
            build(db)
            return export(db, None, where=name)[1]
    return load


#: Formats without a native output (SQLite stores): their export goes through log -> map only.
MAP_ONLY: dict[str, Callable[[], bytes]] = {
    "opencode": _store_export(storefix.opencode_db, "opencode.db"),
    "crush": _store_export(storefix.crush_db, "crush.db"),
    "cursor": _store_export(storefix.cursor_global_db, "state.vscdb"),
    "cursor-tabs": _store_export(storefix.cursor_workspace_db, "state.vscdb"),
    "zed": _store_export(zedfix.threads_db, "threads.db"),
    "goose#db": _store_export(goosefix.sessions_db, "sessions.db"),
}


def _load(fmt: str) -> bytes:
    if fmt in MAP_ONLY:
        return MAP_ONLY[fmt]()
    return EXAMPLE_MAP.read_bytes() if fmt == "map" else INPUTS[fmt]()


def _variants(fmt: str) -> Iterator[tuple[str, bytes]]:
    records, jsonl = _records(_load(fmt))
    n = 0
    for i, record in enumerate(records):
        for path in _strings(record):
            # a map is small: every shape in every slot; a log has many slots: the shapes in turn
            for shape in SHAPES if fmt == "map" else (SHAPES[n % len(SHAPES)],):
                changed = list(records)
                changed[i] = _put(record, path, shape)
                yield f"{i}:{'/'.join(map(str, path))}", _serialize(changed, jsonl)
            n += 1


Run = Callable[[bytes], tuple[bytes, RedactionReport]]


def _runs(fmt: str) -> list[tuple[str, Run]]:
    """`default` in `hashed` mode (repo paths are shown by design in `relative`), and `public`."""
    def native(policy: str) -> Run:
        def run(data: bytes) -> tuple[bytes, RedactionReport]:
            report = RedactionReport(source="in")
            out = scrub_native(data, format_of(fmt), name="in", policy=load_policy(policy, mode="hashed"), key=KEY,
                               mode="hashed", report=report)
            return out, report
        return run

    def to_map(policy: str) -> Run:
        def run(data: bytes) -> tuple[bytes, RedactionReport]:
            result = redact_bytes(data, name="in", policy=policy, key=KEY, mode="hashed",
                                  input_format=None if fmt == "map" else format_of(fmt).removesuffix("-tabs"))
            return result.data, result.report
        return run

    maps = [("map-default", to_map("default")), ("map-public", to_map("public"))]
    return maps if fmt == "map" or fmt in MAP_ONLY else [("native-default", native("default")), ("native-public", native("public")),
                                      *maps]


@pytest.mark.parametrize("fmt", ["map", *INPUTS, *MAP_ONLY])
def test_no_string_slot_lets_words_through(fmt: str) -> None:
    leaks: list[str] = []
    slots = 0
    for where, data in _variants(fmt):
        slots += 1
        for name, run in _runs(fmt):
            try:
                out, report = run(data)
            except RedactError:  # refused, or blocked by the scanner: nothing written
                continue
            text = out.decode("utf-8", "replace").lower()
            found = [p for p in PIECES if p in text]
            # an identifier the policy keeps in clear (`default`: models, tools, repos...) is shown by
            # design, and listed in the report for the reader to check; nothing else may carry them
            listed = " ".join(v for values in report.idents.kept.values() for v in values).lower()
            if [p for p in found if p not in listed]:
                leaks.append(f"{name} {where}: {found}")
            # the report too (issue 13 item 3): record types, subtypes, field names the input chose
            # reach it only when they are names this tool knows, never a planted word
            said = str(report.as_dict()).lower()
            in_report = [p for p in PIECES if p in said and p not in listed]
            if in_report:
                leaks.append(f"{name} {where} (report): {in_report}")
    assert slots > (10 if fmt == "cursor-tabs" else 20), slots  # the fixture has slots to test
    assert not leaks, "\n".join(leaks[:40])


def test_no_line_of_an_aider_history_lets_words_through() -> None:
    """Aider's history is Markdown: each line is a slot. Every line of the fixture, in turn, is
    replaced by the words (or has them spliced on); they never come out."""
    lines = history().split("\n")
    leaks: list[str] = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        shape = SHAPES[i % len(SHAPES)]
        changed = "\n".join([*lines[:i], shape(line), *lines[i + 1:]]).encode()
        for policy in ("default", "public"):
            try:
                result = redact_bytes(changed, name="in", policy=policy, key=KEY, mode="hashed", input_format="aider")
            except RedactError:
                continue
            text = result.data.decode("utf-8", "replace").lower()
            listed = " ".join(v for values in result.report.idents.kept.values() for v in values).lower()
            found = [p for p in PIECES if p in text and p not in listed]
            if found:
                leaks.append(f"{policy} line {i}: {found}")
    assert not leaks, "\n".join(leaks[:40])
