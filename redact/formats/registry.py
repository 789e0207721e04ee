"""The raw-log readers by format name: what the API calls between detection and the builder.

Each raw format contributes one entry: a function reading the input (and any companion files it
found) into `SessionFacts`, and one finding those companion files next to an input path. Adding a
format is adding its reader module and one entry here.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable

from redact.build.facts import SessionFacts
from redact.report import RedactionReport

Read = Callable[..., SessionFacts]  # (data, name, *, report, companions, skip_bad_lines, file_stem)
Discover = Callable[[Path], list[Any]]


@dataclass(frozen=True)
class RawFormat:
    read: Read
    discover: Discover
    list_sessions: Callable[[Path], list[Path]] | None = None


def _claude_code() -> RawFormat:
    from redact.formats.claude_code import files as cc

    def read(data: bytes | BinaryIO, name: str, *, report: RedactionReport, companions: list[Any] | None,
             skip_bad_lines: bool, file_stem: str | None) -> SessionFacts:
        return cc.read_session(data, name, report=report, sidechains=companions,
                               skip_bad_lines=skip_bad_lines, file_stem=file_stem)

    return RawFormat(read, cc.find_sidechains, cc.project_sessions)


def _codex() -> RawFormat:
    from redact.formats.codex import reader as codex

    return RawFormat(codex.read_session, _no_companions, codex.list_sessions)


def _session_record() -> RawFormat:
    from redact.formats.session_record import reader as session_record

    return RawFormat(session_record.read_session, _no_companions)


def _teaagent() -> RawFormat:
    from redact.formats.teaagent import reader as teaagent

    return RawFormat(teaagent.read_session, _no_companions)


def _agent_replay() -> RawFormat:
    from redact.formats.agent_replay import reader as agent_replay

    return RawFormat(agent_replay.read_session, _no_companions)


def _no_companions(path: Path) -> list[Any]:
    return []


_FACTORIES: dict[str, Callable[[], RawFormat]] = {
    "claude-code": _claude_code,
    "codex": _codex,
    "session-record": _session_record,
    "teaagent": _teaagent,
    "agent-replay": _agent_replay,
}


def raw_format(name: str) -> RawFormat | None:
    factory = _FACTORIES.get(name)
    return factory() if factory is not None else None


def raw_formats() -> tuple[str, ...]:
    return tuple(_FACTORIES)
