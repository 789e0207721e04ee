"""Zed has no native scrubbed copy: its store is SQLite with each thread compressed in a row, and a
copy would have to be rebuilt from the rows, never copied. Maps are supported."""
from __future__ import annotations

from typing import Any

from redact.errors import UsageError


def scrub(data: bytes, *, name: str, policy: Any, key: Any, mode: str, report: Any,
          skip_bad_lines: bool = False) -> bytes:
    raise UsageError("--to native is not offered for zed; maps are supported (--to map)", where=name)
