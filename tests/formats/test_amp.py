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
