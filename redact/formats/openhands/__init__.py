"""OpenHands conversations (V1 SDK `events.json`): table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="openhands",
    description="OpenHands V1 conversation (conversations/<id>/events.json: a list of events; "
                "versions seen: V1 SDK event kinds of 2026-02)",
    package=__name__,
    jsonl=False,
    document=True,
    sessions="table:list_sessions",
    homes=("~/.openhands/conversations",),
)
