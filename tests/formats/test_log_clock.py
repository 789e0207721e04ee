"""LogClock, the log-order time rule four readers share (Codex, teaagent, OpenHands, session records)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from redact.build.facts import SessionFacts
from redact.formats.common import LogClock


@given(st.lists(st.none() | st.floats(min_value=0, max_value=1e13, allow_nan=False)))
def test_a_record_without_a_time_sits_where_the_last_one_did(times: list[float | None]) -> None:
    facts = SessionFacts(agent_tool="other", native_id="")
    clock = LogClock(facts)
    last = None
    for t in times:
        last = t if t is not None else last
        assert clock.at(t) == last
    shown = [t for t in times if t is not None]
    assert facts.first_seen == (shown[0] if shown else None)  # the first shown, not the earliest
