"""Zed agent threads: store.py (the SQLite store `threads.db`, each thread zstd-compressed JSON),
table.py, reader.py, native_table.py, native.py (maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="zed",
    description="Zed agent thread (SQLite store ~/.local/share/zed/threads/threads.db, one map per thread; "
                "thread JSON zstd-compressed; versions seen: 0.3.0)",
    package=__name__,
    sessions="store:list_sessions",
    sqlite=True,
    native=False,
    homes=("~/.local/share/zed/threads", "~/Library/Application Support/Zed/threads",
           "~/AppData/Local/Zed/threads"),
)
