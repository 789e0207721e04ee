"""Claude Code tools: the tool table, tool_use blocks -> ToolCall, tool_result blocks -> ToolResult.

The tool table says which event kind each built-in tool becomes and which input fields hold paths.
Every other input field is content (old/new strings, file contents, prompts, patterns, queries,
URL paths) and is never read, except three that are reduced here on the spot: Bash `command`
(handed to the verb engine by the builder), WebFetch `url` (reduced to its host) and Task/Agent
`subagent_type` (an identifier). Results are read for their shape only: error flag, error class,
exit code, byte count, matched file names, and the confirmations `redact.build.outputs` recognises.
"""
from __future__ import annotations

import re
from typing import Any

from redact.build import outputs
from redact.build.facts import ToolCall, ToolResult
from redact.formats.claude_code.keys import (
    API_ERROR_BODY, API_ERROR_TYPE, API_STATUS, BACKGROUND_TASK, BLOCK_TYPE, CALL_ID, CALL_INPUT, CALL_NAME,
    CHILD_AGENT, CHILD_STATUS, COMMAND, CONTENT, FILENAMES, IMAGE_DATA, IMAGE_SOURCE, INTERRUPTED, INVOCATION_INPUT,
    INVOCATION_TOOL, INVOCATIONS, MCP_ID, MESSAGE, MODE, ORDERED_RECORD, ORDERED_RESULTS, OUTPUT_CONTENT,
    OUTPUT_TYPE, RESPONSE_ERROR, RESULT_CALL, RESULT_CONTENT, RESULT_ERROR, SKILL, STDOUT, SUBAGENT_MODEL,
    SUBAGENT_TYPE, TEXT, TIMESTAMP, TOOL_USE_RESULT, URL,
)
from redact.formats.claude_code.native_table import API_ERRORS, PATH_INPUTS, TOOL_KINDS, WAITS_ON_USER
from redact.formats.claude_code.table import HELPER_AGENTS, HELPER_OTHER
from redact.formats.common import byte_len, host_of
from redact.formats.ids import lane_id
from redact.formats.toolnames import split_mcp
from redact.formats.wording import EXIT_CODE, error_class

DEFAULT_SUBAGENT = "general-purpose"

_EXIT = re.compile(EXIT_CODE)
_HEX_AGENT = re.compile(r"[0-9a-f]{6,32}")
_UUID_AGENT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_HELPER_AGENT = re.compile(r"([a-z_]{1,40})-[0-9a-f]{4,32}")
_MODEL = re.compile(r"claude-[a-z0-9.-]{1,60}")
_GREP_LINE = re.compile(r":\d+[:-]")
_ABS = re.compile(r"^(?:/|[A-Za-z]:[\\/]|~/)")


def helper_type(agent_id: str) -> str | None:
    """None for a subagent the model launched (a hex or UUID agent id); for a helper transcript
    (`aside_question-<hex>`, `acompact-<hex>`, ...) the subagentType of its lane, from a closed list."""
    if _HEX_AGENT.fullmatch(agent_id) or _UUID_AGENT.fullmatch(agent_id):
        return None
    m = _HELPER_AGENT.fullmatch(agent_id)
    return HELPER_AGENTS.get(m.group(1), HELPER_OTHER) if m else HELPER_OTHER


def make_call(block: dict[str, Any], t: float, agent: str) -> ToolCall | None:
    call_id, name = block.get(CALL_ID), block.get(CALL_NAME)
    if not isinstance(call_id, str) or not isinstance(name, str) or not call_id:
        return None
    raw_input = block.get(CALL_INPUT)
    inp: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
    if name.startswith("mcp__"):
        server, tool = split_mcp(name)
        call = ToolCall(t, agent, call_id, name, "mcp", server=server, tool=tool)
        if MCP_ID in inp and re.sub(r"[^a-z]", "", tool.lower()).endswith("saveissue"):
            call.op = "update"  # Linear's save_issue given an existing issue's id (its presence only)
        return call
    kind = TOOL_KINDS.get(name, "tool")
    call = ToolCall(t, agent, call_id, name, kind,  # type: ignore[arg-type]
                    waits_on_user=name in WAITS_ON_USER)
    fields = PATH_INPUTS.get(name)
    if fields:
        call.paths = tuple(v for v in (inp.get(f) for f in fields) if isinstance(v, str) and v)
    if kind == "edit":
        call.op = None if name == "Write" else "modify"
    elif kind == "exec":
        cmd = inp.get(COMMAND)
        call.command = cmd if isinstance(cmd, str) else ""
    elif kind == "skill":
        skill = inp.get(SKILL)
        call.skill = skill if isinstance(skill, str) and skill else None
    elif kind == "subagent":
        st = inp.get(SUBAGENT_TYPE)
        call.subagent_type = st if isinstance(st, str) and st else DEFAULT_SUBAGENT
        model = inp.get(SUBAGENT_MODEL)
        if isinstance(model, str) and _MODEL.fullmatch(model):
            call.subagent_model = model
    elif kind == "web":
        call.host = "search" if name == "WebSearch" else host_of(inp.get(URL))
    return call


def result_text(content: object) -> tuple[str, int]:
    """(text, bytes of any images) of a tool_result's content: a string, or a list of blocks."""
    if isinstance(content, str):
        return content, 0
    if not isinstance(content, list):
        return "", 0
    parts: list[str] = []
    image_bytes = 0
    for item in content:
        if isinstance(item, dict):
            kind = item.get(BLOCK_TYPE)
            if kind == "text" and isinstance(item.get(TEXT), str):
                parts.append(item[TEXT])
            elif kind == "image":
                source = item.get(IMAGE_SOURCE)
                data = source.get(IMAGE_DATA) if isinstance(source, dict) else None
                image_bytes += len(data) if isinstance(data, str) else 0
    return "\n".join(parts), image_bytes


def _hits(name: str, call_input_mode: str | None, tur: object, text: str) -> tuple[str, ...]:
    if isinstance(tur, dict):
        names = tur.get(FILENAMES)
        if isinstance(names, list):
            return tuple(n for n in names if isinstance(n, str) and n)
        if tur.get(MODE) == "content" or OUTPUT_CONTENT in tur:
            return ()
    if name == "Grep" and call_input_mode not in (None, "files_with_matches"):
        return ()
    if name not in ("Glob", "Grep"):
        return ()
    found: list[str] = []
    for line in text.splitlines():  # only a listing of absolute paths, nothing else
        line = line.strip()
        if not line or line.startswith("Found ") or line.startswith("(Results are truncated"):
            continue
        if not _ABS.match(line) or _GREP_LINE.search(line):
            return ()
        found.append(line)
    return tuple(found)


def make_result(block: dict[str, Any], tur: object, call: ToolCall, t: float,
                call_input_mode: str | None = None) -> ToolResult:
    """`tur` is the record's `toolUseResult` when the record holds this one result only."""
    text, image_bytes = result_text(block.get(RESULT_CONTENT))
    is_error = block.get(RESULT_ERROR) is True
    res = ToolResult(t, call.call_id, is_error, out_bytes=byte_len(text) + image_bytes)
    name = call.name
    if isinstance(tur, dict) and tur.get(INTERRUPTED) is True:
        res.is_error, res.err_class = True, "interrupted"
    elif is_error:
        res.err_class = error_class(text, name)
        m = _EXIT.match(text)
        if m:
            res.exit_code = int(m.group(1))
    if call.kind == "exec":
        if not res.is_error and isinstance(tur, dict) and STDOUT in tur and not tur.get(BACKGROUND_TASK):
            res.exit_code = 0
        res.outputs = outputs.shell_outputs(call.command or "", text, res.is_error)
    elif call.kind == "mcp":
        res.outputs = outputs.mcp_outputs(call.tool or "", text, res.is_error, server=call.server,
                                          update=call.op == "update")
    elif call.kind == "search":
        res.hits = _hits(name, call_input_mode, tur, text) if not res.is_error else ()
    elif call.kind == "edit" and name == "Write" and isinstance(tur, dict):
        res.op = "create" if tur.get(OUTPUT_TYPE) == "create" else "modify"
    elif call.kind == "subagent" and isinstance(tur, dict):
        agent = tur.get(CHILD_AGENT)
        if isinstance(agent, str) and agent:
            res.child = lane_id(agent)
        status = tur.get(CHILD_STATUS)
        if status in ("killed", "cancelled", "canceled"):
            res.is_error, res.err_class = True, "subagent_killed"
        elif status in ("failed", "error"):
            res.is_error, res.err_class = True, "subagent_failed"
    if res.is_error and call.kind == "subagent" and res.err_class not in ("interrupted", "subagent_killed"):
        res.err_class = "subagent_failed" if res.err_class in (None, "other") else res.err_class
    return res


def api_status_class(error: object) -> str:
    status = None
    if isinstance(error, dict):
        status = error.get(API_STATUS)
        inner = error.get(API_ERROR_BODY)
        kind = inner.get(API_ERROR_TYPE) if isinstance(inner, dict) else None
        if kind == "overloaded_error":
            return "overloaded"
        if kind == "rate_limit_error":
            return "rate_limit"
    if not isinstance(status, int):
        return "api_error"
    if status == 429:
        return "rate_limit"
    if status == 529:
        return "overloaded"
    if status >= 500:
        return "server_error"
    if status in (401, 403):
        return "auth"
    if status in (400, 413):
        return "bad_request"
    return "api_error"


def api_message_class(record: dict[str, Any], msg: dict[str, Any]) -> str:
    """errClass of a synthetic "API Error" assistant message, from its closed `error` field or its
    fixed wording (only the class leaves this function)."""
    text, _ = result_text(msg.get(CONTENT))
    low = text[:300].lower()
    if "hit your limit" in low or "usage limit" in low or "limit reached" in low:
        return "usage_limit"
    if "credit balance" in low or "spend limit" in low:
        return "spend_limit"
    field = record.get(RESPONSE_ERROR)
    if isinstance(field, str) and field in API_ERRORS:
        return API_ERRORS[field]
    if "api error: 529" in low or "overloaded" in low:
        return "overloaded"
    if "api error: 429" in low or "rate limit" in low:
        return "rate_limit"
    if re.search(r"api error: 5\d\d", low):
        return "server_error"
    if "api error: 401" in low or "api error: 403" in low or "/login" in low or "api key" in low:
        return "auth"
    if "api error: 400" in low or "prompt is too long" in low:
        return "bad_request"
    return "api_error"


# -- Batch (clients 0.2.x): one tool_use that runs several tools ------------------------------------------

BATCH = "Batch"
MAX_BATCH = 64  # invocations read from one Batch call (the rest are counted, not mapped)


def batch_calls(block: dict[str, Any], t: float, agent: str) -> list[ToolCall] | None:
    """The calls a `Batch` tool_use runs, one per invocation (`{tool_name, input}`), each made as
    if the model had called that tool itself; None when the block is not a Batch of that shape."""
    call_id, inp = block.get(CALL_ID), block.get(CALL_INPUT)
    invocations = inp.get(INVOCATIONS) if isinstance(inp, dict) else None
    if block.get(CALL_NAME) != BATCH or not isinstance(call_id, str) or not call_id or \
            not isinstance(invocations, list):
        return None
    calls: list[ToolCall] = []
    for n, inv in enumerate(invocations[:MAX_BATCH]):
        if not isinstance(inv, dict) or not isinstance(inv.get(INVOCATION_TOOL), str):
            continue
        inner = {CALL_ID: f"{call_id}#{n}", CALL_NAME: inv[INVOCATION_TOOL], CALL_INPUT: inv.get(INVOCATION_INPUT)}
        call = make_call(inner, t, agent)
        if call is not None:
            calls.append(call)
    return calls


def _inner_results(tur: object) -> dict[int, tuple[dict[str, Any], object, object]]:
    """Invocation index -> (its tool_result block, its toolUseResult, its timestamp), from a Batch
    result's `orderedToolResults` (whose inner tool_use_id ends in `_<index>`). Only these shapes
    are read: the entries' `key` is the invocation written out as text and is never looked at."""
    found: dict[int, tuple[dict[str, Any], object, object]] = {}
    ordered = tur.get(ORDERED_RESULTS) if isinstance(tur, dict) else None
    for entry in ordered if isinstance(ordered, list) else ():
        rec = entry.get(ORDERED_RECORD) if isinstance(entry, dict) else None
        if not isinstance(rec, dict):
            continue
        msg = rec.get(MESSAGE)
        content = msg.get(CONTENT) if isinstance(msg, dict) else None
        for inner in content if isinstance(content, list) else ():
            tid = inner.get(RESULT_CALL) if isinstance(inner, dict) else None
            if not isinstance(tid, str) or inner.get(BLOCK_TYPE) != "tool_result":
                continue
            head, _, index = tid.rpartition("_")
            if head and index.isdigit() and len(index) < 4:
                found.setdefault(int(index), (inner, rec.get(TOOL_USE_RESULT), rec.get(TIMESTAMP)))
    return found


def batch_results(block: dict[str, Any], tur: object, calls: list[ToolCall], t: float,
                  when: Any) -> list[ToolResult]:
    """One result per call of a Batch: the invocation's own result when the record lists it (its
    error flag, size, exit code, hits), else the Batch's result as a whole. `when` turns a
    timestamp into epoch ms (or None); an invocation ends between its call and the Batch's result."""
    inner = _inner_results(tur)
    results: list[ToolResult] = []
    for call in calls:
        index = int(call.call_id.rpartition("#")[2])
        own = inner.get(index)
        if own is None:
            res = make_result(block, None, call, t)
        else:
            ended = when(own[2])
            at = t if ended is None else min(max(ended, call.t), t)
            res = make_result(own[0], own[1], call, at)
        res.call_id = call.call_id
        results.append(res)
    return results
