"""The native tables by format name, for the scrubber and for the native scan (`audit/native.py`).

Each format's `TABLE` lives in its folder (`redact/formats/<name>/native_table.py`) and is found
through the format registry (`redact/formats/registry.py`), imported on first use. The tool-input
specs the formats share stay here, in `tools.py`.
"""
from __future__ import annotations

from redact.tables.spec import Table


def table(fmt: str) -> Table | None:
    from redact.formats.registry import raw_format

    found = raw_format(fmt)
    return found.table() if found is not None else None


def formats() -> tuple[str, ...]:
    """The formats with a native table in use (those `--to native` offers)."""
    from redact.formats.registry import formats as registered

    return tuple(fmt.name for fmt in registered() if fmt.native)
