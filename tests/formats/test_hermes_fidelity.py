"""Fidelity over the shared corpus: does each Hermes Agent map keep everything its session did?

A small parser written here, straight from the JSON with the standard library and sharing no code
with the reader, counts in each source (the session document or the JSON Lines log): tool calls,
terminal calls, file edits, failed tool calls (a result whose JSON names an `error`, or a terminal's
non-zero `exit_code`), model responses, prompts and tokens (Hermes's files state none). The map's
totals and events are counted the same way; they must agree exactly. Also run on the fixtures.
Skipped when ../shared/corpus is absent. `full_counts` counts every field of tests/formats/fidelity.py's
`Counts` (issue 25) the same way; the times are the document's `session_start` and `last_updated`,
or the log's message rows' `timestamp`s; the model is the document's `model` or the log's rows'.

    PYTHONPATH=. python -m tests.formats.test_hermes_fidelity

prints the agreement per layout (document or log).
"""
from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import Canaries
from tests.formats.fidelity import Counts as Full
from tests.formats.fidelity import differences, iso, table
from tests.formats.fidelity import map_counts as full_map_counts
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


# -- every field of the shared Counts (issue 25) -----------------------------------------------------
_KIND = {"terminal": "shell", "read_file": "read", "patch": "edit", "write_file": "edit", "search_files": "search",
         "web_search": "web", "web_extract": "web", "skill_view": "skill"}


def _ms(value: Any) -> float | None:
    try:
        return datetime.fromisoformat(str(value)).replace(tzinfo=UTC).timestamp() * 1000
    except ValueError:
        return None


def full_counts(data: bytes) -> Full:
    text = data.decode("utf-8")
    try:
        doc = json.loads(text)
        rows = list(doc["messages"])
        times = [_ms(doc.get("session_start")), _ms(doc.get("last_updated"))]
        models = {doc["model"]} if doc.get("model") else set()
    except (json.JSONDecodeError, KeyError, TypeError):
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        models = {r["model"] for r in rows if r.get("model")}
        # the header row's time is when the file was opened, no event's (the seed: startedAt is the
        # first event's time)
        rows = [r for r in rows if r.get("role") != "session_meta"]
        times = [_ms(r.get("timestamp")) for r in rows]
    c = Full()
    by_tool: Counter[str] = Counter()
    order: list[str] = []
    names: dict[str, str] = {}
    for m in rows:
        role = m.get("role")
        if role == "user":
            c.turns += bool(m.get("content"))
        elif role == "assistant":
            c.requests += 1
            for call in m.get("tool_calls") or []:
                name = call["function"]["name"]
                kind = _KIND.get(name, "other")
                args = json.loads(call["function"].get("arguments") or "{}")
                names[call["id"]] = name
                c.calls += 1
                by_tool[f"<{kind}>" if kind in ("web", "skill") else name] += 1
                order.append("other" if kind == "skill" else kind)
                c.shell += kind == "shell"
                c.reads += kind == "read" and bool(args.get("path"))
                c.edits += kind == "edit" and bool(args.get("path"))
        elif role == "tool" and m.get("tool_call_id") in names:
            name = names.pop(m["tool_call_id"])
            try:
                body = json.loads(m.get("content") or "")
            except json.JSONDecodeError:
                body = None
            if isinstance(body, dict):
                code = body.get("exit_code")
                c.errors += (isinstance(body.get("error"), str) and bool(body["error"])) or \
                    (name == "terminal" and isinstance(code, int) and code != 0)
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    c.models = tuple(sorted(models))
    known = [t for t in times if t is not None]
    if known:
        c.start = iso(min(known))
        c.duration = int(round(max(known) - min(known)))
    return c


@functools.cache
def _full(path: Path) -> tuple[str, Full, Full]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    return path.suffix.lstrip("."), full_counts(data), full_map_counts(m, ("terminal",))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_session_agrees_on_every_count(path: Path) -> None:
    corpus_case(path, "hermes")
    _, source, produced = _full(path)
    assert differences(source, produced) == {}


@pytest.mark.parametrize("layout", ["document", "log"])
def test_the_fixtures_agree_on_every_count(layout: str) -> None:
    data = (document if layout == "document" else log)(Canaries("f"))
    m = redact_bytes(data, name="fixture.json", policy="internal").session_map
    assert differences(full_counts(data), full_map_counts(m, ("terminal",))) == {}


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(table([_full(p) for p in sorted((Path(__file__).resolve().parents[3] / "shared" / "corpus" / "hermes")
                                           .glob("*.json*")) if p.is_file()]))
