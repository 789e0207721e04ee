"""Every file of the shared corpus's JSON/JSONL agents (Gemini CLI, ...) through the whole pipeline.

Skipped cleanly when ../shared/corpus is absent. Every file of each agent's folder is either found
as a session by batch discovery or skipped on purpose with a reason; each session is detected from
its content, its map validates under default, internal and public and scans clean, and its counts
(tool calls, shell commands, file edits, tokens, prompts) agree with a count made here, straight from
the JSON, without the reader.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from audit.scan import scan_map
from redact.batch import run as batch
from redact.api import Result, redact_file
from redact.formats.detect import detect
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from tests.audit.scanner_maps import KEY
from tests.conftest import CORPUS, CORPUS_ABSENT, corpus_case, corpus_dir
from tests.maps import shell_commands

pytestmark = pytest.mark.corpus
CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


# -- independent counts, straight from the JSON ----------------------------------------------------

def _gemini_messages(path: Path) -> list[dict[str, Any]]:
    data = path.read_bytes()
    if path.suffix == ".json":
        return list(orjson.loads(data)["messages"])
    by_id: dict[str, dict[str, Any]] = {}
    for line in data.split(b"\n"):
        if line.strip():
            record = orjson.loads(line)
            if "type" in record and "id" in record:
                by_id[record["id"]] = record  # a later writing of a message replaces the earlier
    return list(by_id.values())


def gemini_counts(path: Path) -> dict[str, int]:
    msgs = _gemini_messages(path)
    calls = [tc for m in msgs if m["type"] == "gemini" for tc in m.get("toolCalls") or []]
    tokens = sum(t["input"] + t["output"] + t.get("thoughts", 0) for m in msgs
                 if m["type"] == "gemini" and (t := m.get("tokens")))
    prompts = 0
    for m in msgs:
        if m["type"] == "user":
            c = m["content"]
            prompts += bool(c if isinstance(c, str) else "".join(p.get("text", "") for p in c))
    return {"calls": len(calls), "shell": sum(tc["name"] == "run_shell_command" for tc in calls),
            "edits": sum(tc["name"] in ("replace", "write_file") for tc in calls), "tokens": tokens,
            "prompts": prompts, "requests": sum(m["type"] == "gemini" for m in msgs)}


def copilot_counts(path: Path) -> dict[str, int]:
    events = [orjson.loads(line) for line in path.read_bytes().split(b"\n") if line.strip()]
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    for e in events:
        d = e["data"]
        if e["type"] == "assistant.message":
            for q in d.get("toolRequests") or []:
                calls.setdefault(q["toolCallId"], (q["name"], q.get("arguments") or {}))
        elif e["type"] == "tool.execution_start" and not d.get("mcpServerName"):
            calls[d["toolCallId"]] = (d["toolName"], d.get("arguments") or {})
        elif e["type"] == "tool.execution_start":
            calls[d["toolCallId"]] = ("<mcp>", {})

    def edits(name: str, args: dict[str, Any]) -> bool:
        return name in ("edit", "create") or name == "str_replace_editor" and args.get("command") != "view"

    prompts = sum(1 for e in events if e["type"] == "user.message" and (
        e["data"].get("content") or any(a.get("type") == "image" for a in e["data"].get("attachments") or [])))
    said = [e for e in events if e["type"] == "assistant.message"]
    # a legacy log writes a response with text and calls as two messages ms apart: one request
    split = sum(1 for a, b in zip(events, events[1:]) if a["type"] == b["type"] == "assistant.message"
                and a["data"].get("content") and not a["data"].get("toolRequests") and b["data"].get("toolRequests")
                and not b["data"].get("content") and _ms(b["timestamp"]) - _ms(a["timestamp"]) <= 50)
    # each run's input and cache tokens are in its session.shutdown (inputTokens: the whole prompt)
    runs = sum(m["usage"].get("inputTokens", 0) for e in events if e["type"] == "session.shutdown"
               for m in (e["data"].get("modelMetrics") or {}).values())
    return {"calls": len(calls), "shell": sum(n in ("bash", "powershell") for n, _ in calls.values()),
            "edits": sum(edits(n, a) for n, a in calls.values()), "prompts": prompts,
            "tokens": sum(e["data"].get("outputTokens", 0) for e in said) + runs,
            "requests": len(said) - split}


def _ms(value: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000


def vscode_counts(path: Path) -> dict[str, int]:
    """Per request: one llm event per round (or one for a request that shows text but has no rounds),
    one call per round's tool call, plus the serialized invocations beyond them (by tool, in order)."""
    doc = orjson.loads(path.read_bytes())
    calls = edits = shell = requests = prompts = 0
    for r in doc["requests"]:
        prompts += bool(r["message"]["text"])
        rounds = ((r.get("result") or {}).get("metadata") or {}).get("toolCallRounds") or []
        named: Counter[str] = Counter(tc["name"] for rnd in rounds for tc in rnd["toolCalls"])
        shown: Counter[str] = Counter(p["toolId"] for p in r["response"] if p.get("kind") == "toolInvocationSerialized")
        every = named | shown  # the larger count of each tool
        calls += sum(every.values())
        edits += sum(n for name, n in every.items() if "replace" in name.lower() or "createfile" in
                     name.lower().replace("_", "") or "patch" in name.lower() or "insertedit" in name.lower())
        shell += sum(n for name, n in every.items() if name in ("run_in_terminal", "copilot_runInTerminal"))
        texts = [p for p in r["response"] if "kind" not in p and p.get("value")]
        requests += len(rounds) or bool(texts or shown)
    return {"calls": calls, "shell": shell, "edits": edits, "tokens": 0, "prompts": prompts,
            "requests": requests}


def cline_counts(path: Path) -> dict[str, int]:
    msgs = orjson.loads(path.read_bytes())
    sub = Counter(m.get(m["type"]) for m in msgs)
    tools = [orjson.loads(m["text"])["tool"] for m in msgs if m.get(m["type"]) == "tool"]
    usage = [orjson.loads(m["text"]) for m in msgs if m.get("say") == "api_req_started"]
    prompts = sum(1 for m in msgs if m.get("say") in ("task", "user_feedback") and (m.get("text") or m.get("images")))
    # older versions log the task itself as the first `say: text`, before any request (issue 25)
    first_request = next((i for i, m in enumerate(msgs) if m.get("say") == "api_req_started"), len(msgs))
    if not any(m.get("say") == "task" for m in msgs) and any(
            m.get("say") == "text" and m.get("text") for m in msgs[:first_request]):
        prompts += 1
    return {"calls": len(tools) + sub["command"] + sub["use_mcp_server"] + sub["followup"],
            "shell": sub["command"], "edits": sum(t in ("editedExistingFile", "newFileCreated", "fileDeleted",
                                                        "appliedDiff") for t in tools),
            "tokens": sum(u["tokensIn"] + u["tokensOut"] + u["cacheWrites"] + u["cacheReads"] for u in usage),
            "prompts": prompts, "requests": len(usage)}


AGENTS: dict[str, tuple[str, str, Callable[[Path], dict[str, int]]]] = {
    # corpus folder: (format, agentTool, counter)
    "gemini-cli": ("gemini-cli", "gemini-cli", gemini_counts),
    "copilot-cli": ("copilot-cli", "copilot", copilot_counts),
    "copilot-vscode": ("copilot-vscode", "copilot-vscode", vscode_counts),
    "cline": ("cline", "cline", cline_counts),
}


# -- the files ---------------------------------------------------------------------------------------

#: corpus folders whose files users copied out of their agent's tree under flat names: no layout to
#: discover them by, so each file is an input of its own (as `agentplay-redact FILE` takes it)
FLAT = frozenset({"copilot-vscode", "cline"})


@cache
def _discovered(folder: str) -> tuple[tuple[Path, ...], tuple[tuple[Path, str], ...]]:
    root = CORPUS / folder
    if folder in FLAT:
        return tuple(sorted(p for p in root.iterdir() if p.is_file())), ()
    sessions = tuple(batch.sessions_in(root))
    skipped = tuple((Path(o.input), o.message) for o in batch.skipped_in(root))
    return sessions, skipped


def _cases() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for folder in AGENTS:
        if (CORPUS / folder).is_dir():
            out += [(folder, str(p.relative_to(CORPUS / folder))) for p in _discovered(folder)[0]]
    return out or [(CORPUS_ABSENT, "")]


@pytest.fixture(params=_cases(), ids=lambda c: f"{c[0]}:{c[1][-48:]}")
def session(request: pytest.FixtureRequest) -> tuple[str, Path]:
    folder, rel = request.param
    corpus_case(folder)
    return folder, CORPUS / folder / rel


@cache
def _run(path: Path, policy: str) -> Result:
    return redact_file(path, policy=policy, key=KEY if policy == "public" else None)


@pytest.mark.parametrize("folder", list(AGENTS))
def test_every_file_is_a_session_or_skipped_with_a_reason(folder: str) -> None:
    root = corpus_dir(folder)
    sessions, skipped = _discovered(folder)
    assert sessions
    seen = {os.path.realpath(p) for p in sessions} | {os.path.realpath(p) for p, _ in skipped}
    every = {os.path.realpath(p) for p in root.rglob("*") if p.is_file()}
    assert every <= seen | _companions(folder, sessions), sorted(every - seen)[:5]
    assert all("skipped (" in why for _, why in skipped)


def _companions(folder: str, sessions: tuple[Path, ...]) -> set[str]:
    """Files read as part of a session (none for single-file formats)."""
    return set()


def test_detected_and_valid_under_every_policy(session: tuple[str, Path]) -> None:
    folder, path = session
    fmt, agent_tool, _ = AGENTS[folder]
    assert detect(path.read_bytes(), path.name) == fmt
    for policy in ("default", "internal", "public"):
        result = _run(path, policy)
        m = result.session_map
        jsonschema.Draft202012Validator(shipped()).validate(m)
        SessionMap.model_validate(m)
        assert m["session"]["agentTool"] == agent_tool
        kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
        scan = scan_map(m, source=path.read_bytes(), source_format=fmt, kept_identifiers=kept)
        assert scan.clean, (policy, [f.as_dict() for f in scan.findings][:3])


def test_counts_agree_with_an_independent_count(session: tuple[str, Path]) -> None:
    folder, path = session
    shown = AGENTS[folder][2](path)
    m = _run(path, "default").session_map
    kinds = [e["kind"] for e in m["events"]]
    assert sum(k in CALL_KINDS for k in kinds) == m["totals"]["calls"] == shown["calls"]
    assert shell_commands(m) == shown["shell"]
    assert kinds.count("edit") == shown["edits"]
    assert m["totals"]["tokens"] == shown["tokens"]
    assert m["totals"]["userTurns"] == shown["prompts"]
    assert m["totals"]["requests"] == shown["requests"]
