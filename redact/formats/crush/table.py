"""Crush's tool aliases and the sniffer (the part types and finish reasons are the table's, `native_table.py`) and the sniffer.

The reader reads the JSON Lines export of one session (`store.py`): the `sessions` row, then each
message with its `parts` (a JSON array of `{type, data}`). The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Crush's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {"view": "read", "multiedit": "edit", "ls": "list", "sourcegraph": "web_search",
                           "download": "fetch", "agent": "agent", "diagnostics": "diagnostics"}



def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one session (`store.py`)."""
    from redact.formats.crush.keys import KIND, SESSION_ID

    return bool(records) and records[0].get(KIND) == "session" and isinstance(records[0].get(SESSION_ID), str)


def markdown() -> str:
    from redact.formats.crush.keys import PART_TYPES
    from redact.formats.toolnames import alias_markdown

    lines = ["| part type | handling |", "|---|---|"]
    for kind, how in PART_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    lines += ["", *alias_markdown(ALIASES, None, " (the shared tool table)")]
    return "\n".join(lines) + "\n"
