"""Codex tool calls in a rollout: the call items, their outputs paired by `call_id`, web searches, and
what an end event says about a result. The tools themselves (which argument is what, how an output
reads) are in `codex_tools.py`.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from redact.build.facts import MAIN, ToolCall, ToolResult
from redact.formats.codex import tools
from redact.formats.codex.keys import (
    ACTION, ACTION_COMMAND, ACTION_WORKDIR, ARGUMENTS, CALL_ID, CALL_NAME, CUSTOM_INPUT, ITEM_ID, ITEM_TYPE,
    NAMESPACE, OUT_AGENT_ID, OUTPUT, OUTPUT_CALL_ID, POLL_SESSION, SEARCH_CALL_ID, SEARCH_EXECUTION,
    SEARCH_OUTPUT_CALL_ID, SEARCH_STATUS,
)
from redact.formats.codex.tool_table import LOCAL_SHELL
from redact.formats.common import parse_json_string
from redact.formats.patches import join

if TYPE_CHECKING:
    from redact.formats.codex.state import CodexReader


def verb_of(command: str | tuple[str, ...]) -> str:
    from redact.verbs import extract, extract_argv

    result = extract_argv(command) if isinstance(command, tuple) else extract(command)
    return result.verb


def call(r: CodexReader, p: dict[str, Any], t: float) -> None:
    call_id = p.get(CALL_ID) or p.get(ITEM_ID)
    if not isinstance(call_id, str) or not call_id or call_id in r.calls:
        r.skip("<call without id>" if not isinstance(call_id, str) or not call_id else "<duplicate>")
        return
    kind = p.get(ITEM_TYPE)
    base = r.cwd or r.s.cwd
    if kind == "local_shell_call":
        action = p.get(ACTION)
        action = action if isinstance(action, dict) else {}
        workdir = action.get(ACTION_WORKDIR)
        here = join(base, workdir) if isinstance(workdir, str) and workdir else base
        call = tools.exec_call(LOCAL_SHELL, action.get(ACTION_COMMAND), call_id, t, MAIN, here, verb_of)
    else:
        name = p.get(CALL_NAME)
        name = name if isinstance(name, str) and name else "unknown"
        raw = p.get(ARGUMENTS) if kind == "function_call" else p.get(CUSTOM_INPUT)
        args = parse_json_string(raw) if kind == "function_call" else raw
        call = tools.make_call(name, args, call_id, t, MAIN, base, namespace=p.get(NAMESPACE),
                               verb_of=verb_of)
    if call.name in POLL_SESSION and kind == "function_call" and isinstance(args, dict):
        session = args.get(POLL_SESSION[call.name])
        if type(session) is int or (isinstance(session, str) and session.isdigit()):
            r.polls[call_id] = str(session)
    r.open_response(t).tool_calls += 1
    r.calls[call_id] = call
    r.add(call)

def output(r: CodexReader, p: dict[str, Any], t: float) -> None:
    call_id = p.get(OUTPUT_CALL_ID)
    r.gave_input(t)
    call = r.calls.get(call_id) if isinstance(call_id, str) else None
    if call is None:
        r.skip("<output without call>")
        return
    if call_id in r.results:
        return
    res = tools.make_result(p.get(OUTPUT), call, t)
    r.results[call.call_id] = res
    if call.kind == "exec" or call.name in tools.POLL_TOOLS:
        _unified(r, call, p.get(OUTPUT))
    late = r.late.pop(call.call_id, None)
    if late is not None:
        settle(res, call, *late)
    if call.kind == "subagent" and not res.is_error:
        doc = parse_json_string(p.get(OUTPUT))
        agent = doc.get(OUT_AGENT_ID) if isinstance(doc, dict) else None
        if isinstance(agent, str) and re.fullmatch(r"[0-9a-f-]{8,64}", agent):
            res.child = "sa-" + agent.replace("-", "")[:32]
    r.add(res)

def _unified(r: CodexReader, call: ToolCall, raw: object) -> None:
    """A process an exec_command call left running: remember its session id; when a later poll
    (write_stdin) reports that it exited, the exit code is the exec_command call's."""
    running, exit_code = tools.unified_state(raw)
    if call.kind == "exec":
        if running is not None:
            r.sessions[running] = call.call_id
        return
    session = r.polls.get(call.call_id)
    owner = r.sessions.get(session) if session is not None else None
    if owner is not None and exit_code is not None:
        end_event(r, owner, exit_code, None, None)

def settle(res: ToolResult, call: ToolCall, exit_code: int | None, dur: float | None,
           ok: bool | None) -> None:
    """What an end event says about a result: its exit code, its duration, whether it failed."""
    if exit_code is not None and res.exit_code is None and call.kind == "exec":
        res.exit_code = exit_code
        if exit_code != 0 and not res.is_error:
            res.is_error, res.err_class = True, "exit_code"
    if dur is not None and res.dur is None:
        res.dur = dur
    if ok is False and not res.is_error:
        res.is_error = True
        res.err_class = "patch_failed" if call.kind == "edit" else \
            "subagent_failed" if call.kind == "subagent" else "other"

def end_event(r: CodexReader, call_id: object, exit_code: int | None, dur: float | None,
              ok: bool | None) -> None:
    if not isinstance(call_id, str) or call_id not in r.calls:
        return
    res = r.results.get(call_id)
    if res is None:
        r.late[call_id] = (exit_code, dur, ok)
    else:
        settle(res, r.calls[call_id], exit_code, dur, ok)

def web(r: CodexReader, p: dict[str, Any], t: float) -> None:
    wid = p.get(ITEM_ID)
    if not isinstance(wid, str) or not wid:
        r.web_ids += 1
        wid = f"web-{r.web_ids}"
    if wid in r.calls:
        return
    call, res = tools.web_call(p, wid, t, MAIN)
    r.open_response(t).tool_calls += 1
    r.calls[wid] = call
    r.results[wid] = res
    r.add(call)
    r.add(res)


TOOL_SEARCH = "tool_search"


def tool_search(r: CodexReader, p: dict[str, Any], t: float) -> None:
    """A `tool_search_call` item: the model searching the tools it may load (a `tool` event named
    `tool_search`; the query is never read). A server-side search may have no call id: its output
    then pairs with the latest search still open."""
    call_id = p.get(SEARCH_CALL_ID)
    if not isinstance(call_id, str) or not call_id:
        r.search_ids += 1
        call_id = f"tool-search-{r.search_ids}"
    if call_id in r.calls:
        r.skip("<duplicate>")
        return
    call = ToolCall(t, MAIN, call_id, TOOL_SEARCH, "tool")
    r.open_response(t).tool_calls += 1
    r.calls[call_id] = call
    r.open_searches.append(call_id)
    r.add(call)

def tool_search_output(r: CodexReader, p: dict[str, Any], t: float) -> None:
    """Its `tool_search_output`: failed or not, and how many tool definitions came back (a count;
    their names and descriptions are never read)."""
    call_id = p.get(SEARCH_OUTPUT_CALL_ID)
    if not isinstance(call_id, str) or call_id not in r.calls:
        call_id = r.open_searches[-1] if r.open_searches else None
    if call_id is None or call_id in r.results or r.calls[call_id].name != TOOL_SEARCH:
        r.skip("<output without call>")
        return
    if call_id in r.open_searches:
        r.open_searches.remove(call_id)
    if p.get(SEARCH_EXECUTION) != "server":
        r.gave_input(t)  # a client-side search answers the model in a new request
    status = p.get(SEARCH_STATUS)
    failed = status in ("failed", "incomplete", "cancelled")
    res = ToolResult(t, call_id, failed, err_class="other" if failed else None)
    r.results[call_id] = res
    r.add(res)
