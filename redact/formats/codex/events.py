"""Codex `event_msg` records other than prompts and token counts, and the usage helpers.

End events refine the call or result they name (`exec_command_end`: exit code and duration of a
shell call; `patch_apply_end`: a patch's success; `mcp_tool_call_end`: the MCP server and tool, and
whether the call failed; `collab_agent_spawn_end`: the spawned agent's role, model and status).
`turn_aborted`, `error` and `stream_error` are error facts; `compacted` and `context_compacted` are
one compaction. Nothing here keeps text: only classes, numbers and identifiers leave.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from redact.build.facts import MAIN, ErrorFact, LlmResponse, ToolCall, ToolResult
from redact.formats.codex.calls import end_event
from redact.formats.common import as_float, as_int, is_model_name, label, status_tag

if TYPE_CHECKING:
    from redact.formats.codex.state import CodexReader

_ERROR_INFO = {
    "context_window_exceeded": "bad_request", "usage_limit_exceeded": "usage_limit",
    "internal_server_error": "server_error", "unauthorized": "auth", "bad_request": "bad_request",
    "http_connection_failed": "api_error", "response_stream_connection_failed": "api_error",
    "response_stream_disconnected": "api_error", "response_too_many_failed_attempts": "api_error",
    "sandbox_error": "api_error", "server_overloaded": "overloaded", "other": "api_error",
}


def error_class(info: object, message: object) -> str:
    """errClass of an `error`/`stream_error` event: Codex's closed `codex_error_info`, else the
    fixed wording of its message (only the class leaves this function)."""
    tag = status_tag(info)
    if tag in _ERROR_INFO:
        cls = _ERROR_INFO[tag]
        if isinstance(info, dict):
            inner = next(iter(info.values()))
            status = as_int(inner.get("http_status_code")) if isinstance(inner, dict) else None
            if status == 429:
                return "rate_limit"
            if status is not None and status >= 500:
                return "server_error"
        return cls
    low = message[:300].lower() if isinstance(message, str) else ""
    if "usage limit" in low:
        return "usage_limit"
    if "rate limit" in low or "429" in low:
        return "rate_limit"
    if "context window" in low:
        return "bad_request"
    if "401" in low or "unauthorized" in low:
        return "auth"
    if re.search(r"\b5\d\d\b", low) or "internal server error" in low:
        return "server_error"
    return "api_error"


def exec_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    # Every source names the call it ends: `unified_exec_startup` is the end of the process an
    # `exec_command` call started (written when it exits, often after the call's own output and
    # the `write_stdin` polls that followed), so its exit code is that call's.
    end_event(r, p.get("call_id"), as_int(p.get("exit_code")), duration(p.get("duration")), None)

def patch_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    ok = p.get("success")
    end_event(r, p.get("call_id"), None, None, ok if isinstance(ok, bool) else None)

def mcp_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    call = r.call_of(p)
    if call is None:
        return
    inv = p.get("invocation")
    if isinstance(inv, dict) and isinstance(inv.get("server"), str) and isinstance(inv.get("tool"), str):
        call.kind, call.server, call.tool = "mcp", inv["server"], inv["tool"]
    result = p.get("result")
    ok: bool | None = None
    if isinstance(result, dict):
        if "Err" in result:
            ok = False
        elif isinstance(result.get("Ok"), dict):
            ok = result["Ok"].get("isError") is not True and result["Ok"].get("is_error") is not True
    end_event(r, call.call_id, None, duration(p.get("duration")), ok)

def spawn_end(r: CodexReader, p: dict[str, Any], t: float) -> None:
    call = r.call_of(p)
    if call is None or call.kind != "subagent":
        return
    role = p.get("new_agent_role")
    if isinstance(role, str) and role and len(role) <= 100:
        call.subagent_type = role
    if is_model_name(p.get("model")):
        call.subagent_model = p["model"]
    status = status_tag(p.get("status"))
    end_event(r, call.call_id, None, None, False if status in ("errored", "not_found") else None)

#: A guardian (automatic reviewer) verdict -> (failed, errClass). `in_progress` is not a verdict.
GUARDIAN_VERDICTS: dict[str, tuple[bool, str | None]] = {
    "approved": (False, None), "denied": (True, "blocked"), "timed_out": (True, "timeout"),
    "aborted": (True, "interrupted"),
}
GUARDIAN_TOOL = "guardian_assessment"


def guardian(r: CodexReader, p: dict[str, Any], t: float) -> None:
    """The automatic reviewer's verdict on an action (a command, a patch, a network or MCP call):
    a `tool` event that says it was approved or blocked. Its rationale and the action (the command
    text, paths, hosts) are never read; an assessment still in progress is counted as skipped."""
    status = status_tag(p.get("status"))
    verdict = GUARDIAN_VERDICTS.get(status or "")
    gid = p.get("id")
    if verdict is None or not isinstance(gid, str) or not gid:
        r.skip(label(GUARDIAN_TOOL, status))  # `guardian_assessment:in_progress`, counted by status
        return
    call_id = "guardian:" + gid
    if call_id in r.calls:
        r.skip(label(GUARDIAN_TOOL, "repeated"))
        return
    started, done = as_float(p.get("started_at_ms")), as_float(p.get("completed_at_ms"))
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
    if p.get("reason") in ("interrupted", "replaced", None):
        r.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))
    r.gave_input(t)

def error_event(r: CodexReader, p: dict[str, Any], t: float) -> None:
    r.add(ErrorFact(t, MAIN, "llm", error_class(p.get("codex_error_info"), p.get("message")),
                       retry=False))

def stream_error(r: CodexReader, p: dict[str, Any], t: float) -> None:
    r.add(ErrorFact(t, MAIN, "llm", error_class(p.get("codex_error_info"), p.get("message")),
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


USAGE_FIELDS = ("input_tokens", "cached_input_tokens", "output_tokens", "total_tokens")


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
        secs, nanos = as_float(value.get("secs")), as_float(value.get("nanos"))
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
