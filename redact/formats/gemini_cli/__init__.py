"""Gemini CLI chat recordings: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="gemini-cli",
    description="Gemini CLI chat recording (~/.gemini/tmp/<project>/chats/session-*.json, and the "
                "append-only .jsonl with $set updates; seen: Sep 2025 to Apr 2026 clients, which "
                "record no version)",
    package=__name__,
    document=True,
    sessions="table:list_sessions",
    skips="table:auxiliary",
    homes=("~/.gemini/tmp",),
)
