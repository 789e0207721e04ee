"""The Codex CLI rollout format, declared: record types, tools, and the class of every field.

A rollout is `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`: one `{"timestamp", "type",
"payload"}` record per line (clients 0.3x and later). Two older layouts are read too:

- the August-2025 JSONL layout: a bare header line (`id`, `timestamp`, `instructions`, `git`), then
  response items written as they are (`{"type": "message", ...}`) between `{"record_type": "state"}`
  lines, with no time of their own;
- the single-JSON `.json` rollout: `{"session": {...}, "items": [...]}`, its items in the chat
  completions shape (`role` user / assistant / tool, `tool_calls`, `tool_call_id`).

`codex.py` (the reader) reads only what these tables mark as used; docs/formats.md renders them.
"""
from __future__ import annotations

from typing import Any

#: Top-level record types (`type` of a rollout line). "mapped": read for facts; "skipped": counted
#: by name in the report, never read.
RECORD_TYPES: dict[str, str] = {
    "session_meta": "mapped",  # session id, working directory (root), git remote; role of a subagent
    "turn_context": "mapped",  # the model and working directory of the turn
    "response_item": "mapped",  # see RESPONSE_ITEMS
    "event_msg": "mapped",  # see EVENT_MSGS
    "compacted": "mapped",  # -> compaction (merged with an adjacent context_compacted)
}
#: `response_item` payload types (also the bare items of the August-2025 layout).
RESPONSE_ITEMS: dict[str, str] = {
    "message": "mapped",  # user: a prompt when no user_message events exist; assistant: textChars
    "reasoning": "mapped",  # thinking: true (presence only)
    "function_call": "mapped",  # a tool call (see TOOLS); arguments is JSON inside a string
    "function_call_output": "mapped",  # its result: exit code, duration, byte count, confirmations
    "custom_tool_call": "mapped",  # apply_patch (edit targets from the patch's file headers), others
    "custom_tool_call_output": "mapped",
    "local_shell_call": "mapped",  # exec (argv)
    "web_search_call": "mapped",  # web (host: search, or the page's host)
    "tool_search_call": "mapped",  # tool (`tool_search`): the model searching loadable tools
    "tool_search_output": "mapped",  # its result (failed or not), paired by call_id
    "compaction": "mapped",  # -> compaction
    "compaction_summary": "mapped",  # -> compaction
    "ghost_snapshot": "skipped",  # the harness's own undo snapshot commit, not the session's work
}
#: `event_msg` payload types. Events that repeat a response item are skipped, so nothing is
#: counted twice.
EVENT_MSGS: dict[str, str] = {
    "user_message": "mapped",  # the prompt (shape only): the source of user turns when present
    "token_count": "mapped",  # usage of one model request (repeats of the same total are ignored)
    "exec_command_end": "mapped",  # exit code and duration of a shell call
    "patch_apply_end": "mapped",  # success of apply_patch
    "mcp_tool_call_end": "mapped",  # MCP server and tool, success, duration
    "collab_agent_spawn_end": "mapped",  # the spawned agent's role, model and status
    "guardian_assessment": "mapped",  # -> tool `guardian_assessment`: approved, or blocked (err)
    "turn_aborted": "mapped",  # -> error (orchestration, interrupted)
    "error": "mapped",  # -> error (llm)
    "stream_error": "mapped",  # -> error (llm), retried
    "context_compacted": "mapped",  # -> compaction (merged with an adjacent compacted record)
    "agent_message": "skipped",  # repeats a response_item message
    "agent_reasoning": "skipped",  # repeats a response_item reasoning
    "agent_reasoning_raw_content": "skipped",
    "agent_reasoning_section_break": "skipped",
    "task_started": "skipped",
    "task_complete": "skipped",
    "exec_command_begin": "skipped",
    "exec_command_output_delta": "skipped",
    "terminal_interaction": "skipped",
    "patch_apply_begin": "skipped",
    "mcp_tool_call_begin": "skipped",
    "web_search_begin": "skipped",
    "web_search_end": "skipped",  # repeats a web_search_call item (same id)
    "view_image_tool_call": "skipped",  # repeats the view_image call
    "plan_update": "skipped",  # repeats the update_plan call
    "turn_diff": "skipped",  # a diff (content)
    "warning": "skipped",
    "collab_agent_spawn_begin": "skipped",
    "collab_agent_interaction_begin": "skipped",
    "collab_agent_interaction_end": "skipped",
    "collab_waiting_begin": "skipped",
    "collab_waiting_end": "skipped",
    "collab_close_begin": "skipped",
    "collab_close_end": "skipped",
    "request_permissions": "skipped",  # repeats the request_permissions call
    "entered_review_mode": "skipped",
    "exited_review_mode": "skipped",
}

#: Built-in tools: name -> (event kind, the argument fields read and what they are).
TOOLS: dict[str, tuple[str, str]] = {
    "shell": ("exec", "`command` (argv array) -> verb"),
    "container.exec": ("exec", "`cmd` (argv array) -> verb"),
    "shell_command": ("exec", "`command` (string) -> verb"),
    "exec_command": ("exec", "`cmd` (string) -> verb"),
    "local_shell_call (item)": ("exec", "`action.command` (argv array) -> verb"),
    "apply_patch": ("edit", "the patch: `*** Add/Update/Delete File:` (and `*** Move to:`) paths only"),
    "view_image": ("read", "`path`"),
    "read_file": ("read", "`file_path` / `path`"),
    "list_dir": ("search", "-"),
    "grep_files": ("search", "-"),
    "web_search_call (item)": ("web", "`action.url` -> host; a search -> `search`"),
    "spawn_agent": ("subagent", "`agent_type` (ident:subagent_type), `model` (ident:model)"),
    "send_input / wait / wait_agent / close_agent / resume_agent": ("tool", "-"),
    "request_permissions": ("tool", "- (waits on the user; reason and permission profile never read)"),
    "tool_search_call (item)": ("tool", "- (`tool_search`; the query is never read)"),
    "guardian_assessment (event)": ("tool", "`status` -> err/errClass (denied: blocked, timed_out: "
                                    "timeout, aborted: interrupted); `started_at_ms`/`completed_at_ms` "
                                    "-> dur"),
    "update_plan / write_stdin / request_user_input / anything else": ("tool", "-"),
    "mcp__<server>__<tool>, <server>__<tool>, or `namespace` mcp__<server>": ("mcp", "-"),
}
#: A shell call whose verb is `apply_patch` (`apply_patch <<'EOF'`, `["apply_patch", PATCH]`) is an
#: edit, read like the apply_patch tool.

#: The field table: location -> class -> what the reader keeps ("-" = never read).
FIELDS: tuple[tuple[str, str, str], ...] = (
    ("*.timestamp", "timestamp", "event times"),
    ("*.type / payload.type / record_type", "enum", "record dispatch"),
    ("session_meta.payload.id (legacy header: id; .json: session.id)", "id", "session.id"),
    ("session_meta.payload.timestamp", "timestamp", "startedAt of an empty session"),
    ("session_meta.payload.cwd", "path", "repository root (never written)"),
    ("session_meta.payload.git.repository_url", "ident:remote", "repos[].remote"),
    ("session_meta.payload.git.branch", "ident:branch", "- (the map has no branch field)"),
    ("session_meta.payload.git.commit_hash", "id", "-"),
    ("session_meta.payload.instructions / base_instructions", "text", "-"),
    ("session_meta.payload.source", "enum", "role: a thread_spawn subagent, or a helper (review, "
     "compact)"),
    ("session_meta.payload.source.subagent.thread_spawn.parent_thread_id", "id", "parentSessionId"),
    ("session_meta.payload.originator / cli_version / model_provider", "enum/version", "-"),
    ("turn_context.payload.model", "ident:model", "the model of later requests"),
    ("turn_context.payload.cwd", "path", "working directory of relative paths; the root when "
     "session_meta has none"),
    ("turn_context.payload.user_instructions / developer_instructions / base_instructions / "
     "collaboration_mode", "text", "-"),
    ("turn_context.payload.approval_policy / sandbox_policy / effort / summary / personality / "
     "truncation_policy", "enum/blob", "-"),
    ("response_item message.role", "enum", "user / assistant / developer"),
    ("response_item message.content[].text", "text", "length only (chars, textChars)"),
    ("response_item message.content[] (input_image)", "blob", "count only (images)"),
    ("response_item message <environment_context> cwd", "path", "the root, when nothing else names "
     "one (the August-2025 layout)"),
    ("response_item reasoning.summary / content / encrypted_content", "text", "presence only (thinking)"),
    ("response_item function_call.name / custom_tool_call.name", "ident:tool", "event kind (TOOLS); "
     "tool, mcp server/tool"),
    ("response_item function_call.namespace", "ident:mcp_server", "the MCP server"),
    ("response_item function_call.call_id / id", "id", "pairs call and result"),
    ("response_item function_call.arguments", "blob (JSON in a string)", "see TOOLS; every other "
     "argument (justification, workdir, timeouts, chars, plan, message...) is never read"),
    ("response_item function_call.arguments.command / cmd", "command", "verb (verb engine)"),
    ("response_item custom_tool_call.input (apply_patch)", "blob", "file header paths and ops only"),
    ("response_item function_call_output.output", "text (JSON in a string)", "byte count; "
     "metadata.exit_code, metadata.duration_seconds; the header lines `Exit code: N`, `Process "
     "exited with code N`, `Wall time: X seconds`; errClass from the harness's wording; "
     "confirmations (outputs.py)"),
    ("response_item local_shell_call.action.command", "command", "verb"),
    ("response_item local_shell_call.action.working_directory / env / user", "path/blob", "-"),
    ("response_item web_search_call.action.query", "text", "-"),
    ("response_item web_search_call.action.url", "blob", "host only"),
    ("response_item web_search_call.status", "enum", "err when failed"),
    ("response_item ghost_snapshot.ghost_commit", "blob", "-"),
    ("response_item tool_search_call.call_id / tool_search_output.call_id", "id", "pairs call and result"),
    ("response_item tool_search_call.arguments / tool_search_output.tools", "blob", "-"),
    ("response_item tool_search_output.status / execution", "enum", "err when failed; a client-side "
     "search is the input of a new request"),
    ("event_msg guardian_assessment.status", "enum", "approved / blocked / timeout / interrupted"),
    ("event_msg guardian_assessment.started_at_ms / completed_at_ms", "number", "dur"),
    ("event_msg guardian_assessment.rationale / action / risk_level / user_authorization", "text/blob",
     "-"),
    ("event_msg user_message.message", "text", "length and URL count (chars, urls)"),
    ("event_msg user_message.images / local_images", "blob", "count only (images)"),
    ("event_msg token_count.info.last_token_usage.*", "number", "in (input - cached), cr (cached), "
     "out"),
    ("event_msg token_count.info.total_token_usage.*", "number", "repeat detection; usage when "
     "last_token_usage is absent"),
    ("event_msg token_count.rate_limits", "blob", "-"),
    ("event_msg exec_command_end.exit_code / duration", "number", "exitCode, dur"),
    ("event_msg exec_command_end.command / cwd / parsed_cmd / stdout / stderr / aggregated_output / "
     "formatted_output", "command/path/text", "-"),
    ("event_msg patch_apply_end.success", "bool", "err"),
    ("event_msg mcp_tool_call_end.invocation.server / tool", "ident:mcp_server / ident:mcp_tool",
     "server, tool"),
    ("event_msg mcp_tool_call_end.invocation.arguments / result", "blob", "error or not only"),
    ("event_msg collab_agent_spawn_end.new_agent_role / model", "ident:subagent_type / ident:model",
     "subagentType, model"),
    ("event_msg collab_agent_spawn_end.status", "enum", "subagent_failed when errored"),
    ("event_msg collab_agent_spawn_end.prompt / new_agent_nickname", "text", "-"),
    ("event_msg turn_aborted.reason", "enum", "interrupted"),
    ("event_msg error.message / stream_error.message", "text", "errClass only"),
    ("event_msg error.codex_error_info", "enum", "errClass"),
    ("event_msg agent_message.message / agent_reasoning.text / task_complete.last_agent_message",
     "text", "-"),
    ("compacted.message / replacement_history", "text", "-"),
)


def sniff(records: list[dict[str, Any]]) -> bool:
    """Whether the first records of a JSONL input look like a Codex rollout (any layout)."""
    for record in records:
        kind = record.get("type")
        if isinstance(kind, str) and kind in RECORD_TYPES and \
                isinstance(record.get("payload"), (dict, list, str)) and "timestamp" in record:
            return True
        if record.get("record_type") == "state":
            return True
    if records and _legacy_header(records[0]):
        return any(isinstance(r.get("type"), str) and r["type"] in RESPONSE_ITEMS for r in records[1:])
    return False


def _legacy_header(record: dict[str, Any]) -> bool:
    return isinstance(record.get("id"), str) and isinstance(record.get("timestamp"), str) and \
        "type" not in record and set(record) <= {"id", "timestamp", "instructions", "git"}


def sniff_doc(doc: object) -> bool:
    """Whether one JSON document is a single-JSON rollout (`{"session": {...}, "items": [...]}`)."""
    return isinstance(doc, dict) and isinstance(doc.get("session"), dict) and \
        isinstance(doc.get("items"), list) and "schema" not in doc


def markdown() -> str:
    """The tables as Markdown, for docs/formats.md (a test keeps the doc in step)."""
    lines = ["| record | handling |", "|---|---|"]
    for kind, how in RECORD_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    for kind, how in RESPONSE_ITEMS.items():
        lines.append(f"| `response_item` / `{kind}` | {how} |")
    for kind, how in EVENT_MSGS.items():
        lines.append(f"| `event_msg` / `{kind}` | {how} |")
    lines.append("| `record_type: state` (August 2025) | skipped |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    lines += ["", "| tool | event kind | arguments read |", "|---|---|---|"]
    for name, (kind, fields) in TOOLS.items():
        lines.append(f"| `{name}` | {kind} | {fields} |")
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
