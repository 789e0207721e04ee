"""Kiro's session store `~/.kiro/sessions/<workspace>/sess_<id>/{session.json, messages.jsonl}`:
table.py (sniffers, listing, companion, assembly), native_table.py (the one table), keys.py,
reader.py, native.py. No sample exists: the layout is taken from public descriptions of the store
(docs/formats.md says which parts)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="kiro-ide-log",
    description="Kiro session store (~/.kiro/sessions/<workspace>/sess_<id>/messages.jsonl with its session.json; "
                "built from public descriptions, no sample seen)",
    package=__name__,
    jsonl=True,
    document=True,
    companions="table:find_companions",
    sessions="table:list_sessions",
    assembles="table:assemble",
    skips="table:auxiliary",
    homes=("~/.kiro/sessions/*",),
)
