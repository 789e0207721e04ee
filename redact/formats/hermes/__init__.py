"""Hermes Agent sessions: table.py, reader.py, native_table.py, native.py, store.py (the SQLite
store `~/.hermes/state.db`, exported as the JSON Lines log; maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="hermes",
    description="Hermes Agent session (~/.hermes/sessions/session_<time>_<hex>.json documents and "
                "<time>_<hex>.jsonl logs, and the SQLite store ~/.hermes/state.db; versions seen: spring 2026)",
    package=__name__,
    document=True,
    sessions="table:list_sessions",
    sqlite=True,
    homes=("~/.hermes/sessions", "~/.hermes"),
)
