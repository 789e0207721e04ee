"""opencode's name tables (part types, error names) and the sniffers.

The reader (`reader.py`) reads the JSON Lines export of one session (`store.py` for the 1.x SQLite
store, `tree.py` for the pre-1.x JSON tree): a `session` row, then each message with its parts.
The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Part types. "mapped": read for facts; "skipped": counted by type in the report, never read.
PART_TYPES: dict[str, str] = {
    "text": "mapped",  # length only (a prompt's chars, a reply's textChars); synthetic parts are not the user's
    "reasoning": "mapped",  # presence only (thinking)
    "tool": "mapped",  # a tool call and its result
    "file": "mapped",  # an attachment: images counted on a prompt
    "compaction": "mapped",  # a compaction (auto or manual)
    "retry": "mapped",  # an API error that was retried
    "step-start": "skipped",  # a snapshot id
    "step-finish": "skipped",  # per-step tokens: the message's tokens are used, never both
    "patch": "skipped",  # a snapshot hash and the files it touched (the tool calls say it)
    "snapshot": "skipped",
    "agent": "skipped",
    "subtask": "skipped",
}
#: `error.name` of an assistant message -> errClass of an llm error event
ERRORS: dict[str, str] = {
    "ProviderAuthError": "auth", "APIError": "api_error", "MessageAbortedError": "interrupted",
    "MessageOutputLengthError": "api_error", "UnknownError": "api_error",
}



def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one session (`store.py`, `tree.py`)."""
    return bool(records) and records[0].get("opencode") == "session" and isinstance(records[0].get("id"), str)


def sniff_doc(doc: Any) -> bool:
    """A session file of the pre-1.x storage tree (`storage/session/<projectID>/ses_*.json`)."""
    from redact.formats.opencode.tree import is_session_doc

    return is_session_doc(doc)


def markdown() -> str:
    lines = ["| part type | handling |", "|---|---|"]
    for kind, how in PART_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
