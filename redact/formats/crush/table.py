"""Crush's session records, declared: message roles, part types and the class of every field.

The reader reads the JSON Lines export of one session (`store.py`): the `sessions` row, then each
message with its `parts` (a JSON array of `{type, data}`). Only what these tables mark as used is read.
"""
from __future__ import annotations

from typing import Any

#: Part types. "mapped": read for facts; "skipped": counted by type in the report, never read.
PART_TYPES: dict[str, str] = {
    "text": "mapped",  # length only
    "reasoning": "mapped",  # presence only (thinking)
    "image_url": "mapped",  # counted on a prompt
    "binary": "mapped",  # an attachment: counted on a prompt when it is an image
    "tool_call": "mapped",  # a tool call
    "tool_result": "mapped",  # its result
    "finish": "mapped",  # stop reason; an error finish is an llm error event
}
#: Crush's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {"view": "read", "multiedit": "edit", "ls": "list", "sourcegraph": "web_search",
                           "download": "fetch", "agent": "agent", "diagnostics": "diagnostics"}
#: finish reasons that are failures -> errClass of an llm error event
FINISH_ERRORS: dict[str, str] = {"error": "api_error", "canceled": "interrupted",
                                 "permission_denied": "interrupted"}

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("session.id", "id", "session.id"),
    ("session.parent_session_id", "id", "role subagent, parentSessionId"),
    ("session.created_at / updated_at", "timestamp", "first time seen"),
    ("session.title", "text", "-"),
    ("session.prompt_tokens / completion_tokens / cost", "number",
     "- (session totals: never spread over the model calls)"),
    ("session.project", "path", "repository root: the folder holding .crush/ (never written)"),
    ("message.role", "enum", "dispatch: user, assistant, tool"),
    ("message.created_at / finished_at", "timestamp", "event time; llm latency"),
    ("message.model", "ident:model", "llm model"),
    ("message.provider", "enum", "-"),
    ("parts[].type", "enum", "part dispatch"),
    ("parts[].data.text (text)", "text", "length only"),
    ("parts[].data.thinking (reasoning)", "text", "presence only (thinking)"),
    ("parts[].data.id / tool_call_id", "id", "pairs call and result"),
    ("parts[].data.name (tool_call)", "ident:tool", "event kind (the shared tool table)"),
    ("parts[].data.input (tool_call)", "blob", "JSON in a string: command (bash), file_path / path, url host"),
    ("parts[].data.content (tool_result)", "text", "byte count; a shell output confirms commits and PRs"),
    ("parts[].data.metadata (tool_result)", "blob", "-"),
    ("parts[].data.is_error (tool_result)", "bool", "err; errClass from the wording"),
    ("parts[].data.reason (finish)", "enum", "stop; error / canceled: an llm error event"),
    ("parts[].data.message / details (finish)", "text", "-"),
    ("parts[].data.mime_type / url / path (binary, image_url)", "text", "images counted"),
)


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one session (`store.py`)."""
    return bool(records) and records[0].get("crush") == "session" and isinstance(records[0].get("id"), str)


def markdown() -> str:
    lines = ["| part type | handling |", "|---|---|"]
    for kind, how in PART_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    lines += ["", "| tool | read as |", "|---|---|"]
    for name, alias in ALIASES.items():
        lines.append(f"| `{name}` | `{alias}` (the shared tool table) |")
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
