"""The agent session-record stream (seed 002): the sniffer.

A stream is JSON Lines; line 1 is the session header (`{"type": "session", "formatVersion": ...}`).
Order is `seq`, not `ts`; timestamps are optional and never made up. `session_record.py` (the reader)
reads only fields its native table (`native_table.py`) classifies; docs/formats.md renders both
(scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any


def sniff(records: list[dict[str, Any]]) -> bool:
    """Line 1 is the session header."""
    from redact.formats.session_record.keys import FORMAT_VERSION, TYPE

    if not records:
        return False
    first = records[0]
    return first.get(TYPE) == "session" and FORMAT_VERSION in first


#: Names the format's one table (`native_table.py`) now holds, still importable from here.
_MOVED = frozenset({"RECORD_TYPES", "CALL_KINDS", "RESULT_STATUS", "FILE_OPS", "COMMIT_EVIDENCE"})


def __getattr__(name: str) -> Any:
    """`RECORD_TYPES` (read off the native table) and the value tables the native table is built
    from (`CALL_KINDS`, `RESULT_STATUS`, `FILE_OPS`, `COMMIT_EVIDENCE`) live in `native_table.py`, imported on first use."""
    if name in _MOVED:
        from redact.formats.session_record import native_table

        return getattr(native_table, name)
    raise AttributeError(name)


def markdown() -> str:
    from redact.formats.session_record.native_table import RECORD

    lines = ["| record type | handling |", "|---|---|"]
    for kind, node in RECORD.cases.items():
        lines.append(f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
