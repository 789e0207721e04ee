"""Fidelity over the shared corpus: does each Kimi CLI map keep everything its wire log did?

A small parser written here, straight from the JSON and sharing no code with the reader, counts in
each wire log (a subagent's nested events too): tool calls, shell calls, failed tool calls, model
steps that produced something, tokens, prompts, interruptions and subagent lanes. The map's totals
and events are counted the same way; they must agree exactly. Also run on the fixture. Skipped when
../shared/corpus is absent. `full_counts` counts every field of tests/formats/fidelity.py's `Counts`
(issue 25) the same way: a call's arguments are its `ToolCall`'s text and the `ToolCallPart`s of its
lane that follow it (until the lane's next call or step); times are the lines' own `timestamp`s (the start: the first line that is an event, as the seed
defines `startedAt`; a resumed log's opening result of an earlier call is none);
WriteFile says "overwritten" of a new file too, so the log shows no created file.

    PYTHONPATH=. python -m tests.formats.test_kimi_fidelity

prints the agreement per wire protocol version.
"""
from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import Canaries
from tests.formats.fidelity import Counts as Full
from tests.formats.fidelity import differences, iso, table
from tests.formats.fidelity import map_counts as full_map_counts
from tests.native.kimifix import wire

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@dataclass
class Counts:
    calls: int = 0
    shell: int = 0
    tool_errors: int = 0  # is_error results (a call with no result is the map's own no_result finding)
    requests: int = 0  # steps with content, a tool call or token usage
    tokens: int = 0
    prompts: int = 0  # the user's turns (not a subagent's task)
    interrupted: int = 0
    subagents: int = 0


def source_counts(data: bytes) -> Counts:
    n = Counts()
    calls: set[str] = set()
    lanes: set[str] = set()
    produced: dict[str, bool] = {}

    def end_step(lane: str) -> None:
        if produced.pop(lane, False):
            n.requests += 1

    def event(e: dict[str, Any], lane: str) -> None:
        kind, p = e["type"], e["payload"]
        if kind == "TurnBegin" and lane == "main":
            n.prompts += 1
        elif kind == "StepBegin":
            end_step(lane)
            produced[lane] = False
        elif kind in ("ContentPart", "ToolCall", "StatusUpdate") and lane in produced:
            produced[lane] = True
        if kind == "ToolCall":
            n.calls += 1
            n.shell += p["function"]["name"] == "Shell"
            calls.add(p["id"])
        elif kind == "ToolResult" and p["tool_call_id"] in calls:
            n.tool_errors += bool(p["return_value"].get("is_error"))
        elif kind == "StatusUpdate":
            n.tokens += sum(p["token_usage"].values())
        elif kind == "StepInterrupted":
            n.interrupted += 1
            end_step(lane)
        elif kind == "SubagentEvent" and p["task_tool_call_id"] in calls:
            lanes.add(p["task_tool_call_id"])
            event(p["event"], p["task_tool_call_id"])

    for raw in data.split(b"\n"):
        if raw.strip():
            r = json.loads(raw)
            if "message" in r:
                event(r["message"], "main")
    for lane in list(produced):
        end_step(lane)
    n.subagents = len(lanes)
    return n


def map_counts(m: dict[str, Any]) -> Counts:
    t, ev = m["totals"], m["events"]
    calls = [e for e in ev if e["kind"] in CALL_KINDS]
    return Counts(
        calls=t["calls"], shell=sum(1 for e in calls if "verb" in e), tool_errors=sum(
            1 for e in calls if e.get("err") and e.get("errClass") != "no_result"),
        requests=t["requests"], tokens=t["tokens"], prompts=t["userTurns"],
        interrupted=t["errorsByClass"].get("interrupted", 0), subagents=t["subagents"])


def _check(data: bytes, name: str) -> None:
    m = redact_bytes(data, name=name).session_map
    assert asdict(map_counts(m)) == asdict(source_counts(data)), name


def test_the_fixture_keeps_everything() -> None:
    _check(wire(Canaries("f")), "wire.jsonl")


def _corpus() -> list[Path]:
    return sorted(corpus_dir("kimi").rglob("wire.jsonl"))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "parent", Path(str(p))).name)
def test_every_corpus_session_keeps_everything(path: Path) -> None:
    corpus_case(path, "kimi")
    _check(path.read_bytes(), path.name)


# -- every field of the shared Counts (issue 25) -----------------------------------------------------
_KIND = {"Shell": "shell", "ReadFile": "read", "ReadMediaFile": "read", "WriteFile": "edit",
         "StrReplaceFile": "edit", "Glob": "search", "Grep": "search", "SearchWeb": "web", "FetchURL": "web"}


def full_counts(data: bytes) -> Full:
    c = Full()
    times: list[float] = []
    first: list[float] = []  # the times of lines that are events (the seed: startedAt is the first event's)
    ids: set[str] = set()
    lanes: set[str] = set()
    produced: dict[str, bool] = {}

    def end_step(lane: str) -> None:
        if produced.pop(lane, False):
            c.requests += 1

    def event(e: dict[str, Any], lane: str) -> None:
        kind, p = e["type"], e["payload"]
        if kind == "TurnBegin" and lane == "main":
            c.turns += 1
        elif kind == "StepBegin":
            end_step(lane)
            produced[lane] = False
        elif kind in ("ContentPart", "ToolCall", "StatusUpdate") and lane in produced:
            produced[lane] = True
        if kind == "ToolCall":
            ids.add(p["id"])
        elif kind == "ToolResult" and p["tool_call_id"] in ids:
            c.errors += bool(p["return_value"].get("is_error"))
        elif kind == "StatusUpdate":
            c.tokens += sum(p["token_usage"].values())
        elif kind == "StepInterrupted":
            c.errors += 1
            end_step(lane)
        elif kind == "SubagentEvent" and p["task_tool_call_id"] in ids:
            lanes.add(p["task_tool_call_id"])
            event(p["event"], p["task_tool_call_id"])

    for raw in data.split(b"\n"):
        if raw.strip():
            r = json.loads(raw)
            if "timestamp" in r:
                times.append(r["timestamp"] * 1000)
                # a resumed log may open with the result of a call made before it: no event of
                # this session (it ends the session no earlier, though)
                p = r["message"]["payload"]
                if r["message"]["type"] != "ToolResult" or p.get("tool_call_id") in ids:
                    first.append(r["timestamp"] * 1000)
            if "message" in r:
                event(r["message"], "main")
    for lane in list(produced):
        end_step(lane)
    by_tool: Counter[str] = Counter()
    order: list[str] = []
    # the calls of all lanes, in the order they were made: each lane's list is in order, and the
    # map orders events by time; a subagent's calls come after its launch, so sort by first sight
    seen = sorted((t, name, args) for t, name, args in _timed(data))
    for _, name, args in seen:
        kind = _KIND.get(name, "other")
        try:
            parsed = json.loads(args)
        except json.JSONDecodeError:
            parsed = {}
        named = isinstance(parsed, dict) and bool(parsed.get("path"))
        c.calls += 1
        by_tool["<subagent>" if name == "Task" else "<web>" if kind == "web" else name] += 1
        order.append(kind)
        c.shell += kind == "shell"
        c.reads += kind == "read" and named
        c.edits += kind == "edit" and named
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    c.subagents = len(lanes)
    if first:
        c.start = iso(min(first))
        c.duration = int(round(max(times) - min(first)))
    return c


def _timed(data: bytes) -> list[tuple[float, str, str]]:
    """Each tool call: (its time, name, its whole arguments text)."""
    out: list[tuple[float, str, str]] = []
    last: dict[str, int] = {}

    def event(e: dict[str, Any], lane: str, t: float) -> None:
        kind, p = e["type"], e["payload"]
        if kind == "ToolCall":
            last[lane] = len(out)
            out.append((t, p["function"]["name"], p["function"].get("arguments") or ""))
        elif kind == "ToolCallPart" and lane in last:
            at, name, args = out[last[lane]]
            out[last[lane]] = (at, name, args + p["arguments_part"])
        elif kind == "SubagentEvent":
            event(p["event"], p["task_tool_call_id"], t)

    for raw in data.split(b"\n"):
        if raw.strip():
            r = json.loads(raw)
            if "message" in r:
                event(r["message"], "main", r["timestamp"])
    return out


@functools.cache
def _full(path: Path) -> tuple[str, Full, Full]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    header = json.loads(data.split(b"\n", 1)[0])
    return f"wire {header.get('protocol_version', '?')}", full_counts(data), full_map_counts(m, ("Shell",))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "parent", Path(str(p))).name)
def test_every_corpus_session_agrees_on_every_count(path: Path) -> None:
    corpus_case(path, "kimi")
    _, source, produced = _full(path)
    assert differences(source, produced) == {}


def test_the_fixture_agrees_on_every_count() -> None:
    data = wire(Canaries("f"))
    m = redact_bytes(data, name="wire.jsonl", policy="internal").session_map
    assert differences(full_counts(data), full_map_counts(m, ("Shell",))) == {}


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(table([_full(p) for p in sorted((Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kimi")
                                           .rglob("wire.jsonl"))]))
