"""Issue 13, item 5: `--to native` wrote timestamps with the offset the log had (`+05:30`), which says
where the user lives. Every native format now moves them to UTC `Z`, as the map does, and the native
scan refuses an offset left in an output."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from audit.native import scan_native
from tests.formats.ccfix import Transcript, text
from tests.native import arfix, codexfix, srfix, teafix
from tests.native.helpers import KEY, native

_UTC_STAMP = re.compile(rb"(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)Z")
_ANY_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?")


def _words() -> Callable[[], str]:
    n = iter(range(10_000))
    return lambda: f"zqword{next(n)}qz"


def _claude_code() -> bytes:
    t = Transcript("5b0c9e1d-2f3a-4b5c-8d6e-7f8091a2b3c4", "/Users/dana/src/orders-api", seed=1)
    t.user("hello")
    t.assistant([text("hi")])
    return t.bytes()


FIXTURES: dict[str, Callable[[], bytes]] = {
    "claude-code": _claude_code,
    "codex": lambda: codexfix.rollout(_words()),
    "session-record": lambda: srfix.stream(_words()),
    "teaagent": lambda: teafix.log(_words(), chain=False),
    "agent-replay": lambda: arfix.trace(_words()),
}


def _zoned(data: bytes, offset: bytes) -> bytes:
    """Every UTC timestamp of a fixture rewritten with `offset` (the same wall-clock digits)."""
    out, n = _UTC_STAMP.subn(rb"\1" + offset, data)
    assert n > 0, "the fixture has no timestamp to move"
    return out


def _instants(text: str) -> list[datetime]:
    stamps = []
    for s in _ANY_STAMP.findall(text):
        dt = datetime.fromisoformat(s.replace(" ", "T"))
        stamps.append(dt if dt.tzinfo else dt.replace(tzinfo=UTC))
    return stamps


@pytest.mark.parametrize("fmt", sorted(FIXTURES))
@pytest.mark.parametrize("policy", ["default", "public"])
def test_offsets_become_utc_in_every_native_format(fmt: str, policy: str) -> None:
    data = _zoned(FIXTURES[fmt](), b"+05:30")
    out, _ = native(data, fmt, policy=policy, key=KEY)
    body = out.decode()
    assert "+05:30" not in body and "+0530" not in body
    got = _instants(body)
    assert got, "no timestamp survived at all"
    # the same instants, now written in UTC: compared as instants, not as strings
    wanted = {dt.astimezone(UTC) for dt in _instants(data.decode())}
    assert {dt.astimezone(UTC) for dt in got} <= wanted
    assert all(s.endswith("Z") for s in _ANY_STAMP.findall(body))


def test_a_negative_offset_moves_forward_across_midnight() -> None:
    data = codexfix.rollout(_words())  # 2026-01-06T20:04:..Z, read as 20:04 at -08:00
    out, _ = native(_zoned(data, b"-0800"), "codex", policy="public", key=KEY)
    assert b"2026-01-07T04:04:" in out and b"-0800" not in out


def test_the_native_scan_refuses_an_offset() -> None:
    out, _ = native(srfix.stream(_words()), "session-record")
    stamp = _UTC_STAMP.search(out)
    assert stamp is not None
    bad = out.replace(stamp.group(0), stamp.group(1) + b"+05:30", 1)
    result = scan_native(bad, "session-record", path_mode="relative", kept_identifiers={}, source=None)
    assert not result.clean
    assert any("timestamp" in " ".join(f.as_dict().get("rules", [])) or "timestamp" in str(f.as_dict())
               for f in result.findings)


def _later_formats() -> list[tuple[str, str, bytes]]:
    """The native formats added after the fix (Gemini CLI, Copilot, Cline, OpenHands, Amp, Continue):
    each generated session of theirs whose timestamps are ISO strings (tests/formats/table_inputs.py)."""
    from redact.formats.registry import formats
    from tests.formats.table_inputs import GENERATED

    out = []
    for fmt in formats():
        if fmt.name in FIXTURES or not getattr(fmt, "native", True):
            continue
        for path, data in GENERATED[fmt.name]():
            if _UTC_STAMP.search(data) or _NAIVE_STAMP.search(data):
                out.append((fmt.name, path.name, data))
    return out


# a timestamp written without a zone (OpenHands writes local wall-clock time so)
_NAIVE_STAMP = re.compile(rb'(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)"')


def _zoned_any(data: bytes, offset: bytes) -> bytes:
    """`_zoned`, and a timestamp without a zone given `offset` too."""
    moved, n = _UTC_STAMP.subn(rb"\1" + offset, data)
    moved, m = _NAIVE_STAMP.subn(rb"\1" + offset + b'"', moved)
    assert n + m > 0, "the fixture has no timestamp to move"
    return moved


LATER = _later_formats()


def test_the_later_formats_are_covered() -> None:
    # (VS Code Copilot Chat and Cline write epoch milliseconds, Continue no time at all: no offset)
    assert {"gemini-cli", "copilot-cli", "openhands", "amp"} <= {f for f, _, _ in LATER}


@pytest.mark.parametrize(("fmt", "name", "data"), LATER, ids=[f"{f}:{n}" for f, n, _ in LATER])
def test_offsets_become_utc_in_the_later_native_formats(fmt: str, name: str, data: bytes) -> None:
    zoned = _zoned_any(data, b"+05:30")
    out, _ = native(zoned, fmt, policy="public", key=KEY)
    body = out.decode()
    assert "+05:30" not in body and "+0530" not in body
    wanted = {dt.astimezone(UTC) for dt in _instants(zoned.decode())}
    assert {dt.astimezone(UTC) for dt in _instants(body)} <= wanted
