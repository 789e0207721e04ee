"""Fidelity over the shared corpus for Continue, Crush, opencode, Cursor, Copilot CLI, OpenHands (V1 and
V0) and Amp (issue 25): does each map keep what its session did?

A small parser per format, written here from the raw JSON or the store's rows and sharing no code with
the readers, counts every field of tests/formats/fidelity.py's `Counts` in each session; `map_counts`
counts the same in the session's map, from its events and totals only. Every count must agree. Each
count is defined by what the raw log means (what an engineer writing their own parser would count),
written next to the parser. Each session is parsed once and redacted once.

    PYTHONPATH=. python -m tests.formats.test_formats_fidelity

prints the agreement per format and client version. Skipped when ../shared/corpus is absent.
"""
from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_file
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.fidelity import Counts, differences, iso, map_counts, table

pytestmark = pytest.mark.corpus


def _ms(value: Any) -> float | None:
    """A time as epoch ms: an ISO string (a missing zone is UTC), or a number of s or ms."""
    if isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return _ms(int(value)) if value.isdigit() else None
        return (dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)).timestamp() * 1000
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value) * (1000 if value < 1e11 else 1)
    return None


def _ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)


def _obj(value: Any) -> dict[str, Any]:
    """A JSON object, from an object or its text ({} for anything else)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


class _Tally:
    """What the parsers share: one tool call at a time, and the times seen."""

    def __init__(self) -> None:
        self.c = Counts()
        self.by_tool: Counter[str] = Counter()
        self.order: list[str] = []
        self.models: set[str] = set()
        self.times: list[float] = []

    def call(self, label: str, kind: str, *, path: bool = False, create: bool = False, failed: bool = False) -> None:
        """A tool call of `kind` (shell, read, edit, search, mcp, web, subagent, skill, other)
        labelled as the map labels it (MCP: server/tool; web, subagent, skill: <web>, <subagent>,
        <skill>); `path`: it names the file it reads or edits."""
        c = self.c
        c.calls += 1
        self.by_tool[f"<{kind}>" if kind in ("web", "subagent", "skill") else label] += 1
        self.order.append("other" if kind in ("subagent", "skill") else kind)
        c.shell += kind == "shell"
        c.mcp += kind == "mcp"
        c.reads += kind == "read" and path
        c.edits += kind == "edit" and path
        c.creates += kind == "edit" and path and create
        c.errors += failed

    def time(self, *values: Any) -> None:
        self.times.extend(t for v in values if (t := _ms(v)) is not None)

    def done(self, start: float | None = None, end: float | None = None) -> Counts:
        c = self.c
        c.by_tool = dict(sorted(self.by_tool.items()))
        c.order = tuple(self.order)
        c.models = tuple(sorted(self.models))
        first = start if start is not None else min(self.times, default=None)
        last = end if end is not None else max(self.times, default=None)
        c.start = iso(first)
        c.duration = round(last - first) if first is not None and last is not None else 0
        return c


# -- Continue: ~/.continue/sessions/<id>.json -------------------------------------------------------
# One history item is one message. A user message with text (or an image) is a turn; every assistant
# message is one model response, its `usage` (the cn CLI writes it) its tokens (total_tokens: prompt,
# completion and thinking) and model; its toolCalls are the calls and the item's toolCallStates their
# outcome (errored or canceled is a failure); create_new_file, done, creates its file (Write may
# overwrite one: not a create). The messages carry no time: the session's only time is
# `dateCreated` in the folder's sessions.json, and the duration is unknown (0). The extension's
# `modelTitle` is the user's own label for a configured model, not a model name: not counted.
_CONTINUE = {"Bash": "shell", "run_terminal_command": "shell", "Read": "read", "read_file": "read",
             "read_currently_open_file": "read", "Edit": "edit", "MultiEdit": "edit", "Write": "edit",
             "edit_existing_file": "edit", "create_new_file": "edit", "single_find_and_replace": "edit",
             "Search": "search", "Glob": "search", "ls": "search", "file_glob_search": "search",
             "grep_search": "search", "view_subdirectory": "search", "view_repo_map": "search",
             "search_web": "web", "fetch_url_content": "web", "Fetch": "web"}


def _continue_text(content: Any) -> bool:
    if isinstance(content, str):
        return bool(content.strip())
    return any(isinstance(p, dict) and (p.get("type") in ("image", "imageUrl") or
                                         (p.get("type") == "text" and str(p.get("text") or "").strip()))
               for p in content or [])


def continue_counts(path: Path) -> Counts:
    doc = json.loads(path.read_bytes())
    t = _Tally()
    for item in doc.get("history") or []:
        m = item.get("message") or {}
        if m.get("role") == "user":
            t.c.turns += _continue_text(m.get("content"))
        if m.get("role") != "assistant":
            continue
        t.c.requests += 1
        usage = m.get("usage") or {}
        t.c.tokens += int(usage.get("total_tokens") or
                          (usage.get("prompt_tokens") or 0) + (usage.get("completion_tokens") or 0))
        if usage.get("model"):
            t.models.add(usage["model"])
        states = {s.get("toolCallId"): s for s in item.get("toolCallStates") or []}
        for tc in m.get("toolCalls") or []:
            name = tc["function"]["name"]
            args = _obj(tc["function"].get("arguments"))
            state = states.get(tc.get("id")) or {}
            kind = _CONTINUE.get(name, "other")
            failed = state.get("status") in ("errored", "canceled")
            t.call(name, kind, path=any(isinstance(args.get(k), str) and args[k] for k in ("filepath", "file_path")),
                   create=name == "create_new_file" and state.get("status") == "done", failed=failed)
    index = path.parent / (path.name[: -len(path.name.rsplit("_", 1)[1])] + "sessions.json")
    entries = json.loads(index.read_bytes()) if index.is_file() else []
    created = next((_ms(e.get("dateCreated")) for e in entries if e.get("sessionId") == doc.get("sessionId")), None)
    return t.done(created, created)


# -- Crush: .crush/crush.db -------------------------------------------------------------------------
# A session's messages hold parts. A user message with a text or binary part is a turn; an assistant
# message is a model response unless all it holds is a `finish` of reason `error` (a failed call: an
# error); its tool_call parts are the calls, the tool messages' tool_result parts their outcome
# (is_error). Crush keeps tokens per session only (sessions.prompt_tokens + completion_tokens).
# Times are seconds: the first message's created_at to the last message time (created, updated,
# finished).
_CRUSH = {"bash": "shell", "view": "read", "edit": "edit", "multiedit": "edit", "write": "edit",
          "ls": "search", "glob": "search", "grep": "search", "fetch": "web", "download": "web",
          "sourcegraph": "web", "agentic_fetch": "web", "web_fetch": "web", "web_search": "web",
          "agent": "subagent"}


def crush_counts(db: sqlite3.Connection, sid: str) -> Counts:
    prompt, completion = db.execute(
        "SELECT prompt_tokens, completion_tokens FROM sessions WHERE id = ?", (sid,)).fetchone()
    t = _Tally()
    t.c.tokens = int(prompt or 0) + int(completion or 0)
    rows = db.execute("SELECT role, parts, model, created_at, updated_at, finished_at FROM messages "
                      "WHERE session_id = ? ORDER BY created_at, rowid", (sid,)).fetchall()
    results = {p["data"].get("tool_call_id"): p["data"] for role, parts, *_ in rows if role == "tool"
               for p in json.loads(parts) if p.get("type") == "tool_result"}
    for role, parts_text, model, *times in rows:
        t.time(*times)
        parts = json.loads(parts_text)
        types = [p.get("type") for p in parts]
        if role == "user":
            t.c.turns += any(p.get("type") == "binary" or (p.get("type") == "text" and
                                                           str(p["data"].get("text") or "").strip()) for p in parts)
        if role != "assistant":
            continue
        failed = [p for p in parts if p.get("type") == "finish" and p["data"].get("reason") == "error"]
        t.c.errors += len(failed)
        if failed and set(types) == {"finish"}:
            continue
        t.c.requests += 1
        if model:
            t.models.add(model)
        for p in parts:
            if p.get("type") != "tool_call":
                continue
            name = p["data"]["name"]
            args = _obj(p["data"].get("input"))
            result = results.get(p["data"].get("id")) or {}
            meta = _obj(result.get("metadata"))
            kind = "mcp" if name.startswith("mcp_") else _CRUSH.get(name, "other")
            label = "/".join(name[4:].split("_", 1)) if kind == "mcp" else name
            t.call(label, kind, path=bool(args.get("file_path")),
                   create=name == "write" and not meta.get("old_content") and "old_content" in meta,
                   failed=result.get("is_error") is True)
    return t.done()


# -- opencode: ~/.local/share/opencode/opencode.db -------------------------------------------------
# A session's messages (role, time, tokens, modelID) and their parts. A user message with a text part
# that is not synthetic is a turn; an assistant message is a model response (its tokens: input,
# output, reasoning, cache read and write); its `tool` parts are the calls, state.status "error" or
# a command's non-zero exit a failure; a message's `error` is an error. Times are ms: the first
# message's creation (the session row is made before anything happens) to the last message or call
# time.
_OPENCODE = {"bash": "shell", "read": "read", "edit": "edit", "write": "edit", "multiedit": "edit",
             "patch": "edit", "apply_patch": "edit", "grep": "search", "glob": "search", "list": "search",
             "codesearch": "search", "webfetch": "web", "websearch": "web", "task": "subagent", "skill": "skill"}


def opencode_counts(db: sqlite3.Connection, sid: str) -> Counts:
    t = _Tally()
    messages = {mid: json.loads(d) for mid, d in db.execute(
        "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", (sid,))}
    parts: dict[str, list[dict[str, Any]]] = {}
    for mid, d in db.execute("SELECT message_id, data FROM part WHERE session_id = ? ORDER BY time_created, id", (sid,)):
        parts.setdefault(mid, []).append(json.loads(d))
    for mid, m in messages.items():
        times = m.get("time") or {}
        t.time(times.get("created"), times.get("completed"))
        mine = parts.get(mid, [])
        if m.get("role") == "user":
            t.c.turns += any(p.get("type") == "text" and not p.get("synthetic") and str(p.get("text") or "").strip()
                             for p in mine)
            continue
        t.c.requests += 1
        tok = m.get("tokens") or {}
        cache_ = tok.get("cache") or {}
        t.c.tokens += sum(int(tok.get(k) or 0) for k in ("input", "output", "reasoning")) + \
            int(cache_.get("read") or 0) + int(cache_.get("write") or 0)
        if m.get("modelID"):
            t.models.add(m["modelID"])
        t.c.errors += bool(m.get("error"))
        for p in mine:
            if p.get("type") != "tool":
                continue
            state = p.get("state") or {}
            args = state.get("input") or {}
            exit_ = (state.get("metadata") or {}).get("exit")
            name = p["tool"]
            kind = _OPENCODE.get(name, "other")
            t.call(name, kind, path=bool(args.get("filePath")),
                   create=name == "write" and (state.get("metadata") or {}).get("exists") is False,
                   failed=state.get("status") == "error" or exit_ not in (0, None))
            st = state.get("time") or {}
            t.time(st.get("start"), st.get("end"))
    return t.done()


# -- Cursor: globalStorage/state.vscdb, cursorDiskKV composerData:<id> + bubbleId:<id>:<bubble> ------
# A conversation's bubbles in their header order: type 1 is the user's (a turn when it has text),
# type 2 the agent's. Cursor records no model call boundary: the agent's bubbles between two prompts
# are one request. A bubble with toolFormerData is a call (its status "error", a rejected user
# decision or a command's non-zero result exitCode a failure). Tokens: the bubbles' tokenCount.
# Times: the bubbles' createdAt (a turn's turnDurationMs runs from its prompt to its last bubble).
# Model: the prompt bubble's modelInfo.modelName.
_CURSOR = {"run_terminal_command": "shell", "run_terminal_cmd": "shell", "read_file": "read",
           "edit_file": "edit", "search_replace": "edit", "write": "edit", "apply_patch": "edit",
           "delete_file": "edit", "glob_file_search": "search", "ripgrep_raw_search": "search",
           "grep_search": "search", "file_search": "search", "codebase_search": "search",
           "list_dir": "search", "ripgrep_search": "search", "web_search": "web", "fetch": "web",
           "task": "subagent"}
_CURSOR_PATHS = ("targetFile", "target_file", "relativeWorkspacePath", "path", "file_path")


def cursor_counts(db: sqlite3.Connection, sid: str) -> Counts:
    t = _Tally()
    doc = json.loads(db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (f"composerData:{sid}",)).fetchone()[0])
    previous = None
    for head in doc.get("fullConversationHeadersOnly") or []:
        row = db.execute("SELECT value FROM cursorDiskKV WHERE key = ?",
                         (f"bubbleId:{sid}:{head['bubbleId']}",)).fetchone()
        b = json.loads(row[0]) if row and row[0] else {}
        t.time(b.get("createdAt"))
        kind = b.get("type")
        if kind == 1:
            t.c.turns += bool(str(b.get("text") or "").strip() or b.get("images"))
            if (b.get("modelInfo") or {}).get("modelName"):
                t.models.add(b["modelInfo"]["modelName"])
        elif kind == 2:
            t.c.requests += previous != 2
            t.c.tokens += sum(int(v or 0) for v in (b.get("tokenCount") or {}).values())
        previous = kind
        tf = b.get("toolFormerData") or {}
        if kind == 2 and tf.get("name"):
            name = str(tf["name"])
            base = name.removesuffix("_v2")
            params = _obj(tf.get("params")) or _obj(tf.get("rawArgs"))
            k = "mcp" if base.startswith("mcp_") else _CURSOR.get(base, "other")
            label = "/".join(base[4:].split("_", 1)) if k == "mcp" else name
            t.call(label, k, path=any(isinstance(params.get(p), str) and params[p] for p in _CURSOR_PATHS),
                   create=base in ("edit_file", "write") and _obj(tf.get("result")).get("isNewFile") is True,
                   failed=tf.get("status") == "error" or tf.get("userDecision") == "rejected" or
                   _obj(tf.get("result")).get("exitCode") not in (0, None))
    return t.done()


# -- Copilot CLI: ~/.copilot/session-state/<id>.jsonl or <id>/events.jsonl ---------------------------
# One record a line. user.message with content is a turn; assistant.message a model response (an
# older client writes one response as a text record and a tool-request record a few ms apart: one
# response); tool.execution_start a call (tool.execution_complete with success false, or a command
# whose result ends "<exited with exit code N>", N not 0, a failure; a tool request the model made
# that never started is a call too, in its response's place); subagent.started a subagent;
# session.error and a failed hook (hook.end, success false) an error. Tokens: each response's
# outputTokens, and the input of each run (a launch or a resume) that ends in session.shutdown, its
# models' inputTokens there (the whole prompt, cache reads and writes included). Models: the models
# the call completions name, the metrics' models, a model_change's new model. Times: the records that are events (prompts,
# responses, calls and their ends, errors, compactions, subagents, a change of model).
_COPILOT = {"bash": "shell", "powershell": "shell", "view": "read", "edit": "edit", "create": "edit",
            "str_replace_editor": "edit", "apply_patch": "edit", "grep": "search", "glob": "search",
            "web_fetch": "web", "fetch": "web", "web_search": "web", "task": "subagent", "skill": "skill"}
_COPILOT_EVENTS = ("user.message", "assistant.message", "assistant.turn_end", "tool.execution_start", "tool.execution_complete",
                   "session.error", "abort", "session.compaction_start", "session.compaction_complete",
                   "subagent.started", "subagent.completed")
_EXIT = re.compile(r"<exited with exit code (-?\d+)>\s*$")


def _copilot_kind(name: str, args: dict[str, Any], mcp: str | None) -> str:
    if mcp:
        return "mcp"
    if name == "str_replace_editor":
        return "read" if args.get("command") == "view" else "edit"
    return _COPILOT.get(name, "other")


def _copilot_failed(done: dict[str, Any] | None) -> bool:
    if not done:
        return False
    if done.get("success") is False:
        return True
    content = (done.get("result") or {}).get("content") if isinstance(done.get("result"), dict) else None
    found = _EXIT.search(content) if isinstance(content, str) else None
    return found is not None and found.group(1) != "0"


def copilot_counts(path: Path) -> Counts:
    recs = [json.loads(line) for line in path.read_bytes().split(b"\n") if line.strip()]
    t = _Tally()
    done = {r["data"].get("toolCallId"): r["data"] for r in recs if r["type"] == "tool.execution_complete"}
    started: set[str] = set()
    starts = {r["data"].get("toolCallId") for r in recs if r["type"] == "tool.execution_start"}
    asked: dict[str, dict[str, Any]] = {}
    calls: list[tuple[tuple[float, int, int], tuple[str, str], dict[str, bool]]] = []  # (order, call, flags)
    prev: dict[str, Any] | None = None
    for r in recs:
        d, kind = r.get("data") or {}, r["type"]
        if kind in _COPILOT_EVENTS or (kind == "session.model_change" and d.get("newModel") != d.get("previousModel")):
            t.time(r.get("timestamp"))
        if kind == "user.message":
            t.c.turns += bool(str(d.get("content") or "").strip() or d.get("attachments"))
        elif kind == "assistant.message":
            reqs = d.get("toolRequests") or []
            for q in reqs:
                if q["toolCallId"] not in asked and q["toolCallId"] not in starts:
                    asked[q["toolCallId"]] = q
                    name = str(q.get("name"))
                    args = _obj(q.get("arguments"))
                    calls.append(((_ms(r.get("timestamp")) or 0, 1, len(calls)),
                                  (name, _copilot_kind(name, args, None)), {"path": bool(args.get("path"))}))
            split = prev is not None and prev["type"] == "assistant.message" and prev["data"].get("content") \
                and not prev["data"].get("toolRequests") and reqs and not d.get("content") \
                and (_ms(r["timestamp"]) or 0) - (_ms(prev["timestamp"]) or 0) <= 50
            t.c.requests += not split
            t.c.tokens += int(d.get("outputTokens") or 0)
        elif kind == "tool.execution_start":
            cid = d.get("toolCallId")
            started.add(cid)
            name = str(d.get("toolName"))
            args = d.get("arguments") if isinstance(d.get("arguments"), dict) else {}
            server = d.get("mcpServerName")
            k = _copilot_kind(name, args, server)
            label = f"{server}/{d.get('mcpToolName') or name}" if k == "mcp" else name
            calls.append(((_ms(r.get("timestamp")) or 0, 0, len(calls)), (label, k), {
                "path": bool(args.get("path")), "failed": _copilot_failed(done.get(cid)),
                "create": name == "create" or (name == "str_replace_editor" and args.get("command") == "create")}))
        elif kind == "tool.execution_complete" and d.get("model"):
            t.models.add(d["model"])
        elif kind == "session.model_change" and d.get("newModel"):
            t.models.add(d["newModel"])
        elif kind == "subagent.started":
            t.c.subagents += 1
        elif kind == "session.error" or (kind == "hook.end" and d.get("success") is False):
            t.c.errors += 1
        elif kind == "session.shutdown":
            for model, metric in (d.get("modelMetrics") or {}).items():
                t.c.tokens += int((metric.get("usage") or {}).get("inputTokens") or 0)
                t.models.add(model)
        prev = r
    # in time order; a call asked for and never started at its response's time, after the calls
    # started then
    for _, (label, k), flags in sorted(calls, key=lambda c: c[0]):
        t.call(label, k, **flags)
    return t.done()


# -- OpenHands V1: a conversation's events (a JSON list) ---------------------------------------------
# A user MessageEvent is a turn; an agent's model response is one llm_response_id (the actions and
# messages it produced share it); an ActionEvent is a call (its ObservationEvent's error, or an
# AgentErrorEvent for it, a failure; a command's non-zero exit too). FinishAction and ThinkAction are
# tools as well. Tokens and models are not in the events. Times: the events' timestamps (messages,
# actions, observations, errors, condensations; not the system prompt, written when the
# conversation opens, before anything happens, nor the state updates).
_V1_EVENTS = ("MessageEvent", "ActionEvent", "ObservationEvent", "AgentErrorEvent", "UserRejectObservation",
              "Condensation")
_V1 = {"TerminalAction": "shell", "ExecuteBashAction": "shell", "BrowserAction": "web", "MCPToolAction": "mcp"}


def openhands_v1_counts(path: Path) -> Counts:
    events = json.loads(path.read_bytes())
    t = _Tally()
    failed: set[str] = set()
    actions = {e.get("id") for e in events if e.get("kind") == "ActionEvent"}
    for e in events:
        if e.get("kind") == "ObservationEvent":
            obs = e.get("observation") or {}
            exit_ = obs.get("exit_code") if isinstance(obs, dict) else None
            if obs.get("is_error") is True or (isinstance(exit_, int) and exit_ not in (0, -1)) or \
                    str(obs.get("kind", "")).endswith("ErrorObservation"):
                # its action by id (tool_call_ids repeat across responses); by tool_call_id only
                # when the action_id names no action
                failed.add(e.get("action_id") if e.get("action_id") in actions else f"call:{e.get('tool_call_id')}")
        elif e.get("kind") == "AgentErrorEvent":
            failed.add(f"call:{e.get('tool_call_id')}")
    responses: set[str] = set()
    for e in events:
        kind = e.get("kind")
        if kind in _V1_EVENTS:
            t.time(e.get("timestamp"))
        if kind == "MessageEvent" and e.get("source") == "user":
            t.c.turns += 1
        elif kind in ("MessageEvent", "ActionEvent") and e.get("source") == "agent":
            responses.add(e.get("llm_response_id") or e.get("id"))
        if kind == "ActionEvent":
            action = e.get("action") or {}
            ak = action.get("kind")
            k = _V1.get(ak, "other")
            if ak in ("FileEditorAction", "StrReplaceEditorAction"):
                k = "read" if action.get("command") == "view" else "edit"
            t.call(e.get("tool_name") or ak, k, path=bool(action.get("path")), create=action.get("command") == "create",
                   failed=e.get("id") in failed or f"call:{e.get('tool_call_id')}" in failed)
        elif kind == "AgentErrorEvent" and not e.get("tool_call_id"):
            t.c.errors += 1
    t.c.requests = len(responses)
    return t.done()


# -- OpenHands V0: ~/.openhands/sessions/<id>/events/<n>.json ----------------------------------------
# Each file one event. A user `message` action is a turn. The agent's actions that carry a
# tool_call_metadata are calls, grouped into model responses by model_response.id (its usage the
# response's tokens: prompt + completion; its model the model); an agent `message` without one is a
# response of its own. A call's observation (cause = its id) with observation "error", success false
# or a non-zero exit is a failure; an `error` observation caused by no call is an error. Times: the
# records that are events (messages, calls, their observations, errors).
_V0 = {"run": "shell", "run_ipython": "other", "read": "read", "edit": "edit", "write": "edit",
       "browse": "web", "browse_interactive": "web", "call_tool_mcp": "mcp", "delegate": "subagent"}


def openhands_v0_counts(folder: Path) -> Counts:
    events = sorted((json.loads(p.read_bytes()) for p in (folder / "events").glob("*.json")), key=lambda e: e["id"])
    t = _Tally()
    by_cause = {e.get("cause"): e for e in events if "observation" in e and e.get("cause") is not None}
    usage: dict[str, dict[str, Any]] = {}
    calls = {e.get("id") for e in events if e.get("action") and e.get("tool_call_metadata")}
    for e in events:
        action, source = e.get("action"), e.get("source")
        meta = e.get("tool_call_metadata") or {}
        response = meta.get("model_response") or {}
        # the events: prompts, replies, calls and their results, errors (not the agent's states,
        # its system prompt or the workspace recall)
        if action == "message" or (action and meta) or e.get("cause") in calls or e.get("observation") == "error":
            t.time(e.get("timestamp"))
        if action == "message" and source == "user":
            t.c.turns += 1
        elif action == "message" and source == "agent" and not response:
            t.c.requests += 1
        if action and source == "agent" and response:
            usage.setdefault(str(response.get("id")), response)
            if action == "message":
                continue
            args = e.get("args") or {}
            r = by_cause.get(e.get("id")) or {}
            exit_ = ((r.get("extras") or {}).get("metadata") or {}).get("exit_code")
            k = _V0.get(action, "other")
            if action == "edit" and args.get("command") == "view":
                k = "read"
            name = str(action)
            if k == "mcp":  # the event names no server: OpenHands' own serves its pull requests
                own = args.get("name") in ("create_pr", "create_mr", "create_bitbucket_pr", "create_azure_devops_pr")
                name = f"{'openhands' if own else 'unknown'}/{args.get('name')}"
            t.call(name, k, path=bool(args.get("path")), create=args.get("command") == "create",
                   failed=r.get("observation") == "error" or r.get("success") is False or
                   (isinstance(exit_, int) and exit_ not in (0, -1)))
        if "observation" in e and e.get("observation") == "error" and e.get("cause") is None:
            t.c.errors += 1
    for response in usage.values():
        u = response.get("usage") or {}
        t.c.tokens += int(u.get("prompt_tokens") or 0) + int(u.get("completion_tokens") or 0)
        if response.get("model"):
            t.models.add(response["model"])
    t.c.requests += len(usage)
    return t.done()


# -- Amp: ~/.local/share/amp/threads/T-<id>.json ------------------------------------------------------
# A thread's messages. A user message with a text or image block is a turn; an assistant message a
# model response (usage: input, output, cache creation and read; model); its tool_use blocks the calls
# (create_file creates or overwrites: no create is known)
# (the tool_result's run.status "error" or "rejected-by-user", is_error, or a command's non-zero
# exitCode a failure). The usage ledger's
# calls other than inference (title generation) are model calls too. Times: the messages' sentAt and
# the ledger's timestamps.
_AMP = {"Bash": "shell", "Read": "read", "read_file": "read", "edit_file": "edit", "create_file": "edit",
        "Grep": "search", "glob": "search", "list_directory": "search", "codebase_search_agent": "search",
        "read_web_page": "web", "web_search": "web", "Task": "subagent"}


def amp_counts(path: Path) -> Counts:
    doc = json.loads(path.read_bytes())
    t = _Tally()
    results = {b.get("toolUseID"): b for m in doc["messages"] if m["role"] == "user"
               for b in m.get("content", []) if b.get("type") == "tool_result"}
    for m in doc["messages"]:
        t.time((m.get("meta") or {}).get("sentAt"))
        blocks = m.get("content") or []
        if m["role"] == "user":
            t.c.turns += any(b.get("type") == "image" or (b.get("type") == "text" and str(b.get("text") or "").strip())
                             for b in blocks)
            continue
        t.c.requests += 1
        u = m.get("usage") or {}
        t.c.tokens += sum(int(u.get(k) or 0) for k in ("inputTokens", "outputTokens", "cacheCreationInputTokens",
                                                         "cacheReadInputTokens"))
        if u.get("model"):
            t.models.add(u["model"])
        for b in blocks:
            if b.get("type") != "tool_use":
                continue
            name, args = b["name"], b.get("input") or {}
            r = results.get(b.get("id")) or {}
            status = (r.get("run") or {}).get("status")
            k = "mcp" if name.startswith("mcp__") else _AMP.get(name, "other")
            label = "/".join(name[5:].split("__", 1)) if k == "mcp" else name
            t.call(label, k, path=bool(args.get("path")), create=False,
                   failed=status in ("error", "rejected-by-user", "cancelled") or r.get("is_error") is True or
                   _obj((r.get("run") or {}).get("result")).get("exitCode") not in (0, None))
    for e in (doc.get("usageLedger") or {}).get("events") or []:
        t.time(e.get("timestamp"))
        if e.get("operationType") == "inference":
            continue
        t.c.requests += 1
        t.c.tokens += int((e.get("tokens") or {}).get("input") or 0) + int((e.get("tokens") or {}).get("output") or 0)
        if e.get("model"):
            t.models.add(e["model"])
    return t.done()


# -- the sessions ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Format:
    corpus: str  # the corpus folder
    units: Callable[[Path], list[str]]  # the sessions in it
    count: Callable[[str], Counts]  # one session's counts
    version: Callable[[str], str]  # its client version
    shell: tuple[str, ...]  # the format's shell tools


def _store_units(folder: Path, query: str, suffixes: Iterable[str] = (".db",)) -> list[str]:
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.suffix in suffixes):
        with closing(_ro(path)) as db:
            try:
                out += [f"{path}#{sid}" for (sid,) in db.execute(query)]
            except sqlite3.DatabaseError:
                continue
    return out


def _cursor_units(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.glob("*.vscdb")):
        with closing(_ro(path)) as db:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "cursorDiskKV" not in names:
                continue
            for key, value in db.execute("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'"):
                if value and json.loads(value).get("fullConversationHeadersOnly"):
                    out.append(f"{path}#{key.split(':', 1)[1]}")
    return out


def _in_store(parser: Callable[[sqlite3.Connection, str], Counts]) -> Callable[[str], Counts]:
    def count(unit: str) -> Counts:
        path, _, sid = unit.partition("#")
        with closing(_ro(Path(path))) as db:
            return parser(db, sid)
    return count


def _copilot_version(unit: str) -> str:
    for line in Path(unit).read_bytes().split(b"\n")[:5]:
        if b"copilotVersion" in line:
            return "copilot-cli " + str(json.loads(line)["data"].get("copilotVersion", "?"))
    return "copilot-cli (not recorded)"


def _opencode_version(unit: str) -> str:
    path, _, sid = unit.partition("#")
    with closing(_ro(Path(path))) as db:
        row = db.execute("SELECT version FROM session WHERE id = ?", (sid,)).fetchone()
    return f"opencode {row[0] if row else '?'}"


def _amp_version(unit: str) -> str:
    doc = json.loads(Path(unit).read_bytes())
    return "amp " + str(((doc.get("env") or {}).get("initial") or {}).get("platform", {}).get("clientVersion", "?"))


def _continue_version(unit: str) -> str:
    return "continue extension" if "mode" in json.loads(Path(unit).read_bytes()) else "continue cn CLI"


FORMATS: dict[str, Format] = {
    "continue-dev": Format("continue", lambda f: [str(p) for p in sorted(f.glob("*_sessions_*-*-*-*-*.json"))],
                           lambda u: continue_counts(Path(u)), _continue_version, ("Bash", "run_terminal_command")),
    "crush": Format("crush", lambda f: _store_units(f, "SELECT id FROM sessions"), _in_store(crush_counts),
                    lambda u: "crush (not recorded)", ("bash",)),
    "opencode": Format("opencode", lambda f: _store_units(f, "SELECT id FROM session"), _in_store(opencode_counts),
                       _opencode_version, ("bash",)),
    "cursor": Format("cursor", _cursor_units, _in_store(cursor_counts), lambda u: "cursor (not recorded)",
                     ("run_terminal_command", "run_terminal_command_v2", "run_terminal_cmd")),
    "copilot-cli": Format("copilot-cli", lambda f: [str(p) for p in sorted(f.rglob("*.jsonl"))],
                          lambda u: copilot_counts(Path(u)), _copilot_version, ("bash", "powershell")),
    "openhands": Format("openhands", lambda f: [str(p) for p in sorted(f.glob("*events.json"))],
                        lambda u: openhands_v1_counts(Path(u)), lambda u: "openhands V1", ("terminal", "execute_bash")),
    "openhands-v0": Format("openhands", lambda f: [str(p) for p in sorted(f.rglob("sessions/*/metadata.json"))],
                           lambda u: openhands_v0_counts(Path(u).parent), lambda u: "openhands V0", ("run",)),
    "amp": Format("amp", lambda f: [str(p) for p in sorted(f.glob("*.json"))], lambda u: amp_counts(Path(u)),
                  _amp_version, ("Bash",)),
}


def _cases() -> list[tuple[str, str]]:
    return [(name, unit) for name, fmt in FORMATS.items() for unit in fmt.units(corpus_dir(fmt.corpus))]


@cache
def compare(name: str, unit: str) -> tuple[Counts, Counts]:
    """(the session's own counts, its map's), each computed once."""
    fmt = FORMATS[name]
    return fmt.count(unit), map_counts(redact_file(unit, policy="internal").session_map, fmt.shell)


@pytest.fixture(params=corpus_params(_cases), ids=lambda c: c if isinstance(c, str) else
                f"{c[0]}:{c[1].rsplit('/', 1)[-1][-40:]}")
def case(request: pytest.FixtureRequest) -> tuple[str, str]:
    corpus_case(request.param)
    name, unit = request.param
    return str(name), str(unit)


def test_every_map_keeps_what_its_session_did(case: tuple[str, str]) -> None:
    source, produced = compare(*case)
    assert differences(source, produced) == {}


def _fixtures(folder: Path) -> None:
    """The sessions the formats' own tests use, laid out as the corpus is (a folder a format)."""
    import orjson

    from tests.formats import jsonfix, storefix, v0fix
    from tests.native import copilotfix

    def put(sub: str, name: str, data: bytes) -> None:
        (folder / sub).mkdir(parents=True, exist_ok=True)
        (folder / sub / name).write_bytes(data)

    put("continue", f"home_.continue_sessions_{jsonfix.CONTINUE_ID}.json", jsonfix.continue_session(jsonfix.plain()))
    for sub, build in (("crush", storefix.crush_db), ("cursor", storefix.cursor_global_db),
                       ("opencode", lambda db: storefix.opencode_db(db, extra_session=True))):
        (folder / sub).mkdir()
        build(folder / sub / f"{sub}.db" if sub != "cursor" else folder / sub / "state.vscdb")
    records = [orjson.loads(line) for line in copilotfix.events(lambda: "quill").splitlines() if line.strip()]
    for r in records:  # the fixture names its shutdown's model by a word: the model its responses ran on
        if r["type"] == "session.shutdown":
            r["data"]["modelMetrics"] = {"claude-sonnet-4.6": next(iter(r["data"]["modelMetrics"].values()))}
    put("copilot-cli", "events.jsonl", b"".join(orjson.dumps(r) + b"\n" for r in records))
    put("copilot-cli", "legacy.jsonl", copilotfix.events(lambda: "quill", legacy=True))
    put("openhands", "conversation_events.json", jsonfix.openhands_events(jsonfix.plain()))
    v0fix.file_store(folder / "openhands" / "sessions", jsonfix.plain())
    put("amp", f"{jsonfix.AMP_ID}.json", jsonfix.amp_thread(jsonfix.plain()))


def test_the_counts_agree_on_the_formats_own_fixtures(tmp_path: Path) -> None:
    """The same parsers and the same check over the sessions the formats' own tests write (richer in
    tools than the corpus: MCP, subagents, creates, rejections, unstarted calls); no corpus needed."""
    _fixtures(tmp_path)
    seen = []
    for name, fmt in FORMATS.items():
        for unit in fmt.units(tmp_path / fmt.corpus):
            source = fmt.count(unit)
            produced = map_counts(redact_file(unit, policy="internal").session_map, fmt.shell)
            assert differences(source, produced) == {}, (name, unit)
            seen.append(name)
    assert set(seen) == set(FORMATS)


def report() -> str:
    return table([(FORMATS[name].version(unit), *compare(name, unit)) for name, unit in _cases()])


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(report())
