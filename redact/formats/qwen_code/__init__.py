"""Qwen Code sessions (its own JSON Lines layout, and the chat record it inherited from Gemini CLI):
table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="qwen-code",
    description="Qwen Code session (~/.qwen/projects/<slug>/chats/<id>.jsonl, and the older Gemini-style "
                "~/.qwen/tmp/<hash>/chats/session-*.json; versions seen: 0.5.0 and 0.14.0 of late 2025 to 2026)",
    package=__name__,
    document=True,
    sessions="table:list_sessions",
    skips="table:auxiliary",
    homes=("~/.qwen/projects", "~/.qwen/tmp"),
)
