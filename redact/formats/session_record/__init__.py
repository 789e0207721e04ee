"""Agent session-record streams: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="session-record",
    description="agent session-record stream (JSONL starting with a {\"type\": \"session\", "
                "\"formatVersion\": ...} header)",
    package=__name__,
)
