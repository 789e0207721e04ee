"""The contract for opencode, Crush, Cursor and Aider, as a property: a fresh canary in every text
slot of the fixture (prompts, replies, reasoning, tool inputs and outputs, titles, error messages,
file contents and keys the stores keep beside the sessions) never reaches a map or a report, under
every policy."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from redact.api import redact_bytes
from tests.formats import goosefix, storefix, zedfix
from tests.formats.canary import POLICIES, Canaries, canary_base, check, check_file
from tests.formats.test_aider import history

STORES: tuple[tuple[str, Callable[..., object]], ...] = (
    ("opencode.db", storefix.opencode_db), ("crush.db", storefix.crush_db),
    ("state.vscdb", storefix.cursor_global_db), ("ws.vscdb", storefix.cursor_workspace_db),
    ("threads.db", zedfix.threads_db), ("sessions.db", goosefix.sessions_db),
)


def _planter(canaries: Canaries) -> Callable[[str], str]:
    def text(slot: str) -> str:
        return canaries() + " and words"  # a canary first: commands take their first word
    return text


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_from_any_store(base: str) -> None:
    for name, build in STORES:
        canaries = Canaries(base)
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / name
            build(db, _planter(canaries))
            for policy, key in POLICIES:
                check_file(db, canaries, policy, key)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_from_an_aider_history(base: str) -> None:
    canaries = Canaries(base)
    data = history(_planter(canaries)).encode()
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name=".aider.chat.history.md", input_format="aider")
    assert redact_bytes(data, name="h.md").session_map["totals"]["calls"] > 0
