"""The native tables by format name, for the scrubber and for the native scan (`audit/native.py`).

Each entry names the module that holds the format's `TABLE`; it is imported on first use.
"""
from __future__ import annotations

from importlib import import_module

from redact.native.spec import Table

_MODULES: dict[str, str] = {
    "claude-code": "redact.formats.claude_code.native_table",
    "codex": "redact.formats.codex.native_table",
    "session-record": "redact.formats.session_record.native_table",
    "teaagent": "redact.formats.teaagent.native_table",
    "agent-replay": "redact.formats.agent_replay.native_table",
}


def table(fmt: str) -> Table | None:
    module = _MODULES.get(fmt)
    if module is None:
        return None
    found: Table = import_module(module).TABLE
    return found


def formats() -> tuple[str, ...]:
    return tuple(_MODULES)
