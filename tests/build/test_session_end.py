"""A session lasts until the last time its log shows (issue 25: durations ended at the last request's
start, not its end): a response timed where it began, whose end only a later record shows."""
from __future__ import annotations

from redact.build.builder import build_map
from redact.build.facts import MAIN, LlmResponse, SessionFacts, UserTurn


def _facts(later: float | None) -> SessionFacts:
    s = SessionFacts(agent_tool="cursor", native_id="n1")
    for t in (1_000.0, 2_000.0):
        s.saw(t)
    s.facts += [UserTurn(1_000.0, MAIN, 5), LlmResponse(2_000.0, MAIN, None)]
    if later is not None:
        s.saw(later)  # the response's last record, which made no event of its own
    return s


def test_the_last_record_ends_the_session() -> None:
    assert build_map(_facts(None))["session"]["durationMs"] == 1_000
    assert build_map(_facts(9_500.0))["session"]["durationMs"] == 8_500


def test_a_late_time_never_moves_the_start() -> None:
    s = _facts(9_500.0)
    s.saw_late(20_000.0)
    m = build_map(s)
    assert m["session"]["startedAt"] == "1970-01-01T00:00:01.000Z"
    assert m["session"]["durationMs"] == 19_000


def test_an_empty_map_has_no_duration() -> None:
    s = SessionFacts(agent_tool="cursor", native_id="n1")
    s.saw(1_000.0)
    s.saw(5_000.0)
    assert build_map(s)["session"]["durationMs"] == 0
