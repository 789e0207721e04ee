"""Amp threads (`~/.local/share/amp/threads/T-<uuid>.json`), declared: content blocks, tools, the
sniffer. The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

THREAD_NAME = re.compile(r"T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json")
#: content block types. "mapped": read for facts; "skipped": counted, never read.
BLOCKS: dict[str, str] = {
    "text": "mapped", "thinking": "mapped", "redacted_thinking": "mapped", "tool_use": "mapped",
    "tool_result": "mapped", "image": "mapped",
}
#: Amp's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "Bash": "bash", "Read": "read", "read_file": "read", "edit_file": "edit_file", "create_file": "write",
    "undo_edit": "edit_file", "format_file": "edit_file", "Grep": "grep", "glob": "glob",
    "list_directory": "list_directory", "codebase_search_agent": "codebase_search",
    "read_web_page": "web_fetch", "web_search": "web_search", "Task": "task",
}
#: tool_result.run.status -> (error, errClass)
STATUS: dict[str, tuple[bool, str | None]] = {
    "done": (False, None), "error": (True, None), "cancelled": (True, "interrupted"),
    "rejected-by-user": (True, "permission_denied"),
}

def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("id"), str) and doc["id"].startswith("T-") and \
        isinstance(doc.get("messages"), list) and "v" in doc


def list_sessions(folder: Path) -> list[Path]:
    """The threads of Amp's `threads/` folder."""
    try:
        return sorted(p for p in folder.iterdir() if THREAD_NAME.fullmatch(p.name) and p.is_file())
    except OSError:
        return []


def markdown() -> str:
    lines = ["| tool | read as |", "|---|---|"]
    for name, alias in ALIASES.items():
        lines.append(f"| `{name}` | `{alias}` |")
    lines.append("| anything else (`todo_write`, `mermaid`, `oracle`...) | a `tool` event |")
    return "\n".join(lines) + "\n"
