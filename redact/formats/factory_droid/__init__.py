"""Factory Droid sessions: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="factory-droid",
    description="Factory Droid session (~/.factory/sessions/<cwd slug>/<uuid>.jsonl, with <uuid>.settings.json "
                "beside it; session_start version 2)",
    package=__name__,
    companions="table:find_companions",
    sessions="table:list_sessions",
    skips="table:auxiliary",
    homes=("~/.factory/sessions",),
)
