"""Crush's name tables (part types, tool aliases, finish reasons) and the sniffer.

The reader reads the JSON Lines export of one session (`store.py`): the `sessions` row, then each
message with its `parts` (a JSON array of `{type, data}`). The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
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
    return "\n".join(lines) + "\n"
