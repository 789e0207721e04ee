"""Fidelity over the shared corpus: does each Kimi CLI map keep everything its wire log did?

A small parser written here, straight from the JSON and sharing no code with the reader, counts in
each wire log (a subagent's nested events too): tool calls, shell calls, failed tool calls, model
steps that produced something, tokens, prompts, interruptions and subagent lanes. The map's totals
and events are counted the same way; they must agree exactly. Also run on the fixture. Skipped when
../shared/corpus is absent.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import Canaries
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
