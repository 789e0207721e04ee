"""Cursor chats: store.py (the SQLite `state.vscdb` of globalStorage and workspaceStorage), table.py,
reader.py, native_table.py, native.py (maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder, app_data

FORMAT = FormatFolder(
    name="cursor",
    description="Cursor chat (SQLite state.vscdb: globalStorage composers and bubbles, one map per "
                "composer; older workspaceStorage aichat tabs; composerData versions seen: _v 16)",
    package=__name__,
    sessions="store:list_sessions",
    sqlite=True,
    native=False,
    homes=(*app_data("Cursor", "User", "globalStorage"), *app_data("Cursor", "User", "workspaceStorage", "*")),
)
