"""OpenHands V1 conversations: events.json into a map, and scrubbed natively."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from redact.api import redact_bytes, redact_file
from redact.formats.detect import detect
from redact.api_native import scrub_native
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import jsonfix
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def test_a_conversation_becomes_a_map(tmp_path: Path) -> None:
    folder = tmp_path / "conversations" / "7510150b294841dda032a87239ebdf25"
    folder.mkdir(parents=True)
    path = folder / "events.json"
    path.write_bytes(jsonfix.openhands_events(jsonfix.plain()))
    assert detect(path.read_bytes(), "x") == "openhands"
    result = redact_file(path)
    m = result.session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = jsonfix.OPENHANDS_COUNTS
    assert m["session"]["agentTool"] == "openhands"
    assert m["session"]["id"].endswith("7510150b294841dda032a87239ebdf25")
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"]
    assert kinds["edit"] == want["edits"] and kinds["read"] == want["reads"]
    assert kinds["compaction"] == 1
    shells = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert [e.get("exitCode") for e in shells] == [0, 1] and shells[1].get("err")
    assert sorted(f["path"] for f in m["files"]) == ["app.py", "new.py"]
    # an event kind this tool does not know is counted, never named (issue 13: only known names are shown)
    assert result.report.skipped_records["<other>"] == 1 and "FutureEvent" not in result.report.skipped_records


def test_native_keeps_the_layout_and_drops_the_text() -> None:
    data = jsonfix.openhands_events(jsonfix.plain())
    report = RedactionReport(source="x")
    out = scrub_native(data, "openhands", name="events.json", policy=load_policy("default"), key=None,
                       mode=None, report=report)
    events = orjson.loads(out)
    assert [e["kind"] for e in events] == [e["kind"] for e in orjson.loads(data)][:-1]  # FutureEvent dropped
    assert b"plain words" not in out
    terminal = events[2]["action"]
    assert terminal == {"command": "git status", "is_input": False, "kind": "TerminalAction"}
    assert events[6]["action"]["path"] == "app.py"  # under the working directory


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_a_map_or_native(base: str) -> None:
    canaries = Canaries(base)
    data = jsonfix.openhands_events(canaries)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="events.json")
        out = scrub_native(data, "openhands", name="events.json", policy=load_policy(policy), key=key, mode=None,
                           report=RedactionReport(source="x")).decode()
        assert not [c for c in canaries.all if c in out]


@pytest.mark.parametrize("policy", ["default", "public"])
def test_map_policies(policy: str) -> None:
    result = redact_bytes(jsonfix.openhands_events(jsonfix.plain()), name="events.json", policy=policy,
                          key=KEY if policy == "public" else None)
    assert result.session_map["session"]["agentTool"] == "openhands"


_OLDER = {"TerminalAction": "ExecuteBashAction", "FileEditorAction": "StrReplaceEditorAction"}


def _renamed(data: bytes, names: dict[str, str]) -> list[object]:
    events = orjson.loads(data)
    for event in events:
        action = event.get("action")
        if isinstance(action, dict) and action.get("kind") in names:
            action["kind"] = names[action["kind"]]
    return events  # type: ignore[no-any-return]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_older_action_kinds_are_scrubbed_as_their_renamed_kinds(base: str) -> None:
    """`ExecuteBashAction` and `StrReplaceEditorAction` (older SDKs) have the fields of the kinds they
    were renamed to: natively they come out as those do, field for field, and no canary survives."""
    canaries = Canaries(base)
    newer = jsonfix.openhands_events(canaries)
    older = orjson.dumps(_renamed(newer, _OLDER))
    outs = []
    for data in (newer, older):
        outs.append(scrub_native(data, "openhands", name="events.json", policy=load_policy("default"), key=None,
                                 mode=None, report=RedactionReport(source="x")))
        assert not [c for c in canaries.all if c in outs[-1].decode()]
    assert _renamed(outs[1], {old: new for new, old in _OLDER.items()}) == orjson.loads(outs[0])
