"""Kiro's session store `~/.kiro/sessions/<workspace>/sess_<id>/{session.json, messages.jsonl}`, on
fixtures built from the public descriptions of the store (tests/formats/kirofix.py `store_events`):
detection of either file, the folder's listing and the home's discovery, the map counted from the
events here, a session.json alone, a tangent's parent, `--to native` for the log, and canaries in
every text slot never surviving any policy."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from redact.api import redact_bytes, redact_file
from redact.batch import run as batch
from redact.formats.detect import detect
from redact.formats.registry import raw_format
from redact.policy.load import load_policy
from tests.formats import kirofix
from tests.formats.canary import POLICIES, Canaries, canary_base, check
from tests.formats.jsonfix import plain
from tests.formats.seed_strict import violations
from tests.native.helpers import lines, native


def _counts(events: list[dict[str, object]]) -> Counter[str]:
    """Prompts, tool calls (a subagent launch is one) and failed results, straight from the events."""
    n: Counter[str] = Counter()
    for e in events:
        p = e["payload"]
        assert isinstance(p, dict)
        if p["type"] == "user":
            n["user"] += 1
        elif p["type"] in ("tool_call", "sub_agent_start"):
            n["calls"] += 1
        elif p["type"] == "tool_result" and (p.get("isError") is True or p.get("status") == "error"):
            n["errors"] += 1
    return n


def test_either_file_is_detected() -> None:
    assert detect(kirofix.store_log(plain()), "messages.jsonl") == "kiro-ide-log"
    doc = orjson.dumps(kirofix.store_session(plain()), option=orjson.OPT_INDENT_2)
    assert detect(doc, "session.json") == "kiro-ide-log"


def test_the_log_becomes_a_map_with_its_session(tmp_path: Path) -> None:
    path = kirofix.write_ide_store(tmp_path, plain())
    out = tmp_path / "m.json"
    m = redact_file(path, out).session_map
    assert out.is_file() and violations(m) == []
    kinds = Counter(e["kind"] for e in m["events"])
    want = _counts(kirofix.store_events(plain()))
    assert kinds["user"] == want["user"] == kirofix.STORE_COUNTS["user"]
    assert m["totals"]["calls"] == want["calls"] == kirofix.STORE_COUNTS["calls"]
    assert kinds["llm"] == kirofix.STORE_COUNTS["llm"]
    assert sum(1 for e in m["events"] if e.get("err") and e["kind"] != "error") == want["errors"]
    assert m["session"]["models"] == ["claude-sonnet-4.5"] and m["session"]["startedAt"] == "2026-09-04T11:00:02.286Z"
    assert m["session"]["outcome"] == "interrupted"  # the last turn was cancelled
    test = next(e for e in m["events"] if e.get("verb") == "npm test")
    assert test["err"] is True
    assert next(e for e in m["events"] if e["kind"] == "subagent")["subagentType"] == "reviewer"
    assert kinds["compaction"] == 1 and m["totals"]["tokens"] == 0  # credits are not tokens
    assert any(e["kind"] == "llm" and e.get("thinking") for e in m["events"])


def test_a_session_json_given_alone_reads_its_log(tmp_path: Path) -> None:
    path = kirofix.write_ide_store(tmp_path, plain())
    by_log = redact_file(path, tmp_path / "a.json").session_map
    by_meta = redact_file(path.parent / "session.json", tmp_path / "b.json").session_map
    assert by_meta["events"] == by_log["events"] and by_meta["session"]["id"] == by_log["session"]["id"]


def test_a_session_with_no_log_has_no_events_and_says_so(tmp_path: Path) -> None:
    path = kirofix.write_ide_store(tmp_path, plain(), log=False)
    out = tmp_path / "m.json"
    result = redact_file(path, out)
    assert out.is_file() and result.session_map["events"] == []
    assert result.session_map["session"]["startedAt"] == "2026-09-04T11:01:25.000Z"  # lastModifiedAt
    assert any("no events" in w for w in result.report.warnings)


def test_a_tangent_names_its_parent(tmp_path: Path) -> None:
    path = kirofix.write_ide_store(tmp_path, plain(), parentSessionId="sess_parent01", createdReason="tangent")
    s = redact_file(path, tmp_path / "m.json").session_map["session"]
    assert s["role"] == "subagent" and s["parentSessionId"]


def test_the_home_and_the_folders_find_the_session(tmp_path: Path) -> None:
    path = kirofix.write_ide_store(tmp_path, plain())
    fmt = raw_format("kiro-ide-log")
    assert fmt is not None and fmt.homes == ("~/.kiro/sessions/*",)
    for folder in (tmp_path / ".kiro" / "sessions" / kirofix.STORE_WORKSPACE, path.parent):
        assert fmt.list_sessions(folder) == [path]
    tasks, _ = batch.plan([str(tmp_path / ".kiro" / "sessions")], tmp_path / "out")
    assert [Path(str(t.input)) for t in tasks] == [path]
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}
    assert [o.input for o in batch.skipped_in(tmp_path / ".kiro")] == [str(path.parent / "session.json")]


def test_native_keeps_every_event_and_no_text() -> None:
    c = Canaries("n")
    data = kirofix.store_log(c)
    out, report = native(data, "kiro-ide-log")
    got = lines(out)
    assert len(got) == len(kirofix.store_events(c))
    assert not [x for x in c.all if x.encode() in out] and b"reasoningSignature" not in out
    calls = [r["payload"] for r in got if r["payload"]["type"] == "tool_call"]
    assert calls[0]["args"]["command"] == "npm test"
    again = redact_bytes(out, name="n", input_format="kiro-ide-log").session_map
    assert again["totals"]["calls"] == kirofix.STORE_COUNTS["calls"]


def test_native_session_json_stays_one_document() -> None:
    c = Canaries("s")
    out, _ = native(orjson.dumps(kirofix.store_session(c), option=orjson.OPT_INDENT_2), "kiro-ide-log")
    doc = orjson.loads(out)
    assert doc["id"] == kirofix.STORE_ID and doc["workspacePaths"] == ["."] and "title" in doc
    assert not [x for x in c.all if x.encode() in out]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_any_map(base: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(kirofix.store_log(c), c, policy, key, name="messages.jsonl")


@pytest.mark.parametrize("policy", ["default", "public"])
def test_no_canary_with_its_session_json(tmp_path: Path, policy: str) -> None:
    from tests.formats.canary import check_file

    c = Canaries("f")
    path = kirofix.write_ide_store(tmp_path, c)
    check_file(path, c, policy, dict(POLICIES)[policy])
