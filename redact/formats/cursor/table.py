"""Cursor's name tables (tool aliases, statuses; the bubble types are the table's, `native_table.py`) and the sniffer.

The reader reads the JSON Lines export of one chat (`store.py`): a composer (or an older aichat tab),
then its bubbles in order. The class of every field, and what the reader keeps of it, is the format's
one table (`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

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


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one chat (`store.py`)."""
    from redact.formats.cursor.keys import ID, KIND

    return bool(records) and records[0].get(KIND) in ("composer", "tab") and \
        isinstance(records[0].get(ID), str)


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else | a `tool` event (`mcp_*` tools included)")) + "\n"
