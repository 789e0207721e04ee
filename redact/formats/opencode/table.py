"""opencode's session records, declared: message roles, part types and the class of every field.

The reader (`reader.py`) reads the JSON Lines export of one session (`store.py` for the 1.x SQLite
store, `tree.py` for the pre-1.x JSON tree): a `session` row, then each message with its parts.
Only what these tables mark as used is read; docs/formats.md renders them.
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

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("session.id", "id", "session.id"),
    ("session.parent_id", "id", "role subagent, parentSessionId"),
    ("session.directory", "path", "repository root (never written)"),
    ("session.version", "version", "-"),
    ("session.time_created / time_updated", "timestamp", "first time seen"),
    ("session.title / project_id / agent / model", "text/id", "-"),
    ("message.data.role", "enum", "dispatch: user, assistant"),
    ("message.data.time.created / completed", "timestamp", "event time; llm latency"),
    ("message.data.modelID / model.modelID", "ident:model", "llm model"),
    ("message.data.tokens.input / output / reasoning / cache.read / cache.write", "number",
     "in, out (output + reasoning), cr, cw"),
    ("message.data.finish", "enum", "stop"),
    ("message.data.error.name", "enum", "llm error event (errClass)"),
    ("message.data.error.data / path / system / summary / cost / providerID", "text/number", "-"),
    ("part.data.type", "enum", "part dispatch"),
    ("part.data.text (text)", "text", "length only; synthetic parts are skipped"),
    ("part.data.text (reasoning)", "text", "presence only (thinking)"),
    ("part.data.tool", "ident:tool", "event kind (the shared tool table)"),
    ("part.data.callID", "id", "pairs call and result"),
    ("part.data.state.status", "enum", "completed / error: a result; pending / running: no result"),
    ("part.data.state.input.command (bash)", "command", "verb (verb engine)"),
    ("part.data.state.input.filePath / path", "path", "targets of read / edit / write"),
    ("part.data.state.input.url (webfetch)", "blob", "host only"),
    ("part.data.state.input.* (everything else)", "text", "-"),
    ("part.data.state.output", "text", "byte count; a shell output confirms commits and PRs"),
    ("part.data.state.error", "text", "errClass from the wording"),
    ("part.data.state.metadata.exit (bash)", "number", "exit code"),
    ("part.data.state.metadata.exists (write)", "bool", "a write that created its file"),
    ("part.data.state.metadata.* (everything else)", "blob", "-"),
    ("part.data.state.time.start / end", "timestamp", "call and result times"),
    ("part.data.mime (file)", "enum", "images counted"),
    ("part.data.auto (compaction)", "bool", "trigger"),
)


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
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
