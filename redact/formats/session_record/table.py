"""The agent session-record stream (seed 002), declared: record types and the class of every field.

A stream is JSON Lines; line 1 is the session header (`{"type": "session", "formatVersion": ...}`).
Order is `seq`, not `ts`; timestamps are optional and never made up. `session_record.py` (the reader)
reads only fields its native table (`native_table.py`) classifies; docs/formats.md renders both
(scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Record types. "mapped": read for facts; "skipped": counted by name in the report, never read.
RECORD_TYPES: dict[str, str] = {
    "session": "mapped",  # the header: session id, agent, workspace roots (paths), lineage (role)
    "message": "mapped",  # a human prompt (shape only); assistant text and reasoning -> its inference
    "inference": "mapped",  # one model call -> llm event (usage, latency, stop reason)
    "tool_call": "mapped",  # a tool call, paired with its tool_result by callId
    "tool_result": "mapped",  # status, exit code, duration, byte count; confirmations of PRs
    "file_change": "mapped",  # the edit targets of the call that caused it (cause.callId)
    "vcs": "mapped",  # commit, only with its evidence and the call that caused it
    "state": "mapped",  # interrupted/cancelled -> error (orchestration); other states skipped
    "usage_summary": "mapped",  # used only when no inference record carries usage (never both)
    "compaction": "mapped",  # -> compaction
    "subagent": "skipped",
    "rewind": "skipped",
    "participants": "skipped",
    "conversation": "skipped",
    "delivery": "skipped",
}

#: `tool_call.kind` (the producer's own classification) -> event kind, when the tool's name is not
#: in the shared tool table (`toolnames.py`).
CALL_KINDS: dict[str, str] = {
    "read": "read", "edit": "edit", "delete": "edit", "move": "edit", "search": "search",
    "execute": "exec", "fetch": "web", "think": "tool", "other": "tool",
}
#: `tool_result.status` -> (error, errClass)
RESULT_STATUS: dict[str, tuple[bool, str | None]] = {
    "completed": (False, None), "succeeded": (False, None), "success": (False, None), "ok": (False, None),
    "failed": (True, None), "error": (True, None), "denied": (True, "permission_denied"),
    "rejected": (True, "permission_denied"), "cancelled": (True, "interrupted"),
    "canceled": (True, "interrupted"), "interrupted": (True, "interrupted"), "timeout": (True, "timeout"),
    "timed_out": (True, "timeout"),
}
#: `file_change.changes[].op` -> the map's file op
FILE_OPS: dict[str, str] = {
    "create": "create", "add": "create", "added": "create", "modify": "modify", "update": "modify",
    "modified": "modify", "edit": "modify", "delete": "delete", "remove": "delete", "deleted": "delete",
    "rename": "rename-to", "move": "rename-to",
}
#: `vcs.evidence` values that confirm a commit (the producer saw it, not a mention)
COMMIT_EVIDENCE = frozenset({"parsed_output", "observed", "repository", "hook", "native"})

#: The field table: location -> class -> what the reader keeps ("-" = never read).
_HEADER_KEYS = ("formatVersion",)


def sniff(records: list[dict[str, Any]]) -> bool:
    """Line 1 is the session header."""
    if not records:
        return False
    first = records[0]
    return first.get("type") == "session" and "formatVersion" in first


def markdown() -> str:
    lines = ["| record type | handling |", "|---|---|"]
    for kind, how in RECORD_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
