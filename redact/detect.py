"""Format detection from the content, never from the file name alone."""
from __future__ import annotations

from redact.errors import BadInput

MAP = "agentplay"
FORMATS: dict[str, str] = {
    MAP: "agentplay/v1 session map (.json, .json.gz); also its earlier name entelligence.session-map/v1",
}


def detect(data: bytes, where: str) -> str:
    head = data.lstrip()[:4096]
    if head.startswith(b"{") and (b'"schema"' in data[:1 << 16] or b'"events"' in data[:1 << 16]):
        first_line_end = data.find(b"\n", 0, 1 << 20)
        # a map is one JSON document; a JSONL log has one object per line
        if first_line_end == -1 or data[first_line_end:].strip() == b"" or data.lstrip()[1:2] in b"\n \r\t\"":
            return MAP
    raise BadInput(f"unknown input format (supported: {', '.join(sorted(FORMATS))})", where=where)
