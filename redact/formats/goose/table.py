"""Goose sessions, declared: the sniffer (a 2025 metadata line, or a message line of any generation),
and where the sessions are (its `projects.json` index is skipped by name, redact/formats/auxiliary.py). The item types, the tools
the reader knows, the class of every field and what the reader keeps of it are the format's one
table (`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from redact.formats.goose.native_table import EDITOR_COMMANDS, EDITOR_TOOLS, SHELL_TOOLS

__all__ = ["list_sessions", "markdown", "sniff"]
_MESSAGE_KEYS = frozenset({"id", "role", "created", "content", "metadata"})


def sniff(records: list[dict[str, Any]]) -> bool:
    from redact.formats.goose.keys import CONTENT, CREATED, MESSAGE_COUNT, ROLE, WORKING_DIR

    first = records[0] if records else {}
    if ROLE not in first:
        return isinstance(first.get(WORKING_DIR), str) and MESSAGE_COUNT in first
    created, content = first.get(CREATED), first.get(CONTENT)
    return first.get(ROLE) in ("user", "assistant") and isinstance(created, int) and not isinstance(created, bool) \
        and isinstance(content, list) and all(isinstance(i, dict) for i in content) and set(first) <= _MESSAGE_KEYS


def _is_log(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            line = fh.readline(1 << 20)
        first = orjson.loads(line) if line.strip() else None
    except (OSError, orjson.JSONDecodeError):
        return False
    return isinstance(first, dict) and sniff([first])


def list_sessions(folder: Path) -> list[Path]:
    """Goose's sessions in its `sessions/` folder (or in Goose's data or config folder): the store
    `sessions.db` and the JSON Lines sessions of the older generations."""
    found: list[Path] = []
    for base in (folder, folder / "sessions"):
        if not base.is_dir():
            continue
        db = base / "sessions.db"
        if db.is_file():
            found.append(db)
        found += [p for p in base.glob("*.jsonl") if p.is_file() and _is_log(p)]
    return sorted(set(found))


def markdown() -> str:
    from redact.formats.goose.keys import ITEMS

    lines = ["| content item (2025) | handling |", "|---|---|"]
    lines += [f"| `{kind}` | {how} |" for kind, how in ITEMS.items()]
    lines += ["| an item without `type` | an older generation's: `Text`, `Image`, `ToolRequest`, `ToolResponse` "
              "(February 2025); `text`, `tool_name` + `arguments`, `id` + `tool_result` (late 2024) |", "",
              "| tool | read as |", "|---|---|"]
    lines += [f"| `{name}` | a shell command (`command`, through the verb engine) |" for name in SHELL_TOOLS]
    lines += [f"| `{name}` | by its `command`: " + ", ".join(f"`{c}` {k}" for c, k in EDITOR_COMMANDS.items())
              + " (its `path`) |" for name in EDITOR_TOOLS]
    lines += ["| any other (`<extension>__<tool>`) | a `tool` event; its arguments are never read |"]
    return "\n".join(lines) + "\n"
