"""Aider has no native scrubbed copy: its history is Markdown free text, of which only the structured
lines are read. Maps are supported."""
from __future__ import annotations

from typing import Any

from redact.errors import UsageError


def scrub(data: bytes, *, name: str, policy: Any, key: Any, mode: str, report: Any,
          skip_bad_lines: bool = False) -> bytes:
    raise UsageError("--to native is not offered for Aider; maps are supported (--to map)", where=name)
