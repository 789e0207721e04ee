"""Continue sessions (`~/.continue/sessions/<uuid>.json`), declared: tools, statuses, the sniffer.

`{sessionId, title, workspaceDirectory, history[], usage?, mode?, chatModelTitle?}`; each history
item holds a `message` (user or assistant, with `toolCalls`) and, for an assistant message,
`toolCallStates` (status, parsed arguments, output). The session index `sessions.json` and the
`dev_data/` usage logs are not sessions (redact/formats/auxiliary.py skips them by name). The class
of every field, and what the reader keeps of it, is the format's one table (`native_table.py`);
docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

SESSION_NAME = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json")
#: Continue's tool names (extension and cn CLI) -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "read_file": "read", "read_currently_open_file": "read", "create_new_file": "write",
    "edit_existing_file": "edit", "single_find_and_replace": "edit", "multi_edit": "edit",
    "run_terminal_command": "bash", "grep_search": "grep", "file_glob_search": "glob", "ls": "ls",
    "view_subdirectory": "ls", "fetch_url_content": "fetch", "search_web": "web_search",
    "Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit", "Bash": "bash", "Search": "grep",
    "List": "ls", "Fetch": "fetch",
}
#: toolCallStates[].status -> (a final status, error, errClass)
STATUS: dict[str, tuple[bool, str | None]] = {
    "done": (False, None), "errored": (True, None), "canceled": (True, "interrupted"),
}

def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("sessionId"), str) and \
        isinstance(doc.get("history"), list) and "workspaceDirectory" in doc


def list_sessions(folder: Path) -> list[Path]:
    """The sessions of Continue's `sessions/` folder (never its `sessions.json` index)."""
    try:
        return sorted(p for p in folder.iterdir() if SESSION_NAME.fullmatch(p.name) and p.is_file())
    except OSError:
        return []


def markdown() -> str:
    lines = ["| tool | read as |", "|---|---|"]
    for name, alias in ALIASES.items():
        lines.append(f"| `{name}` | `{alias}` |")
    lines.append("| anything else | a `tool` event |")
    return "\n".join(lines) + "\n"
