"""Amp threads: T-<uuid>.json into a map, and scrubbed natively."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings

from redact.api import redact_file
from redact.cli import main
from redact.formats.detect import detect
from redact.api_native import scrub_native
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import jsonfix
from tests.formats.canary import POLICIES, Canaries, canary_base, check

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def test_a_thread_becomes_a_map(tmp_path: Path) -> None:
    threads = tmp_path / "threads"
    threads.mkdir()
    path = threads / f"{jsonfix.AMP_ID}.json"
    path.write_bytes(jsonfix.amp_thread(jsonfix.plain()))
    assert detect(path.read_bytes(), "x") == "amp"
    m = redact_file(path).session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = jsonfix.AMP_COUNTS
    assert m["session"]["agentTool"] == "amp" and m["session"]["id"].endswith(jsonfix.AMP_ID[2:])
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e.get("in", 0) for e in llm) == want["in"] and sum(e.get("out", 0) for e in llm) == want["out"]
    shells = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert [e.get("exitCode") for e in shells] == [0, 1]
    assert sorted(f["path"] for f in m["files"]) == ["src/app.ts", "src/new.ts"]
    assert [e.get("host") for e in m["events"] if e["kind"] == "web"] == ["ampcode.com"]
    assert any(e.get("errClass") == "permission_denied" for e in m["events"])
    out = tmp_path / "out"
    assert main([str(threads), "--out-dir", str(out)]) == 0  # ~/.local/share/amp/threads
    assert len(list(out.glob("*.json.gz"))) == 1


def test_native_keeps_the_thread_and_drops_the_text() -> None:
    data = jsonfix.amp_thread(jsonfix.plain())
    out = scrub_native(data, "amp", name="t.json", policy=load_policy("default"), key=None, mode=None,
                       report=RedactionReport(source="x"))
    doc = orjson.loads(out)
    assert b"plain words" not in out and "~debug" not in doc
    calls = [b for m in doc["messages"] for b in m["content"] if b["type"] == "tool_use"]
    assert calls[0]["input"] == {"cmd": "git status"}
    assert calls[2]["input"] == {"path": "src/app.ts"}
    assert doc["messages"][1]["usage"]["outputTokens"] == 86


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_a_map_or_native(base: str) -> None:
    canaries = Canaries(base)
    data = jsonfix.amp_thread(canaries)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="T.json")
        out = scrub_native(data, "amp", name="t.json", policy=load_policy(policy), key=key, mode=None,
                           report=RedactionReport(source="x")).decode()
        assert not [c for c in canaries.all if c in out]


def test_the_title_generation_call_is_an_llm_event_that_switches_no_model() -> None:
    """Issue 25: the ledger's title-generation model call (in no message) was dropped. It is an llm
    event of its own, with its model and tokens; it is not the model driving the thread."""
    doc = orjson.loads(jsonfix.amp_thread(jsonfix.plain()))
    doc["usageLedger"]["events"].insert(0, {
        "id": "d7e0421e-72b4-4715-b465-e7b2401c838e", "timestamp": "2025-10-27T20:20:11.775Z",
        "model": "claude-3-5-haiku-20241022", "credits": 0.058, "tokens": {"input": 590, "output": 27},
        "operationType": "title-generation", "fromMessageId": 0, "toMessageId": 0})
    from redact.api import redact_bytes

    plain = redact_bytes(jsonfix.amp_thread(jsonfix.plain()), name="t.json").session_map
    m = redact_bytes(orjson.dumps(doc), name="t.json").session_map
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    title = [e for e in llm if e.get("model") == "claude-3-5-haiku-20241022"]
    assert len(title) == 1 and (title[0]["in"], title[0]["out"]) == (590, 27)
    assert m["totals"]["requests"] == plain["totals"]["requests"] + 1
    assert m["totals"]["tokens"] == plain["totals"]["tokens"] + 590 + 27
    assert not [e for e in m["events"] if e["kind"] == "model_switch"]
    assert m["totals"]["modelSwitches"] == plain["totals"]["modelSwitches"]
