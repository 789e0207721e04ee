"""Goose sessions: store.py (the SQLite store `sessions.db`, exported as the 2025 JSON Lines),
table.py, reader.py (every generation), native_table.py, native.py (the JSON Lines sessions)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="goose",
    description="Goose session (SQLite store ~/.local/share/goose/sessions/sessions.db, schema version 5, one "
                "map per session; the JSON Lines sessions of 2025 and of late 2024)",
    package=__name__,
    sessions="table:list_sessions",
    sqlite=True,
    # Goose uses the XDG folders on macOS too (the corpus store comes from a macOS home)
    homes=("~/.local/share/goose/sessions", "~/.config/goose/sessions", "~/AppData/Roaming/Block/goose/data/sessions"),
)
