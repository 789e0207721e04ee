"""teaagent's run audit log (seed 003), declared: event types and the class of every field.

Path `.teaagent/runs/<run_id>.jsonl`: one event per line, `{event_id, event_type, run_id,
created_at, payload, prev_hash, hash, chain_hmac}`. At audit level L0 only `event_type`, `run_id`
and `created_at` are written; L1 adds `event_id` and tool names; L2 masks sensitive payload fields
as `"[REDACTED]"`; L3 is the full record. The class of every field, and what the reader keeps of it, is the native table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Placeholders audit levels L1/L2 write instead of a value: never read as a command or a path.
PLACEHOLDERS = frozenset({"[REDACTED]", "[redacted]", "[REDACTED at L2]", "[truncated]", "[redacted-JWT]"})

def sniff(records: list[dict[str, Any]]) -> bool:
    from redact.formats.teaagent.keys import CREATED_AT, EVENT_TYPE, PREV_HASH, RUN_ID

    for record in records:
        if isinstance(record.get(EVENT_TYPE), str) and isinstance(record.get(RUN_ID), str) and \
                (CREATED_AT in record or PREV_HASH in record):
            return True
    return False


#: Names the format's one table (`native_table.py`) now holds, still importable from here.
_MOVED = frozenset({"EVENT_TYPES", "RUN_END", "ERROR_TYPES"})


def __getattr__(name: str) -> Any:
    """`EVENT_TYPES` ("mapped" or "skipped" by event type, read off the native table) and the value
    tables the native table's enums are built from (`RUN_END`, `ERROR_TYPES`) live in
    `native_table.py`, imported on first use."""
    if name in _MOVED:
        from redact.formats.teaagent import native_table

        return getattr(native_table, name)
    raise AttributeError(name)


def markdown() -> str:
    from redact.formats.teaagent.native_table import RECORD

    lines = ["| event type | handling |", "|---|---|"]
    for kind, node in RECORD.cases.items():
        lines.append(f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
