"""Kiro CLI's `/save` ConversationState ("LegacyV1"), which is also Amazon Q Developer CLI's save
format, and the v1 engine's SQLite store `data.sqlite3` that holds the same documents: table.py,
native_table.py (the one table), keys.py, reader.py, native.py, store.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="kiro-legacy",
    description="Kiro CLI / Amazon Q Developer CLI ConversationState (/save JSON, often without extension "
                "or as .md; the v1 store ~/.local/share/kiro-cli/data.sqlite3 or amazon-q/data.sqlite3, "
                "one map per conversation; seen: Q CLI 1.x saves of 2025, Kiro CLI of March 2026)",
    package=__name__,
    jsonl=False,
    document=True,
    sqlite=True,
    sessions="store:list_sessions",
    homes=("~/.local/share/kiro-cli", "~/.local/share/amazon-q",
           "~/Library/Application Support/kiro-cli", "~/Library/Application Support/amazon-q"),
)
