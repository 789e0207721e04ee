"""Fidelity over the shared corpus: does each Hermes Agent map keep everything its session did?

A small parser written here, straight from the JSON with the standard library and sharing no code
with the reader, counts in each source (the session document or the JSON Lines log): tool calls,
terminal calls, file edits, failed tool calls (a result whose JSON names an `error`, or a terminal's
non-zero `exit_code`), model responses, prompts and tokens (Hermes's files state none). The map's
totals and events are counted the same way; they must agree exactly. Also run on the fixtures.
Skipped when ../shared/corpus is absent.
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
from tests.native.hermesfix import document, log

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@dataclass
class Counts:
    calls: int = 0
    shell: int = 0  # terminal calls
    edits: int = 0  # patch / write_file calls
    tool_errors: int = 0
    requests: int = 0  # assistant messages
    prompts: int = 0  # user messages with text
    tokens: int = 0


def _messages(data: bytes) -> list[dict[str, Any]]:
    text = data.decode("utf-8")
    try:
        return list(json.loads(text)["messages"])
    except (json.JSONDecodeError, KeyError, TypeError):
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        return [r for r in rows if r.get("role") != "session_meta"]


def source_counts(data: bytes) -> Counts:
    n = Counts()
    names: dict[str, str] = {}
    for m in _messages(data):
        role = m.get("role")
        if role == "user":
            n.prompts += bool(m.get("content"))
        elif role == "assistant":
            n.requests += 1
            for call in m.get("tool_calls") or []:
                name = call["function"]["name"]
                names[call["id"]] = name
                n.calls += 1
                n.shell += name == "terminal"
                n.edits += name in ("patch", "write_file")
        elif role == "tool" and m.get("tool_call_id") in names:
            name = names.pop(m["tool_call_id"])
            try:
                body = json.loads(m.get("content") or "")
            except json.JSONDecodeError:
                body = None
            if not isinstance(body, dict):
                continue
            failed = isinstance(body.get("error"), str) and bool(body["error"])
            code = body.get("exit_code")
            failed = failed or (name == "terminal" and isinstance(code, int) and code != 0)
            n.tool_errors += failed
    return n


def map_counts(m: dict[str, Any]) -> Counts:
    t, ev = m["totals"], m["events"]
    calls = [e for e in ev if e["kind"] in CALL_KINDS]
    return Counts(
        calls=t["calls"], shell=sum(1 for e in calls if "verb" in e), edits=sum(e["kind"] == "edit" for e in calls),
        tool_errors=sum(1 for e in calls if e.get("err")), requests=t["requests"], prompts=t["userTurns"],
        tokens=t["tokens"])


def _check(data: bytes, name: str) -> None:
    m = redact_bytes(data, name=name).session_map
    assert asdict(map_counts(m)) == asdict(source_counts(data)), name
    assert sum(1 for e in m["events"] if e["kind"] in CALL_KINDS) == m["totals"]["calls"]


@pytest.mark.parametrize("layout", ["document", "log"])
def test_the_fixtures_keep_everything(layout: str) -> None:
    _check((document if layout == "document" else log)(Canaries("f")), "fixture.json")


def _corpus() -> list[Path]:
    return sorted(p for p in corpus_dir("hermes").glob("*.json*") if p.is_file())


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_session_keeps_everything(path: Path) -> None:
    corpus_case(path, "hermes")
    _check(path.read_bytes(), path.name)
