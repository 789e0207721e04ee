"""Fidelity over the shared corpus: does each Pi map keep everything its session did?

A small parser written here, straight from the JSON and sharing no code with the reader (it splits a
glued line with the standard library's decoder), counts in each source: tool calls, shell calls, file
edits, failed tool calls, model responses, failed model requests, interruptions, tokens, prompts and
compactions. The map's totals and events are counted the same way; they must agree exactly. Also
run on the fixtures. `full_counts` counts every field of tests/formats/fidelity.py's `Counts` (issue
25) the same way; the times are the records' own `timestamp`s (a record is written when its message
is done). Skipped when ../shared/corpus is absent.

    PYTHONPATH=. python -m tests.formats.test_pi_fidelity

prints the agreement per session format version.
"""
from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import Canaries
from tests.formats.fidelity import Counts as Full
from tests.formats.fidelity import differences, iso, table
from tests.formats.fidelity import map_counts as full_map_counts
from tests.native.pifix import session

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@dataclass
class Counts:
    calls: int = 0  # tool calls of responses that did not fail (Pi runs no other)
    shell: int = 0  # bash tool calls
    edits: int = 0  # edit / write tool calls
    tool_errors: int = 0  # tool results with isError
    requests: int = 0  # assistant messages that produced content or tokens
    llm_errors: int = 0  # stopReason error
    interrupted: int = 0  # stopReason aborted
    tokens: int = 0
    prompts: int = 0
    compactions: int = 0


def _records(data: bytes) -> list[dict[str, Any]]:
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    for raw in data.decode("utf-8").split("\n"):
        pos = 0
        while pos < len(raw.rstrip()):
            rec, pos = decoder.raw_decode(raw, pos)
            out.append(rec)
    return out


def source_counts(data: bytes) -> Counts:
    n = Counts()
    for rec in _records(data):
        if rec.get("type") == "compaction":
            n.compactions += 1
        if rec.get("type") != "message":
            continue
        m = rec["message"]
        if m["role"] == "user":
            content = m["content"]
            n.prompts += bool(content if isinstance(content, str) else content)
        elif m["role"] == "assistant":
            u = m.get("usage", {})
            tokens = sum(u.get(k, 0) for k in ("input", "output", "cacheRead", "cacheWrite"))
            n.llm_errors += m.get("stopReason") == "error"
            n.interrupted += m.get("stopReason") == "aborted"
            if m["content"] or tokens:
                n.requests += 1
                n.tokens += tokens
            for block in m["content"] if m.get("stopReason") not in ("error", "aborted") else []:
                if block["type"] == "toolCall":  # Pi's agent loop runs the tools of a whole response only
                    n.calls += 1
                    n.shell += block["name"] == "bash"
                    n.edits += block["name"] in ("edit", "write")
        elif m["role"] == "toolResult":
            n.tool_errors += bool(m.get("isError"))
    return n


def map_counts(m: dict[str, Any]) -> Counts:
    t, ev = m["totals"], m["events"]
    calls = [e for e in ev if e["kind"] in CALL_KINDS]
    return Counts(
        calls=t["calls"], shell=sum(1 for e in calls if "verb" in e), edits=sum(e["kind"] == "edit" for e in calls),
        tool_errors=sum(1 for e in calls if e.get("err")), requests=t["requests"],
        llm_errors=t["errorsBySource"].get("llm", 0), interrupted=t["errorsByClass"].get("interrupted", 0),
        tokens=t["tokens"], prompts=t["userTurns"], compactions=t["compactions"])


def _check(data: bytes, name: str) -> None:
    m = redact_bytes(data, name=name).session_map
    assert asdict(map_counts(m)) == asdict(source_counts(data)), name
    assert sum(1 for e in m["events"] if e["kind"] in CALL_KINDS) == m["totals"]["calls"]


@pytest.mark.parametrize("version", [1, 3])
@pytest.mark.parametrize("glued", [False, True])
def test_the_fixtures_keep_everything(version: int, glued: bool) -> None:
    _check(session(Canaries("f"), version=version, glued=glued), "fixture.jsonl")


def _corpus() -> list[Path]:
    return sorted(corpus_dir("pi").glob("*.jsonl"))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_session_keeps_everything(path: Path) -> None:
    corpus_case(path, "pi")
    _check(path.read_bytes(), path.name)


# -- every field of the shared Counts (issue 25) -----------------------------------------------------
_KIND = {"bash": "shell", "read": "read", "edit": "edit", "write": "edit", "grep": "search", "find": "search",
         "ls": "search"}


def _ms(value: Any) -> float | None:
    try:
        return round(datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp() * 1000, 3)
    except ValueError:
        return None


def full_counts(data: bytes) -> Full:
    c = Full()
    by_tool: Counter[str] = Counter()
    order: list[str] = []
    models: set[str] = set()
    times: list[float] = []
    for rec in _records(data):
        if rec.get("type") in ("message", "compaction") and (t := _ms(rec.get("timestamp"))) is not None:
            times.append(t)
        if rec.get("type") != "message":
            continue
        m = rec["message"]
        if m["role"] == "user":
            c.turns += bool(m["content"])
        elif m["role"] == "assistant":
            u = m.get("usage", {})
            tokens = sum(u.get(k, 0) for k in ("input", "output", "cacheRead", "cacheWrite"))
            c.errors += m.get("stopReason") in ("error", "aborted")  # a failed request, an interruption
            if m["content"] or tokens:
                c.requests += 1
                c.tokens += tokens
                if m.get("model"):
                    models.add(m["model"])
            for block in m["content"] if m.get("stopReason") not in ("error", "aborted") else []:
                if block["type"] != "toolCall":
                    continue
                kind = _KIND.get(block["name"], "other")
                args = block.get("arguments") if isinstance(block.get("arguments"), dict) else {}
                named = bool(args.get("path"))
                c.calls += 1
                by_tool[block["name"]] += 1
                order.append(kind)
                c.shell += kind == "shell"
                c.reads += kind == "read" and named
                c.edits += kind == "edit" and named
        elif m["role"] == "toolResult":
            c.errors += bool(m.get("isError"))
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    c.models = tuple(sorted(models))
    if times:
        c.start = iso(min(times))
        c.duration = int(round(max(times) - min(times)))
    return c


@functools.cache
def _full(path: Path) -> tuple[str, Full, Full]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    header = _records(data)[0]
    return f"v{header.get('version', 1)}", full_counts(data), full_map_counts(m, ("bash",))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_session_agrees_on_every_count(path: Path) -> None:
    corpus_case(path, "pi")
    _, source, produced = _full(path)
    assert differences(source, produced) == {}


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(table([_full(p) for p in sorted((Path(__file__).resolve().parents[3] / "shared" / "corpus" / "pi")
                                           .glob("*.jsonl"))]))
