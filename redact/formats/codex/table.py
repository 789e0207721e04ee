"""The Codex CLI rollout format, declared: record types, tools, and the class of every field.

A rollout is `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`: one `{"timestamp", "type",
"payload"}` record per line (clients 0.3x and later). Two older layouts are read too:

- the August-2025 JSONL layout: a bare header line (`id`, `timestamp`, `instructions`, `git`), then
  response items written as they are (`{"type": "message", ...}`) between `{"record_type": "state"}`
  lines, with no time of their own;
- the single-JSON `.json` rollout: `{"session": {...}, "items": [...]}`, its items in the chat
  completions shape (`role` user / assistant / tool, `tool_calls`, `tool_call_id`).

The class of every field, and what the reader keeps of it, is the native table (`native_table.py`);
the reader (`reader.py`) reads only fields it classifies. docs/formats.md renders both
(scripts/gen_format_docs.py).
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
    return "\n".join(lines) + "\n"
