"""Continue sessions (`~/.continue/sessions/<uuid>.json`): the session file names and the sniffer (the
tool aliases and statuses are the one table's, `native_table.py`, which is built from them).

`{sessionId, title, workspaceDirectory, history[], usage?, mode?, chatModelTitle?}`; each history
item holds a `message` (user or assistant, with `toolCalls`) and, for an assistant message,
`toolCallStates` (status, parsed arguments, output). The session index `sessions.json` and the
`dev_data/` usage logs are not sessions (redact/formats/auxiliary.py skips them by name); the index
is a session's companion all the same (`find_companions`): its `dateCreated` is the only time
Continue records. The class
of every field, and what the reader keeps of it, is the format's one table (`native_table.py`);
docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.continue_dev.native_table import ALIASES, STATUS

SESSION_NAME = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json")
INDEX_NAME = "sessions.json"
__all__ = ["ALIASES", "INDEX_NAME", "STATUS", "SESSION_NAME", "find_companions", "list_sessions", "markdown",
           "sniff", "sniff_doc"]


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    from redact.formats.continue_dev.keys import HISTORY, SESSION_ID, WORKSPACE

    return isinstance(doc, dict) and isinstance(doc.get(SESSION_ID), str) and \
        isinstance(doc.get(HISTORY), list) and WORKSPACE in doc


def list_sessions(folder: Path) -> list[Path]:
    """The sessions of Continue's `sessions/` folder (never its `sessions.json` index)."""
    try:
        return sorted(p for p in folder.iterdir() if SESSION_NAME.fullmatch(p.name) and p.is_file())
    except OSError:
        return []


def find_companions(path: Path) -> list[Path]:
    """The session index beside a session `<uuid>.json`: `sessions.json` in its folder (or, for a copy
    whose name keeps the folder as a prefix, `<prefix>sessions.json` beside `<prefix><uuid>.json`)."""
    name = path.name
    stem_at = len(name) - 41  # a uuid and `.json`
    if stem_at < 0 or not SESSION_NAME.fullmatch(name[stem_at:]):
        return []
    index = path.parent / (name[:stem_at] + INDEX_NAME)
    return [index] if index.is_file() else []


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else | a `tool` event")) + "\n"
