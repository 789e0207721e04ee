"""Fidelity over the shared corpus: does each Qwen Code map keep everything its session did?

A small parser written here, straight from the JSON and sharing no code with the reader, counts in
each source (both layouts): tool calls, shell calls, failed tool calls, model responses, API errors,
tokens, prompts and compactions. The map's totals and events are counted the same way; they must
agree exactly. Also run on the fixtures. Skipped when ../shared/corpus is absent. `full_counts` counts every field of tests/formats/fidelity.py's
`Counts` (issue 25) the same way: the times are the records' `timestamp`s (a saved chat with no
message: its `startTime`); `write_file` says when the file it wrote is new.

    PYTHONPATH=. python -m tests.formats.test_qwen_code_fidelity

prints the agreement per layout and client version.
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
from tests.native.qwenfix import chats, record

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@dataclass
class Counts:
    calls: int = 0
    shell: int = 0  # run_shell_command calls
    tool_errors: int = 0  # results with status error / cancelled, or a shell's non-zero exit code
    requests: int = 0  # model responses
    llm_errors: int = 0  # api_error telemetry, error messages
    tokens: int = 0
    prompts: int = 0
    compactions: int = 0


def _exit_code(text: str) -> int:
    for line in reversed(text.splitlines()):
        if line.startswith("Exit Code: "):
            return int(line[len("Exit Code: "):].strip())
    return 0


def _lines(data: bytes) -> Counts:
    n = Counts()
    shells: set[str] = set()
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        r = json.loads(raw)
        parts = (r.get("message") or {}).get("parts") or []
        if r["type"] == "user":
            n.prompts += any(p.get("text") or "inlineData" in p for p in parts)
        elif r["type"] == "assistant":
            n.requests += 1
            u = r.get("usageMetadata") or {}
            n.tokens += u.get("promptTokenCount", 0) + u.get("candidatesTokenCount", 0) + u.get("thoughtsTokenCount", 0)
            for p in parts:
                if "functionCall" in p:
                    n.calls += 1
                    if p["functionCall"]["name"] == "run_shell_command":
                        n.shell += 1
                        shells.add(p["functionCall"]["id"])
        elif r["type"] == "tool_result":
            status = r["toolCallResult"]["status"]
            for p in parts:
                fr = p.get("functionResponse")
                if fr is None:
                    continue
                out = fr["response"].get("output", "")
                n.tool_errors += status in ("error", "cancelled") or (fr["id"] in shells and _exit_code(out) != 0)
        elif r["type"] == "system" and r.get("subtype") == "ui_telemetry":
            n.llm_errors += r["systemPayload"]["uiEvent"]["event.name"] == "qwen-code.api_error"
        elif r["type"] == "system" and r.get("subtype") == "chat_compression":
            n.compactions += 1
    return n


def _document(doc: dict[str, Any]) -> Counts:
    n = Counts()
    for m in doc["messages"]:
        if m["type"] == "user":
            n.prompts += bool(m["content"])
        elif m["type"] == "error":
            n.llm_errors += 1
        elif m["type"] == "qwen":
            n.requests += 1
            t = m.get("tokens") or {}
            n.tokens += t.get("input", 0) + t.get("output", 0) + t.get("thoughts", 0)
            for tc in m.get("toolCalls") or []:
                n.calls += 1
                n.shell += tc["name"] == "run_shell_command"
                n.tool_errors += tc["status"] in ("error", "cancelled")
    return n


def source_counts(data: bytes) -> Counts:
    try:
        doc = json.loads(data)
    except json.JSONDecodeError:
        return _lines(data)
    return _document(doc) if isinstance(doc, dict) and "messages" in doc else _lines(data)


def map_counts(m: dict[str, Any]) -> Counts:
    t, ev = m["totals"], m["events"]
    calls = [e for e in ev if e["kind"] in CALL_KINDS]
    return Counts(
        calls=t["calls"], shell=sum(1 for e in calls if "verb" in e), tool_errors=sum(1 for e in calls if e.get("err")),
        requests=t["requests"], llm_errors=t["errorsBySource"].get("llm", 0), tokens=t["tokens"],
        prompts=t["userTurns"], compactions=t["compactions"])


def _check(data: bytes, name: str) -> None:
    m = redact_bytes(data, name=name).session_map
    assert asdict(map_counts(m)) == asdict(source_counts(data)), name


@pytest.mark.parametrize("layout", ["chats", "record"])
def test_the_fixtures_keep_everything(layout: str) -> None:
    _check(chats(Canaries("f")) if layout == "chats" else record(Canaries("f")), "fixture")


def _corpus() -> list[Path]:
    return sorted(p for p in corpus_dir("qwen-code").iterdir() if "_chats_" in p.name)


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[-60:])
def test_every_corpus_session_keeps_everything(path: Path) -> None:
    corpus_case(path, "qwen-code")
    _check(path.read_bytes(), path.name)


# -- every field of the shared Counts (issue 25) -----------------------------------------------------
_KIND = {"run_shell_command": "shell", "read_file": "read", "read_many_files": "read", "write_file": "edit",
         "edit": "edit", "replace": "edit", "list_directory": "search", "glob": "search", "grep_search": "search",
         "search_file_content": "search", "web_fetch": "web", "web_search": "web", "skill": "skill",
         "task": "subagent"}
_PATH = ("file_path", "absolute_path", "path")


def _ms(value: object) -> float | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000 if isinstance(value, str) else None


class _Full:
    def __init__(self) -> None:
        self.c = Full()
        self.by_tool: Counter[str] = Counter()
        self.order: list[str] = []
        self.models: set[str] = set()
        self.times: list[float] = []

    def call(self, name: str, args: dict[str, Any]) -> None:
        kind = "mcp" if name.startswith("mcp__") else _KIND.get(name, "other")
        self.c.calls += 1
        self.c.mcp += kind == "mcp"
        self.by_tool["/".join(name.split("__")[1:3]) if kind == "mcp" else
                     f"<{kind}>" if kind in ("web", "skill", "subagent") else name] += 1
        self.order.append("other" if kind in ("skill", "subagent") else kind)
        self.c.shell += kind == "shell"
        named = any(args.get(k) for k in _PATH)
        self.c.reads += kind == "read" and named
        self.c.edits += kind == "edit" and named

    def done(self) -> Full:
        c = self.c
        c.by_tool = dict(sorted(self.by_tool.items()))
        c.order = tuple(self.order)
        c.models = tuple(sorted(self.models))
        if self.times:
            c.start = iso(min(self.times))
            c.duration = int(round(max(self.times) - min(self.times)))
        return c


def _full_lines(data: bytes) -> Full:
    f = _Full()
    c = f.c
    shells: set[str] = set()
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        r = json.loads(raw)
        if r["type"] not in ("user", "assistant", "tool_result", "system"):
            continue  # a record of a kind Qwen Code does not write: nothing of the session
        if (t := _ms(r.get("timestamp"))) is not None:
            f.times.append(t)
        parts = (r.get("message") or {}).get("parts") or []
        if r["type"] == "user":
            c.turns += any(p.get("text") or "inlineData" in p for p in parts)
        elif r["type"] == "assistant":
            c.requests += 1
            if r.get("model"):
                f.models.add(r["model"])
            u = r.get("usageMetadata") or {}
            c.tokens += u.get("promptTokenCount", 0) + u.get("candidatesTokenCount", 0) + u.get("thoughtsTokenCount", 0)
            for p in parts:
                if "functionCall" in p:
                    f.call(p["functionCall"]["name"], p["functionCall"].get("args") or {})
                    if p["functionCall"]["name"] == "run_shell_command":
                        shells.add(p["functionCall"]["id"])
        elif r["type"] == "tool_result":
            status = r["toolCallResult"]["status"]
            for p in parts:
                fr = p.get("functionResponse")
                if fr is None:
                    continue
                out = fr["response"].get("output", "")
                failed = status in ("error", "cancelled") or (fr["id"] in shells and _exit_code(out) != 0)
                c.errors += failed
                c.creates += not failed and fr["name"] == "write_file" and \
                    str(out).startswith("Successfully created and wrote to new file")
        elif r["type"] == "system" and r.get("subtype") == "ui_telemetry":
            c.errors += r["systemPayload"]["uiEvent"]["event.name"] == "qwen-code.api_error"
    return f.done()


def _full_document(doc: dict[str, Any]) -> Full:
    f = _Full()
    c = f.c
    for m in doc["messages"]:
        if (t := _ms(m.get("timestamp"))) is not None:
            f.times.append(t)
        if m["type"] == "user":
            c.turns += bool(m["content"])
        elif m["type"] == "error" or (m["type"] == "info" and m.get("content") == "Request cancelled."):
            c.errors += 1  # a failed request; the user's interruption
        elif m["type"] == "qwen":
            c.requests += 1
            if m.get("model"):
                f.models.add(m["model"])
            tokens = m.get("tokens") or {}
            c.tokens += tokens.get("input", 0) + tokens.get("output", 0) + tokens.get("thoughts", 0)
            for tc in m.get("toolCalls") or []:
                f.call(tc["name"], tc.get("args") or {})
                c.errors += tc["status"] in ("error", "cancelled")
    if not f.times and _ms(doc.get("startTime")) is not None:
        # startTime is when the CLI opened the chat, before any message: the start of an empty one
        # only (as Gemini CLI's); lastUpdated is when the file was saved, no event's time
        f.times.append(_ms(doc["startTime"]) or 0.0)
    return f.done()


def full_counts(data: bytes) -> Full:
    try:
        doc = json.loads(data)
    except json.JSONDecodeError:
        return _full_lines(data)
    return _full_document(doc) if isinstance(doc, dict) and "messages" in doc else _full_lines(data)


@functools.cache
def _full(path: Path) -> tuple[str, Full, Full]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    try:
        version = "chat " + str(json.loads(data).get("version", "?"))
    except json.JSONDecodeError:
        version = "jsonl " + str(json.loads(data.split(b"\n", 1)[0]).get("version", "?"))
    return version, full_counts(data), full_map_counts(m, ("run_shell_command",))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[-60:])
def test_every_corpus_session_agrees_on_every_count(path: Path) -> None:
    corpus_case(path, "qwen-code")
    _, source, produced = _full(path)
    assert differences(source, produced) == {}


@pytest.mark.parametrize("layout", ["chats", "record"])
def test_the_fixtures_agree_on_every_count(layout: str) -> None:
    data = chats(Canaries("f")) if layout == "chats" else record(Canaries("f"))
    m = redact_bytes(data, name="fixture", policy="internal").session_map
    assert differences(full_counts(data), full_map_counts(m, ("run_shell_command",))) == {}


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(table([_full(p) for p in sorted((Path(__file__).resolve().parents[3] / "shared" / "corpus" / "qwen-code")
                                           .iterdir()) if "_chats_" in p.name]))
