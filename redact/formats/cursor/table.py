"""Cursor's chat records, declared: bubble types, tool names and the class of every field.

The reader reads the JSON Lines export of one chat (`store.py`): a composer (or an older aichat tab),
then its bubbles in order. Only what these tables mark as used is read.
"""
from __future__ import annotations

from typing import Any

#: bubble `type`: 1 (or "user") is the user's, 2 (or "ai") the agent's
USER_TYPES = (1, "user")
AI_TYPES = (2, "ai")
#: Cursor's tool names -> the shared tool table's spelling (`toolFormerData.name`)
ALIASES: dict[str, str] = {
    "read_file": "read_file", "read_file_v2": "read_file",
    "edit_file": "edit_file", "edit_file_v2": "edit_file", "search_replace": "edit_file",
    "apply_patch": "apply_patch", "write": "write_file", "multi_edit": "edit_file",
    "delete_file": "delete_file",
    "run_terminal_cmd": "run_terminal_cmd", "run_terminal_command_v2": "run_terminal_cmd",
    "glob_file_search": "glob", "ripgrep_raw_search": "grep", "grep_search": "grep", "grep": "grep",
    "codebase_search": "codebase_search", "file_search": "file_search", "list_dir": "list_dir",
    "list_dir_v2": "list_dir", "semantic_search_full": "codebase_search",
    "web_search": "web_search", "fetch_rules": "fetch_rules", "read_lints": "read_lints",
    "todo_write": "todo_write", "task": "task", "task_v2": "task",
}
#: `toolFormerData.status` values that end a call
DONE = {"completed": False, "error": True, "cancelled": True, "canceled": True, "rejected": True}

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("composerData.composerId", "id", "session.id"),
    ("composerData._v", "version", "-"),
    ("composerData.createdAt / lastUpdatedAt", "timestamp", "first time seen"),
    ("composerData.modelConfig.modelName", "ident:model", "llm model"),
    ("composerData.workspaceIdentifier.uri.fsPath", "path", "repository root (never written)"),
    ("composerData.unifiedMode", "enum", "-"),
    ("composerData.subagentComposerIds / subComposerIds", "id", ("a composer listed here is a subagent "
                                                                 "session (role, parentSessionId)")),
    ("composerData.name / text / richText", "text", "-"),
    ("composerData.*EncryptionKey / blobEncryptionKey", "blob", "never read (not even exported)"),
    ("composerData.* (everything else)", "blob", "never read"),
    ("bubble.bubbleId", "id", "-"),
    ("bubble.type", "enum", "1 / user: a prompt; 2 / ai: the agent's turn"),
    ("bubble.createdAt / timestamp", "timestamp", "event times"),
    ("bubble.tokenCount.inputTokens / outputTokens", "number", "in, out (summed over a turn)"),
    ("bubble.modelInfo.modelName / modelType", "ident:model", "llm model"),
    ("bubble.text / rawText", "text", "length only"),
    ("bubble.thinking.text", "text", "presence only (thinking)"),
    ("bubble.toolFormerData.toolCallId", "id", "call id"),
    ("bubble.toolFormerData.name", "ident:tool", "event kind (the shared tool table, after the aliases)"),
    ("bubble.toolFormerData.params / rawArgs", "blob", ("JSON in a string: command, targetFile / "
                                                        "relativeWorkspacePath / path, url host")),
    ("bubble.toolFormerData.status", "enum", "completed: a result; error / cancelled: a failed result"),
    ("bubble.toolFormerData.result", "text", "byte count"),
    ("bubble.toolFormerData.error", "text", "errClass from the wording"),
    ("bubble.toolFormerData.toolCallBinary / additionalData", "blob", "never read"),
    ("tab.tabId / lastSendTime (workspaceStorage aichat)", "id/timestamp", "session.id; event times"),
    ("tab.chatTitle", "text", "-"),
)


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one chat (`store.py`)."""
    return bool(records) and records[0].get("cursor") in ("composer", "tab") and \
        isinstance(records[0].get("id"), str)


def markdown() -> str:
    lines = ["| tool | read as |", "|---|---|"]
    for name, alias in ALIASES.items():
        lines.append(f"| `{name}` | `{alias}` |")
    lines.append("| anything else | a `tool` event (`mcp_*` tools included) |")
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
