"""opencode sessions: store.py (the 1.x SQLite store `opencode.db`), table.py (the field tables, the
sniffer), reader.py, native_table.py, native.py (maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="opencode",
    description="opencode session (1.x SQLite store ~/.local/share/opencode/opencode.db, one map per "
                "session; versions seen: 1.17.3)",
    package=__name__,
    sessions="store:list_sessions",
    sqlite=True,
    native=False,
)
