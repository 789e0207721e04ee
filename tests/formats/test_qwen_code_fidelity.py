"""Fidelity over the shared corpus: does each Qwen Code map keep everything its session did?

A small parser written here, straight from the JSON and sharing no code with the reader, counts in
each source (both layouts): tool calls, shell calls, failed tool calls, model responses, API errors,
tokens, prompts and compactions. The map's totals and events are counted the same way; they must
agree exactly. Also run on the fixtures. Skipped when ../shared/corpus is absent.
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
