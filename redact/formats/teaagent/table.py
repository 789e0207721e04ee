"""teaagent's run audit log (seed 003), declared: event types and the class of every field.

Path `.teaagent/runs/<run_id>.jsonl`: one event per line, `{event_id, event_type, run_id,
created_at, payload, prev_hash, hash, chain_hmac}`. At audit level L0 only `event_type`, `run_id`
and `created_at` are written; L1 adds `event_id` and tool names; L2 masks sensitive payload fields
as `"[REDACTED]"`; L3 is the full record. The class of every field, and what the reader keeps of it, is the native table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Event types. "mapped": read for facts; "skipped": counted by name in the report, never read.
EVENT_TYPES: dict[str, str] = {
    "run_start": "mapped",  # the task (shape only: a user turn), the model
    "run_end": "mapped",  # failed / cost_exceeded / limit_exceeded -> error (orchestration)
    "tool_call": "mapped",  # a tool call (the shared tool table), paired by call_id
    "tool_result": "mapped",  # success, duration, byte count
    "tool_error": "mapped",  # a failed call: errClass from error_type
    "approval_request": "mapped",  # the call waits on the user
    "approval_granted": "mapped",  # nothing more
    "approval_denied": "mapped",  # the call fails: permission_denied
    "model_request": "mapped",  # starts an llm event (model, input tokens)
    "model_response": "mapped",  # ends it (output tokens, stop reason, tool calls requested)
    "cost_checkpoint": "skipped",  # cumulative: the per-request records are used, never both
}
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


def markdown() -> str:
    lines = ["| event type | handling |", "|---|---|"]
    for kind, how in EVENT_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
