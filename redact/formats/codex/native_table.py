"""Codex CLI rollouts under `--to native`: what every field of every record becomes.

The format's one table: the record, response item and event types (and whether the reader maps
each) are read off it, and the reader names every key it reads by its place here (`keys.py`), the
arguments of the tools included. All three layouts are covered: `{"timestamp", "type", "payload"}`
lines; the August-2025 lines (a bare header, bare response items, `{"record_type": "state"}`); the
single-JSON `.json` rollout (`{"session", "items"}`, chat-completions items). The tools, and the
layouts of a function call's arguments and output, are the tool table (`tool_table.py`) it builds on.

JSON held in strings (`arguments`, `output`) is parsed, scrubbed by its own node and written back as
compact JSON text. An output that is plain text keeps only the harness's header lines (`Exit code: N`,
`Wall time: X seconds`, `Process exited with code N`); an apply_patch input keeps only its file
headers, with each path in the path mode. A shell command becomes its verb, as an argv list when the
harness wrote an argv list.
"""
from __future__ import annotations

from redact.formats.codex.tool_table import (
    CALL_ENVELOPE, CUSTOM_TOOL_CALL, OUTPUT_FIELD, PAIRS, PLAN, SHELL_VERB, STATUS, function_call, reads,
)
from redact.tables.spec import (
    BOOL, BRANCH, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, URL_HOST, VERB, VERSION,
    ByType, Many, Obj, Spec, Switch, Table, const, enum, handling, ident, obj, used,
)

FORMAT = "codex"

_EFFORT = enum("minimal", "low", "medium", "high", "xhigh", "none")
ERROR_CLASSES: dict[str, str] = {
    "context_window_exceeded": "bad_request", "usage_limit_exceeded": "usage_limit",
    "internal_server_error": "server_error", "unauthorized": "auth", "bad_request": "bad_request",
    "http_connection_failed": "api_error", "response_stream_connection_failed": "api_error",
    "response_stream_disconnected": "api_error", "response_too_many_failed_attempts": "api_error",
    "sandbox_error": "api_error", "server_overloaded": "overloaded", "other": "api_error",
}
ERROR_INFO = used("errClass", ByType(text=enum(*ERROR_CLASSES),
                                     obj=Obj({k: obj(http_status_code=NUMBER) for k in ERROR_CLASSES})))
#: A guardian (automatic reviewer) verdict -> (failed, errClass). `in_progress` is not a verdict.
GUARDIAN_VERDICTS: dict[str, tuple[bool, str | None]] = {
    "approved": (False, None), "denied": (True, "blocked"), "timed_out": (True, "timeout"),
    "aborted": (True, "interrupted"),
}


# -- response items --------------------------------------------------------------------------------
_TEXT = used("length only (chars, textChars); the August-2025 layout: the <environment_context> cwd is the "
             "root when nothing else names one", SHAPE)
_CONTENT = ByType(text=_TEXT, items=Many(Switch("type", {
    "input_text": obj(type=const("input_text"), text=_TEXT),
    "output_text": obj(type=const("output_text"), text=_TEXT, annotations=DROP, logprobs=DROP),
    "input_image": used("count only (images)", obj(type=const("input_image"), image_url=DROP,
                                                   detail=enum("auto", "low", "high"))),
    "refusal": obj(type=const("refusal"), refusal=SHAPE),
    "text": obj(type=const("text"), text=SHAPE),
})))
RESPONSE_ITEMS: dict[str, Spec] = {
    "message": obj(type=const("message"), id=ID, role=used("user / assistant / developer", enum(
        "user", "assistant", "developer", "system")),
                   content=_CONTENT, phase=enum("commentary", "final_answer"), end_turn=BOOL, status=STATUS),
    "reasoning": used("presence only (thinking)", obj(type=const("reasoning"), id=ID, summary=Many(obj(type=enum("summary_text"), text=SHAPE)),
                     content=ByType(text=SHAPE, items=Many(obj(type=enum("reasoning_text", "text"), text=SHAPE))),
                     encrypted_content=DROP)),
    "function_call": function_call(CALL_ENVELOPE),
    "function_call_output": obj(type=const("function_call_output"), call_id=PAIRS, output=OUTPUT_FIELD),
    "custom_tool_call": CUSTOM_TOOL_CALL,
    "custom_tool_call_output": obj(type=const("custom_tool_call_output"), call_id=PAIRS, output=OUTPUT_FIELD),
    "local_shell_call": obj(type=const("local_shell_call"), id=PAIRS, call_id=PAIRS, status=STATUS, action=obj(
        type=enum("exec"), command=SHELL_VERB, timeout_ms=NUMBER, working_directory=CWD, env=DROP, user=DROP)),
    "web_search_call": obj(type=const("web_search_call"), id=ID, status=used("err when failed", STATUS), action=obj(
        type=enum("search", "open_page", "find_in_page"), query=DROP, queries=DROP, url=used("host only", URL_HOST), pattern=DROP,
        sources=DROP)),
    "compaction": obj(type=const("compaction"), id=ID, encrypted_content=DROP),
    "compaction_summary": obj(type=const("compaction_summary"), id=ID, encrypted_content=DROP, summary=DROP),
    "ghost_snapshot": obj(type=const("ghost_snapshot"), ghost_commit=DROP),
    "tool_search_call": obj(type=const("tool_search_call"), id=ID, call_id=PAIRS, status=STATUS,
                            execution=enum("client", "server"), arguments=DROP),
    "tool_search_output": obj(type=const("tool_search_output"), call_id=PAIRS, status=used("err when failed", STATUS),
                              execution=used("a client-side search is the input of a new request",
                                             enum("client", "server")), tools=DROP),
}

#: What the reader makes of each response item it maps (the others are skipped, counted by name).
RESPONSE_ITEMS = reads(RESPONSE_ITEMS, {
    "message": "user: a prompt when no user_message events exist; assistant: textChars",
    "reasoning": "thinking: true (presence only)",
    "function_call": "a tool call (see the tool table); arguments is JSON inside a string",
    "function_call_output": "its result: exit code, duration, byte count, confirmations",
    "custom_tool_call": "apply_patch (edit targets from the patch's file headers), others",
    "custom_tool_call_output": "its result",
    "local_shell_call": "exec (argv)",
    "web_search_call": "web (host: search, or the page's host)",
    "tool_search_call": "tool (`tool_search`): the model searching loadable tools",
    "tool_search_output": "its result (failed or not), paired by call_id",
    "compaction": "-> compaction",
    "compaction_summary": "-> compaction",
    # ghost_snapshot: the harness's own undo snapshot commit, not the session's work
})
#: Response item types: "mapped" (read for facts) or "skipped".
RESPONSE_ITEM_TYPES: dict[str, str] = handling(Switch("type", RESPONSE_ITEMS))

# -- events ----------------------------------------------------------------------------------------
TOKENS = obj(input_tokens=used("in (input - cached)", NUMBER), cached_input_tokens=used("cr (cached)", NUMBER),
             output_tokens=used("out", NUMBER), reasoning_output_tokens=NUMBER, total_tokens=NUMBER)
_TOTALS = used("repeat detection; usage when last_token_usage is absent", obj(
    input_tokens=NUMBER, cached_input_tokens=NUMBER, output_tokens=NUMBER, reasoning_output_tokens=NUMBER,
    total_tokens=NUMBER))
_WINDOW = obj(used_percent=NUMBER, window_minutes=NUMBER, resets_at=NUMBER, resets_in_seconds=NUMBER)
_INVOCATION = obj(server=used("server", ident("mcp_server")), tool=used("tool", ident("mcp_tool")), arguments=DROP)
_DURATION = ByType(obj=obj(secs=NUMBER, nanos=NUMBER), scalar=NUMBER)
_IMAGES = used("count only (images)", DROP)


def event(event_type: str, **fields: Spec) -> Obj:
    return Obj({"type": const(event_type), **fields})


EVENT_MSGS: dict[str, Spec] = {
    "user_message": event("user_message", message=used("length and URL count (chars, urls)", SHAPE),
                          kind=enum("plain"), images=_IMAGES, local_images=_IMAGES,
                          text_elements=DROP),
    "token_count": event("token_count", info=obj(last_token_usage=TOKENS, total_token_usage=_TOTALS,
                                                 model_context_window=NUMBER),
                         rate_limits=obj(primary=_WINDOW, secondary=_WINDOW, credits=obj(
                             has_credits=BOOL, unlimited=BOOL, balance=DROP),
                             plan_type=enum("free", "plus", "pro", "team", "business", "enterprise", "edu"),
                             limit_id=DROP, limit_name=DROP)),
    "exec_command_end": event("exec_command_end", call_id=PAIRS, turn_id=ID, process_id=ID,
                              exit_code=used("exitCode", NUMBER), duration=used("dur", _DURATION), command=VERB, cwd=CWD, parsed_cmd=DROP, stdout=SHAPE,
                              stderr=SHAPE, aggregated_output=SHAPE, formatted_output=SHAPE,
                              source=enum("agent", "user_shell", "unified_exec_startup", "unified_exec_interaction"),
                              status=enum("completed", "failed", "declined")),
    "patch_apply_end": event("patch_apply_end", call_id=PAIRS, turn_id=ID, success=used("err", BOOL), stdout=SHAPE, stderr=SHAPE,
                             changes=DROP, status=enum("completed", "failed", "declined")),
    "mcp_tool_call_end": event("mcp_tool_call_end", call_id=PAIRS, invocation=_INVOCATION, duration=_DURATION,
                               result=used("error or not only", obj(Ok=obj(isError=BOOL, is_error=used("error or not", DROP), content=DROP,
                                                 structuredContent=DROP), Err=SHAPE))),
    "collab_agent_spawn_end": event("collab_agent_spawn_end", call_id=ID, sender_thread_id=ID, new_thread_id=ID,
                                    new_agent_role=used("subagentType", ident("subagent_type")),
                                    model=used("model", ident("model")),
                                    status=used("subagent_failed when errored", ByType(text=enum("pending_init", "running", "completed", "errored",
                                                            "shutdown", "not_found"))),
                                    prompt=DROP, new_agent_nickname=DROP),
    "guardian_assessment": event("guardian_assessment", id=ID, target_item_id=ID, turn_id=ID,
                                 started_at_ms=used("dur", NUMBER), completed_at_ms=used("dur", NUMBER),
                                 status=used("approved / blocked / timeout / interrupted", enum(
                                     "in_progress", *GUARDIAN_VERDICTS)),
                                 risk_level=enum("low", "medium", "high", "critical"),
                                 user_authorization=DROP, decision_source=DROP, rationale=DROP, action=DROP),
    "request_permissions": event("request_permissions", call_id=ID, turn_id=ID, reason=DROP, permissions=DROP,
                                 suggested_scope=enum("turn", "session")),
    "turn_aborted": event("turn_aborted", reason=used("interrupted", enum("interrupted", "replaced", "review_ended")),
                          turn_id=ID),
    "error": event("error", message=used("errClass only", SHAPE), codex_error_info=ERROR_INFO),
    "stream_error": event("stream_error", message=used("errClass only", SHAPE), codex_error_info=ERROR_INFO,
                          additional_details=DROP),
    "context_compacted": event("context_compacted"),
    "agent_message": event("agent_message", message=SHAPE, phase=enum("commentary", "final_answer"),
                           memory_citation=DROP),
    "agent_reasoning": event("agent_reasoning", text=SHAPE),
    "agent_reasoning_raw_content": event("agent_reasoning_raw_content", text=SHAPE),
    "agent_reasoning_section_break": event("agent_reasoning_section_break", item_id=ID, summary_index=NUMBER),
    "task_started": event("task_started", turn_id=ID, model_context_window=NUMBER,
                          collaboration_mode_kind=enum("default", "plan", "execute", "pair_programming")),
    "task_complete": event("task_complete", turn_id=ID, last_agent_message=SHAPE),
    "exec_command_begin": event("exec_command_begin", call_id=ID, turn_id=ID, process_id=ID, command=VERB,
                                cwd=CWD, parsed_cmd=DROP,
                                source=enum("agent", "user_shell", "unified_exec_startup",
                                            "unified_exec_interaction")),
    "exec_command_output_delta": event("exec_command_output_delta", call_id=ID, stream=enum("stdout", "stderr"),
                                       chunk=DROP),
    "terminal_interaction": event("terminal_interaction", call_id=ID, process_id=ID, stdin=DROP),
    "patch_apply_begin": event("patch_apply_begin", call_id=ID, turn_id=ID, auto_approved=BOOL, changes=DROP),
    "mcp_tool_call_begin": event("mcp_tool_call_begin", call_id=ID, invocation=_INVOCATION),
    "web_search_begin": event("web_search_begin", call_id=ID),
    "web_search_end": event("web_search_end", call_id=ID, query=DROP, action=DROP),
    "view_image_tool_call": event("view_image_tool_call", call_id=ID, path=PATH),
    "plan_update": event("plan_update", plan=PLAN, explanation=DROP),
    "turn_diff": event("turn_diff", unified_diff=DROP),
    "warning": event("warning", message=SHAPE),
    **{kind: event(kind, call_id=ID, sender_thread_id=ID, receiver_thread_id=ID, new_thread_id=ID, prompt=DROP,
                   status=DROP)
       for kind in ("collab_agent_spawn_begin", "collab_agent_interaction_begin", "collab_agent_interaction_end",
                    "collab_waiting_begin", "collab_waiting_end", "collab_close_begin", "collab_close_end")},
    "entered_review_mode": event("entered_review_mode", target=DROP, user_facing_hint=DROP),
    "exited_review_mode": event("exited_review_mode", review_output=DROP),
}

#: What the reader makes of each event it maps. Events that repeat a response item are skipped
#: (agent_message, web_search_end, plan_update, ...), so nothing is counted twice.
EVENT_MSGS = reads(EVENT_MSGS, {
    "user_message": "the prompt (shape only): the source of user turns when present",
    "token_count": "usage of one model request (repeats of the same total are ignored)",
    "exec_command_end": "exit code and duration of a shell call",
    "patch_apply_end": "success of apply_patch",
    "mcp_tool_call_end": "MCP server and tool, success, duration",
    "collab_agent_spawn_end": "the spawned agent's role, model and status",
    "guardian_assessment": "-> tool `guardian_assessment`: approved, or blocked (err)",
    "turn_aborted": "-> error (orchestration, interrupted)",
    "error": "-> error (llm)",
    "stream_error": "-> error (llm), retried",
    "context_compacted": "-> compaction (merged with an adjacent compacted record)",
})
#: Event types: "mapped" (read for facts) or "skipped".
EVENT_MSG_TYPES: dict[str, str] = handling(Switch("type", EVENT_MSGS))

# -- records ---------------------------------------------------------------------------------------
GIT = obj(commit_hash=ID, branch=BRANCH, repository_url=used("repos[].remote", ident("remote")))
_SESSION_ID = used("session.id", ID)
SESSION_META = obj(
    id=_SESSION_ID, timestamp=used("startedAt of an empty session", TIMESTAMP),
    cwd=used("repository root (never written)", CWD), cli_version=VERSION, instructions=DROP, base_instructions=DROP,
    originator=enum("codex_cli_rs", "codex-tui", "codex_vscode", "codex_exec", "codex_sdk_ts", "codex_mcp"),
    model_provider=enum("openai", "azure", "ollama", "lmstudio", "openrouter", "anthropic", "gemini", "mistral"),
    source=used("role: a thread_spawn subagent, or a helper (review, compact)", ByType(
        text=enum("cli", "vscode", "exec", "mcp", "unknown"), obj=obj(
        subagent=ByType(text=enum("review", "compact", "other"), obj=obj(
            thread_spawn=obj(parent_thread_id=used("parentSessionId", ID), depth=NUMBER,
                             agent_role=ident("subagent_type"), agent_nickname=DROP)))))),
    git=GIT, forked_from_id=ID, dynamic_tools=DROP, agent_nickname=DROP, agent_role=ident("subagent_type"),
)
TURN_CONTEXT = obj(
    turn_id=ID, cwd=used("working directory of relative paths; the root when session_meta has none", CWD),
    model=used("the model of later requests", ident("model")), effort=_EFFORT, summary=enum("auto", "concise", "detailed", "none"),
    approval_policy=enum("untrusted", "on-failure", "on-request", "never"),
    sandbox_policy=obj(type=enum("workspace-write", "read-only", "danger-full-access", "external-sandbox"),
                       network_access=BOOL, exclude_tmpdir_env_var=BOOL, exclude_slash_tmp=BOOL,
                       writable_roots=Many(PATH)),
    personality=enum("pragmatic", "friendly", "none"),
    truncation_policy=obj(mode=enum("tokens", "bytes"), limit=NUMBER),
    collaboration_mode=obj(mode=enum("default", "plan", "execute", "pair_programming"), settings=obj(
        model=ident("model"), reasoning_effort=_EFFORT, developer_instructions=DROP)),
    user_instructions=DROP, developer_instructions=DROP, base_instructions=DROP, current_date=DROP, timezone=DROP,
    realtime_active=BOOL, final_output_json_schema=DROP,
)


def _line(kind: str, payload: Spec) -> Obj:
    return Obj({"timestamp": used("event times", TIMESTAMP), "type": const(kind), "payload": payload})


#: The `{"timestamp", "type", "payload"}` lines, and what the reader makes of each.
LINES: dict[str, Spec] = reads({
    "session_meta": _line("session_meta", SESSION_META),
    "turn_context": _line("turn_context", TURN_CONTEXT),
    "response_item": _line("response_item", used("RESPONSE_ITEMS", Switch("type", RESPONSE_ITEMS))),
    "event_msg": _line("event_msg", used("EVENT_MSGS", Switch("type", EVENT_MSGS))),
    "compacted": _line("compacted", obj(message=SHAPE, replacement_history=DROP)),
}, {
    "session_meta": "session id, working directory (root), git remote; role of a subagent",
    "turn_context": "the model and working directory of the turn",
    "response_item": "see the response items",
    "event_msg": "see the events",
    "compacted": "-> compaction (merged with an adjacent context_compacted)",
})
#: Top-level record types (`type` of a rollout line): "mapped" (read for facts) or "skipped".
RECORD_TYPES: dict[str, str] = handling(Switch("type", LINES))

RECORD = used("record dispatch", Switch("type", {
    **LINES,
    # the August-2025 layout: response items written bare, without an envelope or a time
    **RESPONSE_ITEMS,
}, default=Switch("record_type", {"state": obj(record_type=const("state"))},
                  default=obj(id=_SESSION_ID, timestamp=TIMESTAMP, instructions=DROP, git=GIT,  # its header line
                              payload=used("the type of an unknown record's payload, for the report", DROP)))))

# The single-JSON rollout: `session`, then chat-completions items.
_CHAT_CALL = obj(id=ID, index=NUMBER, type=enum("function"),
                 function=function_call({}))
CHAT_ITEM = Switch("role", {
    "user": obj(role=const("user"), content=_CONTENT),
    "assistant": obj(role=const("assistant"), content=_CONTENT, reasoning=SHAPE, tool_calls=Many(_CHAT_CALL)),
    "tool": obj(role=const("tool"), tool_call_id=ID, content=OUTPUT_FIELD),
    "system": obj(role=const("system"), content=_CONTENT),
    "developer": obj(role=const("developer"), content=_CONTENT),
})
DOCUMENT = obj(session=obj(id=_SESSION_ID, timestamp=TIMESTAMP, instructions=DROP, git=GIT), items=Many(CHAT_ITEM))

TABLE = Table(FORMAT, RECORD, {}, document=DOCUMENT, document_key="items")
