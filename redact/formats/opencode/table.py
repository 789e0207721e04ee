"""opencode's sniffers and the part-type table of docs/formats.md (the part types and error names are
the table's, `native_table.py`).

The reader (`reader.py`) reads the JSON Lines export of one session (`store.py` for the 1.x SQLite
store, `tree.py` for the pre-1.x JSON tree): a `session` row, then each message with its parts.
The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one session (`store.py`, `tree.py`)."""
    from redact.formats.opencode.keys import KIND, SESSION_ID

    return bool(records) and records[0].get(KIND) == "session" and isinstance(records[0].get(SESSION_ID), str)


def sniff_doc(doc: Any) -> bool:
    """A session file of the pre-1.x storage tree (`storage/session/<projectID>/ses_*.json`)."""
    from redact.formats.opencode.tree import is_session_doc

    return is_session_doc(doc)


def markdown() -> str:
    from redact.formats.opencode.keys import PART_TYPES

    lines = ["| part type | handling |", "|---|---|"]
    for kind, how in PART_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
