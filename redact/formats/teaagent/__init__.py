"""teaagent run audit logs: table.py, reader.py (chain.py verifies the hash chain), native_table.py,
native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="teaagent",
    description="teaagent run audit log (.teaagent/runs/<run_id>.jsonl; the hash chain is verified)",
    package=__name__,
)
