"""The Claude Code transcript format, declared: record types, the tool table, the sniffer.

The class of every field, and what the reader keeps of it, is the native table (`native_table.py`,
built on the tool table here); the reader (`reader.py`) reads only fields it classifies (a test
proves it over the fixtures), and `source_strings` walks a record the other way round, yielding
every string that may carry content (for the scanner's taint layer and for the canary tests).
docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from redact.names import shown

#: Record types. "mapped": read for facts; "skipped": counted by type in the report, never read.
RECORD_TYPES: dict[str, str] = {
    "user": "mapped",  # prompts (shape only), tool results (shape only), interruptions
    "assistant": "mapped",  # model responses (usage, stop reason, block kinds), tool calls
    "system": "mapped",  # see SYSTEM_SUBTYPES
    "progress": "mapped",  # agent_progress only (a subagent without its own transcript)
    "attachment": "mapped",  # hook errors only
    "summary": "skipped",  # a session title (text)
    "file-history-snapshot": "skipped",  # backups of edited files (paths and contents)
    "queue-operation": "skipped",  # prompts queued while the agent works (text)
    "last-prompt": "skipped",  # text
    "permission-mode": "skipped",
    "custom-title": "skipped",  # text
    "ai-title": "skipped",  # text
    "agent-name": "skipped",  # text
    "pr-link": "skipped",  # a PR the client linked; PRs are taken from confirmed tool results only
    "tag": "skipped",
}
SYSTEM_SUBTYPES: dict[str, str] = {
    "api_error": "mapped",  # -> error (source llm), retried
    "compact_boundary": "mapped",  # -> compaction
    "stop_hook_summary": "mapped",  # -> error (source hook) when a Stop hook failed or blocked
    "informational": "mapped",  # -> error (source hook) for "... operation blocked by hook"
    "turn_duration": "skipped",
    "local_command": "skipped",
}
#: Helper transcripts (`agent-<name>-<hex>.jsonl`) are not subagents the model launched, but the
#: seed's `agents[].kind` is only main or subagent: each becomes a subagent lane whose subagentType
#: says which helper it is, from this closed list (any other non-hex agent name: HELPER_OTHER).
HELPER_AGENTS: dict[str, str] = {
    "aside_question": "side-question",  # a /btw side question, answered beside the main agent
    "acompact": "compaction",  # the model call that writes a compaction summary
}
HELPER_OTHER = "helper"
HOOK_ATTACHMENTS: dict[str, str] = {
    "hook_blocking_error": "hook_blocking",
    "hook_stopped_continuation": "hook_blocking",
    "hook_non_blocking_error": "hook_error",
    "hook_error_during_execution": "hook_error",
}
HOOK_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "Notification", "UserPromptSubmit", "SessionStart",
    "SessionEnd", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PermissionRequest",
})

#: tool name -> event kind. Names not here: `mcp__server__tool` -> mcp; anything else -> tool.
TOOL_KINDS: dict[str, str] = {
    "Read": "read", "NotebookRead": "read",
    "Grep": "search", "Glob": "search", "LS": "search",
    "Edit": "edit", "MultiEdit": "edit", "Write": "edit", "NotebookEdit": "edit",
    "Bash": "exec",
    "Skill": "skill",
    "Task": "subagent", "Agent": "subagent",
    "WebFetch": "web", "WebSearch": "web",
}
#: tool name -> the input fields that hold a path (every other input field is content).
PATH_INPUTS: dict[str, tuple[str, ...]] = {
    "Read": ("file_path",), "NotebookRead": ("notebook_path",),
    "Edit": ("file_path",), "MultiEdit": ("file_path",), "Write": ("file_path",),
    "NotebookEdit": ("notebook_path",),
}
#: Tools whose duration is the user's (a question, a plan approval): never a delay.
WAITS_ON_USER = frozenset({"AskUserQuestion", "ExitPlanMode", "EnterPlanMode"})


_LABELS: dict[tuple[str, object], str] = {}


def label(kind: str, sub: object = None) -> str:
    """A record type name that is safe to show in a report (names only of a strict shape).

    Cached: the same few record types repeat thousands of times in one transcript."""
    key = (kind, sub if sub is None or isinstance(sub, str) else "<other>")
    found = _LABELS.get(key)
    if found is None:
        head = shown(kind, "<other>")
        if sub is None:
            found = head
        else:
            found = f"{head}:{shown(sub, '<other>')}"
        if len(_LABELS) < 4096:
            _LABELS[key] = found
    return found


def source_strings(value: Any) -> Iterator[str]:
    """Every string of a record that may carry content (for taint checks): all strings except the
    values of structural keys (ids, enums, timestamps, model names)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in _STRUCTURAL and isinstance(item, str):
                continue
            yield from source_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from source_strings(item)


_STRUCTURAL = frozenset({
    "type", "uuid", "parentUuid", "logicalParentUuid", "sessionId", "timestamp", "version", "userType",
    "entrypoint", "role", "id", "tool_use_id", "requestId", "agentId", "promptId", "messageId",
    "leafUuid", "subtype", "level", "stop_reason", "model", "permissionMode", "sourceToolAssistantUUID",
    "toolUseID", "parentToolUseID", "operation", "service_tier", "trigger", "name", "hookEvent",
    "status", "mode", "speed", "inference_geo", "error", "output_mode", "subagent_type", "skill",
    "hookName", "agentType",
})


_ENVELOPE = ("sessionId", "uuid", "leafUuid", "messageId")


def sniff(records: list[dict[str, Any]]) -> bool:
    """Whether the first records of a JSONL input look like a Claude Code transcript."""
    for record in records:
        kind = record.get("type")
        if isinstance(kind, str) and kind in RECORD_TYPES and any(key in record for key in _ENVELOPE):
            return True
    return False


def markdown() -> str:
    """The two tables as Markdown, for docs/formats.md (a test keeps the doc in step)."""
    lines = ["| record type | handling |", "|---|---|"]
    for kind, how in RECORD_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    for sub, how in SYSTEM_SUBTYPES.items():
        lines.append(f"| `system` / `{sub}` | {how} |")
    for sub, cls in HOOK_ATTACHMENTS.items():
        lines.append(f"| `attachment` / `{sub}` | mapped (error event, {cls}) |")
    lines.append("| any other type or subtype | skipped, counted by name when it has a safe shape |")
    lines += ["", "| tool | event kind | input fields read as paths |", "|---|---|---|"]
    for tool, kind in TOOL_KINDS.items():
        paths = ", ".join(f"`{f}`" for f in PATH_INPUTS.get(tool, ())) or "-"
        shown = ("exec, or verify for a test/build/lint/type check, or read/search for a line that only "
                 "reads files (docs/verbs.md)") if kind == "exec" else kind
        shown = "search (hits: the files its result lists)" if kind == "search" else shown
        lines.append(f"| `{tool}` | {shown} | {paths} |")
    lines.append("| `mcp__<server>__<tool>` | mcp | - |")
    lines.append("| `Batch` (0.2.x) | one event per invocation, each as its own tool | as its tool |")
    lines.append(f"| anything else ({', '.join(f'`{n}`' for n in sorted(WAITS_ON_USER))}, `TodoWrite`, ...) "
                 "| tool | - |")
    return "\n".join(lines) + "\n"
