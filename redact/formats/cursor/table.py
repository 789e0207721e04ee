"""Cursor's name tables (bubble types, tool aliases, statuses) and the sniffer.

The reader reads the JSON Lines export of one chat (`store.py`): a composer (or an older aichat tab),
then its bubbles in order. The class of every field, and what the reader keeps of it, is the format's
one table (`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
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
#: The keys of the store's own JSON values (composerData, bubbles, aichat tabs) that `store.py` reads
#: or names when building the export the one table describes: known names for reports.
SOURCE_KEYS: frozenset[str] = frozenset({
    "composerData", "composerId", "_v", "modelConfig", "modelName", "workspaceIdentifier", "unifiedMode",
    "subagentComposerIds", "subComposerIds", "richText", "blobEncryptionKey", "EncryptionKey", "bubbleId",
    "modelType", "rawText", "toolFormerData", "toolCallBinary", "additionalData", "tabId", "chatTitle",
})
#: `toolFormerData.status` values that end a call
DONE = {"completed": False, "error": True, "cancelled": True, "canceled": True, "rejected": True}



def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one chat (`store.py`)."""
    return bool(records) and records[0].get("cursor") in ("composer", "tab") and \
        isinstance(records[0].get("id"), str)


def markdown() -> str:
    lines = ["| tool | read as |", "|---|---|"]
    for name, alias in ALIASES.items():
        lines.append(f"| `{name}` | `{alias}` |")
    lines.append("| anything else | a `tool` event (`mcp_*` tools included) |")
    return "\n".join(lines) + "\n"
