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


def test_a_log_without_any_time_says_its_start_is_a_stand_in() -> None:
    """A transcript of summaries only records no time: the map's required startedAt is the epoch, and
    the report says it is a stand-in (a map never carries a made-up time unannounced)."""
    from redact.api import NO_TIME, redact_bytes

    summaries = b'{"type":"summary","summary":"zqsecretqz","leafUuid":"f3e36f71-7e60-4ba1-a254-7a9fe8878d40"}\n'
    result = redact_bytes(summaries, name="s.jsonl", input_format="claude-code")
    assert result.session_map["session"]["startedAt"] == "1970-01-01T00:00:00.000Z"
    assert NO_TIME in result.report.warnings and b"zqsecretqz" not in result.data
    timed = redact_bytes(b'{"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","sessionId":"s",'
                         b'"message":{"role":"user","content":"hi"}}\n', name="t.jsonl", input_format="claude-code")
    assert NO_TIME not in timed.report.warnings
