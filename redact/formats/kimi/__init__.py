"""Kimi CLI sessions: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="kimi",
    description="Kimi CLI session (~/.kimi/sessions/<md5 of the work dir>/<id>/wire.jsonl, with ~/.kimi/kimi.json "
                "for the work dir; seen: wire protocol 1.3 of 2026)",
    package=__name__,
    companions="table:find_companions",
    sessions="table:list_sessions",
    skips="table:auxiliary",
    homes=("~/.kimi/sessions",),
)
