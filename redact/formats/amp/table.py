"""Amp threads (`~/.local/share/amp/threads/T-<uuid>.json`), declared: the sniffer and the thread file
names. The content block types, the tool aliases and the run statuses, the class of every field and
what the reader keeps of it are the format's one table (`native_table.py`); docs/formats.md renders
both (scripts/gen_format_docs.py)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.amp.native_table import ALIASES, STATUS

THREAD_NAME = re.compile(r"T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json")
# The tool aliases and the run statuses are the table's (`native_table.py`: its tree is built from
# them); importable from here too. The content block types are its block switch's cases.
__all__ = ["ALIASES", "STATUS", "THREAD_NAME", "list_sessions", "markdown", "sniff", "sniff_doc"]


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    from redact.formats.amp.keys import MESSAGES, THREAD_ID, THREAD_VERSION

    return isinstance(doc, dict) and isinstance(doc.get(THREAD_ID), str) and doc[THREAD_ID].startswith("T-") and \
        isinstance(doc.get(MESSAGES), list) and THREAD_VERSION in doc


def list_sessions(folder: Path) -> list[Path]:
    """The threads of Amp's `threads/` folder."""
    try:
        return sorted(p for p in folder.iterdir() if THREAD_NAME.fullmatch(p.name) and p.is_file())
    except OSError:
        return []


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (`todo_write`, `mermaid`, `oracle`...) | a `tool` event")) + "\n"
