"""Crush sessions: store.py (the project's SQLite store `.crush/crush.db`), table.py, reader.py,
native_table.py, native.py (maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder, PROJECT

FORMAT = FormatFolder(
    name="crush",
    description="Crush session (SQLite store <project>/.crush/crush.db, one map per session; "
                "schema versions seen: goose 20250627000000)",
    package=__name__,
    sessions="store:list_sessions",
    sqlite=True,
    native=False,
    homes=(f"{PROJECT}/.crush",),
)
