"""teaagent's run audit log (seed 003), declared: event types and the class of every field.

Path `.teaagent/runs/<run_id>.jsonl`: one event per line, `{event_id, event_type, run_id,
created_at, payload, prev_hash, hash, chain_hmac}`. At audit level L0 only `event_type`, `run_id`
and `created_at` are written; L1 adds `event_id` and tool names; L2 masks sensitive payload fields
as `"[REDACTED]"`; L3 is the full record. The class of every field, and what the reader keeps of it, is the native table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: `run_end.status` -> errClass of an orchestration error event (other statuses: none)
RUN_END: dict[str, str] = {
    "failed": "api_error", "cost_exceeded": "spend_limit", "limit_exceeded": "usage_limit",
}
#: `tool_error.error_type` (a Python exception class name) -> errClass
ERROR_TYPES: dict[str, str] = {
    "permissionerror": "permission_denied", "permissiondenied": "permission_denied",
    "timeouterror": "timeout", "timeoutexpired": "timeout", "filenotfounderror": "not_found",
    "notfounderror": "not_found", "isadirectoryerror": "validation", "valueerror": "validation",
    "validationerror": "validation", "typeerror": "validation", "keyerror": "validation",
    "calledprocesserror": "exit_code", "keyboardinterrupt": "interrupted", "cancellederror": "interrupted",
    "approvaldenied": "permission_denied", "blockederror": "blocked",
}
#: Placeholders audit levels L1/L2 write instead of a value: never read as a command or a path.
PLACEHOLDERS = frozenset({"[REDACTED]", "[redacted]", "[REDACTED at L2]", "[truncated]", "[redacted-JWT]"})

def sniff(records: list[dict[str, Any]]) -> bool:
    for record in records:
        if isinstance(record.get("event_type"), str) and isinstance(record.get("run_id"), str) and \
                ("created_at" in record or "prev_hash" in record):
            return True
    return False


def __getattr__(name: str) -> Any:
    """`EVENT_TYPES` ("mapped" or "skipped" by event type) is read off the native table, the format's
    one table (imported on first use: that module imports this one)."""
    if name == "EVENT_TYPES":
        from redact.formats.teaagent.native_table import EVENT_TYPES

        return EVENT_TYPES
    raise AttributeError(name)


def markdown() -> str:
    from redact.formats.teaagent.native_table import RECORD

    lines = ["| event type | handling |", "|---|---|"]
    for kind, node in RECORD.cases.items():
        lines.append(f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
