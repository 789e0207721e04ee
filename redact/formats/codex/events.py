"""Codex `event_msg` records other than prompts and token counts, and the usage helpers.

End events refine the call or result they name (`exec_command_end`: exit code and duration of a
shell call; `patch_apply_end`: a patch's success; `mcp_tool_call_end`: the MCP server and tool, and
whether the call failed; `collab_agent_spawn_end`: the spawned agent's role, model and status).
`turn_aborted`, `error` and `stream_error` are error facts; `compacted` and `context_compacted` are
one compaction. Nothing here keeps text: only classes, numbers and identifiers leave.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from redact.build.facts import MAIN, ErrorFact, LlmResponse, ToolCall, ToolResult
from redact.formats.codex.calls import end_event
from redact.formats.codex.keys import (
    ABORT_REASON, COMPLETED_MS, DURATION, END_CALL_ID, ERR, ERROR_INFO, ERROR_MESSAGE, EXIT_CODE, GUARDIAN_ID,
    GUARDIAN_STATUS, HTTP_STATUS, INVOCATION, IS_ERROR, IS_ERROR_SNAKE, NANOS, NEW_AGENT_ROLE, OK, RESULT, SECS,
    SERVER, SPAWN_MODEL, SPAWN_STATUS, STARTED_MS, SUCCESS, TOOL, USAGE_FIELDS,
)
from redact.formats.codex.native_table import ERROR_CLASSES, GUARDIAN_VERDICTS
from redact.formats.common import as_float, as_int, is_model_name, label, status_tag
from redact.formats.wording import api_error_class

if TYPE_CHECKING:
    from redact.formats.codex.state import CodexReader

def error_class(info: object, message: object) -> str:
    """errClass of an `error`/`stream_error` event: Codex's closed `codex_error_info`, else the
    fixed wording of its message (only the class leaves this function)."""
    tag = status_tag(info)
    if tag in ERROR_CLASSES:
        cls = ERROR_CLASSES[tag]
        if isinstance(info, dict):
            inner = next(iter(info.values()))
            status = as_int(inner.get(HTTP_STATUS)) if isinstance(inner, dict) else None
            if status == 429:
                return "rate_limit"
            if status is not None and status >= 500:
                return "server_error"
        return cls
    return api_error_class(message)


def exec_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    # Every source names the call it ends: `unified_exec_startup` is the end of the process an
    # `exec_command` call started (written when it exits, often after the call's own output and
    # the `write_stdin` polls that followed), so its exit code is that call's.
    end_event(r, p.get(END_CALL_ID), as_int(p.get(EXIT_CODE)), duration(p.get(DURATION)), None)

def patch_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    ok = p.get(SUCCESS)
    end_event(r, p.get(END_CALL_ID), None, None, ok if isinstance(ok, bool) else None)

def mcp_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    call = r.call_of(p)
    if call is None:
        return
    inv = p.get(INVOCATION)
    if isinstance(inv, dict) and isinstance(inv.get(SERVER), str) and isinstance(inv.get(TOOL), str):
        call.kind, call.server, call.tool = "mcp", inv[SERVER], inv[TOOL]
    result = p.get(RESULT)
    ok: bool | None = None
    if isinstance(result, dict):
        if ERR in result:
            ok = False
        elif isinstance(result.get(OK), dict):
            ok = result[OK].get(IS_ERROR) is not True and result[OK].get(IS_ERROR_SNAKE) is not True
    end_event(r, call.call_id, None, duration(p.get(DURATION)), ok)

def spawn_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    call = r.call_of(p)
    if call is None or call.kind != "subagent":
        return
    role = p.get(NEW_AGENT_ROLE)
    if isinstance(role, str) and role and len(role) <= 100:
        call.subagent_type = role
    if is_model_name(p.get(SPAWN_MODEL)):
        call.subagent_model = p[SPAWN_MODEL]
    status = status_tag(p.get(SPAWN_STATUS))
    end_event(r, call.call_id, None, None, False if status in ("errored", "not_found") else None)

GUARDIAN_TOOL = "guardian_assessment"


def guardian(r: CodexReader, p: dict[str, Any], t: float) -> None:
    """The automatic reviewer's verdict on an action (a command, a patch, a network or MCP call):
    a `tool` event that says it was approved or blocked. Its rationale and the action (the command
    text, paths, hosts) are never read; an assessment still in progress is counted as skipped."""
    status = status_tag(p.get(GUARDIAN_STATUS))
    verdict = GUARDIAN_VERDICTS.get(status or "")
    gid = p.get(GUARDIAN_ID)
    if verdict is None or not isinstance(gid, str) or not gid:
        r.skip(label(GUARDIAN_TOOL, status))  # `guardian_assessment:in_progress`, counted by status
        return
    call_id = "guardian:" + gid
    if call_id in r.calls:
        r.skip(label(GUARDIAN_TOOL, "repeated"))
        return
    started, done = as_float(p.get(STARTED_MS)), as_float(p.get(COMPLETED_MS))
    start = started if started is not None and 0 < started <= t else t
    call = ToolCall(start, MAIN, call_id, GUARDIAN_TOOL, "tool")
    failed, err_class = verdict
    res = ToolResult(t, call_id, failed, err_class=err_class)
    if started is not None and done is not None and done >= started:
        res.dur = done - started
    r.calls[call_id] = call
    r.results[call_id] = res
    r.add(call)
    r.add(res)

def turn_aborted(r: CodexReader, p: dict[str, Any], t: float) -> None:
    if p.get(ABORT_REASON) in ("interrupted", "replaced", None):
        r.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))
    r.gave_input(t)

def error_event(r: CodexReader, p: dict[str, Any], t: float) -> None:
    r.add(ErrorFact(t, MAIN, "llm", error_class(p.get(ERROR_INFO), p.get(ERROR_MESSAGE)),
                       retry=False))

def stream_error(r: CodexReader, p: dict[str, Any], t: float) -> None:
    r.add(ErrorFact(t, MAIN, "llm", error_class(p.get(ERROR_INFO), p.get(ERROR_MESSAGE)),
                       retry=True))


def compacted(r: CodexReader, p: dict[str, Any], t: float) -> None:
    r.compaction(t)


def context_compacted(r: CodexReader, p: dict[str, Any], t: float) -> None:
    r.compaction(t)


def meter(resp: LlmResponse, tokens: tuple[int, int, int]) -> None:
    """input (of which cached), output -> the map's fresh input, cache read and output."""
    inp, cached, out = tokens
    cached = min(cached, inp)
    resp.inp, resp.cr, resp.out = inp - cached, cached, out


def usage_key(total: object) -> object:
    if not isinstance(total, dict):
        return None
    get = total.get
    return tuple(v if type(v) is int else as_int(v) for v in map(get, USAGE_FIELDS))


def delta(total: object, previous: object) -> dict[str, int] | None:
    """Usage of one request from two cumulative totals (when last_token_usage is absent)."""
    if not isinstance(total, dict):
        return None
    before = previous if isinstance(previous, tuple) else (0, 0, 0, 0)
    now = usage_key(total)
    assert isinstance(now, tuple)
    return {k: max((a or 0) - (b or 0), 0) for k, a, b in zip(USAGE_FIELDS, now, before)}


def duration(value: object) -> float | None:
    """Milliseconds of a Rust `Duration` as serde writes it (`{"secs", "nanos"}`), or seconds."""
    if isinstance(value, dict):
        secs, nanos = as_float(value.get(SECS)), as_float(value.get(NANOS))
        if secs is None:
            return None
        return secs * 1000.0 + (nanos or 0.0) / 1e6
    seconds = as_float(value)
    return seconds * 1000.0 if seconds is not None and seconds >= 0 else None


#: event_msg type -> handler (the reader adds user_message and token_count, which are its own)
HANDLERS: dict[str, Any] = {
    "exec_command_end": exec_end,
    "patch_apply_end": patch_end,
    "mcp_tool_call_end": mcp_end,
    "collab_agent_spawn_end": spawn_end,
    "guardian_assessment": guardian,
    "turn_aborted": turn_aborted,
    "error": error_event,
    "stream_error": stream_error,
    "context_compacted": context_compacted,
}
