"""Fidelity over the shared corpus for Continue, Cursor, Crush, Copilot CLI, OpenHands (V0 and V1), Amp
and opencode: does each map keep what its session did?

A small parser per format, written here straight from the raw JSON or the store's rows and sharing
no code with the readers, counts in each session: user turns, model requests, tokens, tool calls,
shell commands, file edits, MCP calls, failed tool calls, the start (the time of the first record
that is an event: a prompt, a model response, a tool call; to the millisecond), and the models; the
map's totals and events are counted the same way. Every count must agree. Skipped when
../shared/corpus is absent.

Agreement per format and client version: `python -m tests.formats.test_formats_fidelity`.
"""
from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.api import redact_file
from tests.conftest import CORPUS_ABSENT, corpus_case, corpus_dir, corpus_params
from tests.maps import shell_commands

pytestmark = pytest.mark.corpus
Counts = dict[str, Any]
CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _ms(value: Any) -> float | None:
    """A time as epoch ms: an ISO string (a missing zone is UTC), or a number of s or ms."""
    if isinstance(value, str):
        text = value.replace("Z", "+00:00")
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            return float(value) if value.isdigit() else None
        return (dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)).timestamp() * 1000
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value) * (1000 if value < 1e11 else 1)
    return None


def _ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)


# -- the source side: one parser a format ---------------------------------------------------------------

def continue_counts(path: Path) -> Counts:
    doc = orjson.loads(path.read_bytes())
    history = [h["message"] for h in doc["history"]]
    calls = [tc for m in history if m["role"] == "assistant" for tc in m.get("toolCalls") or []]
    names = [tc["function"]["name"] for tc in calls]
    index = path.parent / (path.name[:-41] + "sessions.json")
    entry = next((e for e in orjson.loads(index.read_bytes()) if e["sessionId"] == doc["sessionId"]), {}) \
        if index.is_file() else {}
    usage = [m.get("usage") or {} for m in history if m["role"] == "assistant"]
    return {"user": sum(m["role"] == "user" for m in history), "requests": sum(m["role"] == "assistant" for m in history),
            "tokens": sum(u.get("prompt_tokens", 0) + u.get("completion_tokens", 0) for u in usage),
            "calls": len(calls), "shell": sum(n in ("Bash", "run_terminal_command") for n in names),
            "start": _ms(entry.get("dateCreated")) or 0.0,
            "models": sorted({u["model"] for u in usage if u.get("model")})}


def crush_counts(db: sqlite3.Connection, sid: str) -> Counts:
    prompt, completion, created = db.execute(
        "SELECT prompt_tokens, completion_tokens, created_at FROM sessions WHERE id = ?", (sid,)).fetchone()
    rows = db.execute("SELECT role, parts, model, created_at FROM messages WHERE session_id = ?", (sid,)).fetchall()
    calls = [p["data"]["name"] for role, parts, _, _ in rows if role == "assistant"
             for p in orjson.loads(parts) if p.get("type") == "tool_call"]
    failed = sum(1 for role, parts, _, _ in rows if role == "tool" for p in orjson.loads(parts)
                 if p.get("type") == "tool_result" and p["data"].get("is_error"))
    return {"user": sum(r[0] == "user" for r in rows), "requests": sum(r[0] == "assistant" for r in rows),
            "tokens": prompt + completion, "calls": len(calls), "shell": calls.count("bash"),
            "edits": sum(n in ("edit", "multiedit", "write") for n in calls), "tool_errors": failed,
            "start": min([_ms(created) or 0.0] + [_ms(r[3]) or 0.0 for r in rows]),
            "models": sorted({r[2] for r in rows if r[0] == "assistant" and r[2]})}


def opencode_counts(db: sqlite3.Connection, sid: str) -> Counts:
    messages = [orjson.loads(r[0]) for r in db.execute("SELECT data FROM message WHERE session_id = ?", (sid,))]
    parts = [orjson.loads(r[0]) for r in db.execute("SELECT data FROM part WHERE session_id = ?", (sid,))]
    tools = [p for p in parts if p.get("type") == "tool"]
    assistant = [m for m in messages if m.get("role") == "assistant"]
    tokens = sum((m.get("tokens") or {}).get("input", 0) + (m.get("tokens") or {}).get("output", 0) +
                 (m.get("tokens") or {}).get("reasoning", 0) for m in assistant)
    return {"calls": len(tools), "shell": sum(p["tool"] == "bash" for p in tools),
            "edits": sum(p["tool"] in ("edit", "write", "multiedit", "patch") for p in tools), "tokens": tokens,
            "tool_errors": sum(1 for p in tools if (p.get("state") or {}).get("status") == "error" or
                               ((p.get("state") or {}).get("metadata") or {}).get("exit") not in (0, None)),
            "models": sorted({m["modelID"] for m in assistant if m.get("modelID")})}


def cursor_counts(db: sqlite3.Connection, sid: str) -> Counts:
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "cursorDiskKV" not in names:
        return {"calls": 0}
    doc = orjson.loads(db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (f"composerData:{sid}",)).fetchone()[0])
    bubbles = []
    for head in doc.get("fullConversationHeadersOnly") or []:
        row = db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (f"bubbleId:{sid}:{head['bubbleId']}",)).fetchone()
        bubbles.append(orjson.loads(row[0]) if row and row[0] else {})
    tools = [b["toolFormerData"]["name"] for b in bubbles if (b.get("toolFormerData") or {}).get("name")]
    turns, previous = 0, None
    for b in bubbles:  # the agent's bubbles between two prompts are one turn
        if b.get("type") == 2 and previous != 2:
            turns += 1
        previous = b.get("type")
    times = [t for b in bubbles if (t := _ms(b.get("createdAt"))) is not None]
    return {"user": sum(b.get("type") == 1 for b in bubbles), "requests": turns,
            "tokens": sum(sum((b.get("tokenCount") or {}).values()) for b in bubbles if b.get("type") == 2),
            "calls": len(tools), "shell": sum(n.startswith("run_terminal") for n in tools),
            "start": min(times), "duration": max(times) - min(times)}


def copilot_counts(path: Path) -> Counts:
    recs = [orjson.loads(line) for line in path.read_bytes().split(b"\n") if line.strip()]
    asked: set[str] = set()
    requests, tokens, prev = 0, 0, None
    for r in recs:
        d = r["data"]
        if r["type"] == "assistant.message":
            tokens += d.get("outputTokens") or 0
            reqs = d.get("toolRequests") or []
            asked.update(q["toolCallId"] for q in reqs)
            split = prev is not None and prev["type"] == "assistant.message" and prev["data"].get("content") \
                and not prev["data"].get("toolRequests") and reqs and not d.get("content") \
                and (_ms(r["timestamp"]) or 0) - (_ms(prev["timestamp"]) or 0) <= 50
            requests += 0 if split else 1
        elif r["type"] == "session.shutdown":
            tokens += sum(m["usage"].get("inputTokens", 0) for m in (d.get("modelMetrics") or {}).values())
        prev = r
    started = {r["data"]["toolCallId"] for r in recs if r["type"] == "tool.execution_start"}
    times = [t for r in recs if r["type"] in ("user.message", "assistant.message", "tool.execution_start",
                                              "session.error", "abort", "session.compaction_complete")
             and (t := _ms(r.get("timestamp"))) is not None]
    return {"user": sum(1 for r in recs if r["type"] == "user.message" and r["data"].get("content")),
            "requests": requests, "tokens": tokens, "calls": len(asked | started), "start": min(times)}


_V1_SHELL = ("TerminalAction", "ExecuteBashAction")


def openhands_v1_counts(path: Path) -> Counts:
    events = orjson.loads(path.read_bytes())
    actions = [e for e in events if e.get("kind") == "ActionEvent"]
    kinds = [a["action"]["kind"] for a in actions]
    return {"user": sum(1 for e in events if e.get("kind") == "MessageEvent" and e.get("source") == "user"),
            "calls": len(actions), "shell": sum(k in _V1_SHELL for k in kinds),
            "edits": sum(a["action"]["kind"] == "FileEditorAction" and a["action"].get("command") != "view"
                         for a in actions),
            "start": min(_ms(e["timestamp"]) or 0.0 for e in events if e.get("kind") in (
                "MessageEvent", "ActionEvent", "ObservationEvent", "AgentErrorEvent", "Condensation"))}


_V0_CALLS = ("run", "read", "write", "edit", "browse", "browse_interactive", "call_tool_mcp", "think", "finish",
             "delegate", "run_ipython")


def openhands_v0_counts(folder: Path) -> Counts:
    events = sorted((orjson.loads(p.read_bytes()) for p in (folder / "events").glob("*.json")), key=lambda e: e["id"])
    calls = [e for e in events if e.get("source") == "agent" and e.get("action") in _V0_CALLS]
    usage = {e["tool_call_metadata"]["model_response"]["id"]: e["tool_call_metadata"]["model_response"]["usage"]
             for e in calls}
    replies = [e for e in events if e.get("action") == "message" and e.get("source") == "agent"]
    results = {e.get("cause"): e for e in events if "observation" in e}
    return {"user": sum(1 for e in events if e.get("action") == "message" and e.get("source") == "user"),
            "requests": len(usage) + len(replies),
            "tokens": sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage.values()),
            "calls": len(calls), "shell": sum(e["action"] == "run" for e in calls),
            "edits": sum(e["action"] == "edit" and e["args"].get("command") != "view" for e in calls),
            "mcp": sum(e["action"] == "call_tool_mcp" for e in calls),
            "tool_errors": sum(1 for e in calls if (r := results.get(e["id"])) is not None and (
                r.get("observation") == "error" or r.get("success") is False)),
            "models": sorted({e["tool_call_metadata"]["model_response"]["model"] for e in calls})}


def amp_counts(path: Path) -> Counts:
    doc = orjson.loads(path.read_bytes())
    assistant = [m for m in doc["messages"] if m["role"] == "assistant"]
    uses = [b["name"] for m in assistant for b in m.get("content", []) if b.get("type") == "tool_use"]
    aside = [e for e in doc.get("usageLedger", {}).get("events", []) if e.get("operationType") != "inference"]
    tokens = sum(sum(m.get("usage", {}).get(k, 0) for k in ("inputTokens", "outputTokens", "cacheCreationInputTokens",
                                                              "cacheReadInputTokens")) for m in assistant)
    tokens += sum(e["tokens"]["input"] + e["tokens"]["output"] for e in aside)
    users = [m for m in doc["messages"] if m["role"] == "user" and any(
        b.get("type") in ("text", "image") for b in m.get("content", []))]
    return {"user": len(users), "requests": len(assistant) + len(aside), "tokens": tokens, "calls": len(uses),
            "shell": uses.count("Bash"), "edits": sum(n in ("edit_file", "create_file") for n in uses),
            "start": min(t for m in doc["messages"] if (t := _ms((m.get("meta") or {}).get("sentAt"))) is not None),
            "models": sorted({m["usage"]["model"] for m in assistant if m.get("usage")} |
                             {e["model"] for e in aside})}


# -- the map side ----------------------------------------------------------------------------------------

def map_counts(m: dict[str, Any], keys: set[str]) -> Counts:
    evs = m["events"]
    calls = [e for e in evs if e["kind"] in CALL_KINDS]
    start = datetime.strptime(m["session"]["startedAt"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    every: Counts = {
        "user": m["totals"]["userTurns"], "requests": m["totals"]["requests"], "tokens": m["totals"]["tokens"],
        "calls": m["totals"]["calls"], "shell": shell_commands(m), "edits": sum(e["kind"] == "edit" for e in evs),
        "mcp": sum(e["kind"] == "mcp" for e in evs),
        "tool_errors": sum(1 for e in calls if e.get("err") and e.get("errClass") != "no_result"),
        "start": round(start.timestamp() * 1000), "duration": m["session"]["durationMs"],
        "models": sorted(m["session"]["models"])}
    return {k: every[k] for k in keys}


# -- the sessions ----------------------------------------------------------------------------------------

def _stores(folder: Path, query: str) -> list[tuple[str, str]]:
    out = []
    for path in sorted(folder.rglob("*.db")) + sorted(folder.rglob("*.vscdb")):
        with closing(_ro(path)) as db:
            try:
                out += [(f"{path}#{sid}", str(path)) for (sid,) in db.execute(query)]
            except sqlite3.OperationalError:
                continue
    return out


def _cursor_sessions(folder: Path) -> list[tuple[str, str]]:
    out = []
    for path in sorted(folder.glob("*.vscdb")):
        with closing(_ro(path)) as db:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "cursorDiskKV" not in names:
                continue
            for key, value in db.execute("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'"):
                if value and orjson.loads(value).get("fullConversationHeadersOnly"):
                    out.append((f"{path}#{key.split(':', 1)[1]}", str(path)))
    return out


def _count_store(parser: Callable[[sqlite3.Connection, str], Counts]) -> Callable[[str], Counts]:
    def count(unit: str) -> Counts:
        path, _, sid = unit.partition("#")
        with closing(_ro(Path(path))) as db:
            return parser(db, sid)
    return count


def _v0_folder(unit: str) -> Path:
    return Path(unit).parent


#: format -> (its corpus folder, how to list its sessions (unit, version source), how to count one)
FORMATS: dict[str, tuple[str, Callable[[Path], list[tuple[str, str]]], Callable[[str], Counts]]] = {
    "continue-dev": ("continue", lambda f: [(str(p), "continue") for p in sorted(f.glob("*_sessions_*-*-*-*-*.json"))],
                     lambda u: continue_counts(Path(u))),
    "crush": ("crush", lambda f: _stores(f, "SELECT id FROM sessions"), _count_store(crush_counts)),
    "opencode": ("opencode", lambda f: _stores(f, "SELECT id FROM session"), _count_store(opencode_counts)),
    "cursor": ("cursor", _cursor_sessions, _count_store(cursor_counts)),
    "copilot-cli": ("copilot-cli", lambda f: [(str(p), str(p)) for p in sorted(f.rglob("*.jsonl"))],
                    lambda u: copilot_counts(Path(u))),
    "openhands": ("openhands", lambda f: [(str(p), "v1") for p in sorted(f.glob("*events.json"))],
                  lambda u: openhands_v1_counts(Path(u))),
    "openhands-v0": ("openhands", lambda f: [(str(p), "v0") for p in sorted(f.rglob("sessions/*/metadata.json"))],
                     lambda u: openhands_v0_counts(_v0_folder(u))),
    "amp": ("amp", lambda f: [(str(p), "amp") for p in sorted(f.glob("*.json"))], lambda u: amp_counts(Path(u))),
}


def _cases() -> list[tuple[str, str]]:
    return [(fmt, unit) for fmt, (sub, units, _) in FORMATS.items() for unit, _ in units(corpus_dir(sub))]


@cache
def compare(fmt: str, unit: str) -> tuple[Counts, Counts]:
    src = FORMATS[fmt][2](unit)
    if "start" in src:
        src["start"] = math.floor(src["start"] + 1e-3)  # to the millisecond, as the map writes it
    return src, map_counts(redact_file(unit).session_map, set(src))


@pytest.fixture(params=corpus_params(_cases), ids=lambda c: c if isinstance(c, str) else
                f"{c[0]}:{c[1].rsplit('/', 1)[-1][-40:]}")
def case(request: pytest.FixtureRequest) -> tuple[str, str]:
    corpus_case(request.param)
    fmt, unit = request.param
    return str(fmt), str(unit)


def test_every_map_keeps_what_its_session_did(case: tuple[str, str]) -> None:
    src, got = compare(*case)
    assert {k: (v, got[k]) for k, v in src.items() if v != got[k]} == {}


def version_of(fmt: str, unit: str, hint: str) -> str:
    if fmt == "copilot-cli":
        for line in Path(hint).read_bytes().split(b"\n")[:5]:
            if b"copilotVersion" in line:
                return str(orjson.loads(line)["data"].get("copilotVersion", "?"))
    if fmt == "opencode":
        with closing(_ro(Path(hint))) as db:
            row = db.execute("SELECT version FROM session WHERE id = ?", (unit.partition("#")[2],)).fetchone()
            return str(row[0]) if row else "?"
    if fmt == "amp":
        doc = orjson.loads(Path(unit).read_bytes())
        return str(doc.get("env", {}).get("initial", {}).get("platform", {}).get("clientVersion", "?"))
    if fmt == "continue-dev":
        return "extension" if "mode" in orjson.loads(Path(unit).read_bytes()) else "cn CLI"
    return hint if hint in ("v0", "v1") else "(not recorded)"


def agreement() -> dict[tuple[str, str], list[int]]:
    """(format, client version) -> [sessions, counts agreeing, counts]."""
    rows: dict[tuple[str, str], list[int]] = {}
    for fmt, (sub, units, _) in FORMATS.items():
        for unit, hint in units(corpus_dir(sub)):
            src, got = compare(fmt, unit)
            row = rows.setdefault((fmt, version_of(fmt, unit, hint)), [0, 0, 0])
            row[0] += 1
            row[1] += sum(1 for k in src if src[k] == got[k])
            row[2] += len(src)
    return rows


def test_agreement_per_format_and_client_version() -> None:
    """The table `main` prints (shown with `pytest -s`): every count of every session agrees."""
    if not corpus_params(_cases) or corpus_params(_cases) == [CORPUS_ABSENT]:
        pytest.skip("../shared/corpus is absent")
    rows = agreement()
    _print(rows)
    assert all(agree == total for _, agree, total in rows.values())


def _print(rows: dict[tuple[str, str], list[int]]) -> None:
    print(f"\n{'format':14} {'version':26} sessions  counts agreeing")
    for (fmt, version), (n, agree, total) in sorted(rows.items()):
        print(f"{fmt:14} {version:26} {n:8}  {agree}/{total} ({100 * agree / total:.1f}%)")


def main() -> None:  # pragma: no cover - a report for people
    _print(agreement())


if __name__ == "__main__":  # pragma: no cover
    main()
