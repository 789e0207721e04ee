"""Amp threads: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="amp",
    description="Amp thread (~/.local/share/amp/threads/T-<uuid>.json; versions seen: thread v 27 to 194, "
                "CLI 0.0.1761595317)",
    package=__name__,
    jsonl=False,
    document=True,
    sessions="table:list_sessions",
    homes=("~/.local/share/amp/threads", "~/Library/Application Support/amp/threads", "~/AppData/Roaming/amp/threads"),
)
