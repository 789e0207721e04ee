"""Zed agent threads, declared: the sniffer of the store's JSON Lines export (`store.py`), and the docs'
name tables. The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

from redact.formats.zed.native_table import ALIASES, VERSIONS

__all__ = ["ALIASES", "VERSIONS", "markdown", "sniff"]


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines export of one thread (`store.py`)."""
    from redact.formats.zed.keys import KIND, THREAD_ID

    return bool(records) and records[0].get(KIND) == "session" and isinstance(records[0].get(THREAD_ID), str)


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    lines = ["| item | handling |", "|---|---|",
             "| message `User` | a prompt (its `Text` length, `Image`s counted; a `Mention` is never read) |",
             "| message `Agent` | one llm event (`Text` length, thinking, `ToolUse` calls) and its `tool_results` |",
             '| message `"Resume"` | counted |',
             "| any other message or content kind | skipped, counted by name |",
             f"| thread version other than {', '.join(VERSIONS)} | its messages counted, not read |"]
    lines += ["", *alias_markdown(ALIASES, None, " (the shared tool table)")]
    return "\n".join(lines) + "\n"
