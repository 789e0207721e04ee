"""The native tables by format name, for the scrubber and for the native scan (`audit/native.py`).

Each entry names the module that holds the format's `TABLE`; it is imported on first use.
"""
from __future__ import annotations

from importlib import import_module

from redact.native.spec import Table

_MODULES: dict[str, str] = {
    "claude-code": "redact.native.tables.claude_code",
    "codex": "redact.native.tables.codex",
    "session-record": "redact.native.tables.session_record",
    "teaagent": "redact.native.tables.teaagent",
    "agent-replay": "redact.native.tables.agent_replay",
}


def table(fmt: str) -> Table | None:
    module = _MODULES.get(fmt)
    if module is None:
        return None
    found: Table = import_module(module).TABLE
    return found


def formats() -> tuple[str, ...]:
    return tuple(_MODULES)
