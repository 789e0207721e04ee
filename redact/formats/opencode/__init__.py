"""opencode sessions: store.py (the 1.x SQLite store `opencode.db`), tree.py (the pre-1.x JSON storage
tree), table.py (the field tables, the sniffers), reader.py, native_table.py, native.py (maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="opencode",
    description="opencode session (1.x SQLite store ~/.local/share/opencode/opencode.db, one map per "
                "session; versions seen: 1.17.3; the pre-1.x storage/session/<project>/ses_*.json tree)",
    package=__name__,
    sessions="store:list_sessions",
    document=True,
    assembles="tree:assemble",
    companions="tree:companions",
    sqlite=True,
    native=False,
    homes=("~/.local/share/opencode", "~/Library/Application Support/opencode", "~/AppData/Local/opencode"),
)
