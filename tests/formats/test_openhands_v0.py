"""OpenHands V0 (issue 25: refused as "unknown input format"): the trajectory export and the file store
`~/.openhands/sessions/<id>/` read into a map, counted against the fixture's records; the file store
read as one conversation from any of its files, and one session a folder in batch mode; native
output for the text forms; no canary of any text slot in any map or native output."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from redact.api import redact_bytes, redact_file
from redact.api_native import scrub_native
from redact.cli import main
from redact.formats.detect import detect
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import jsonfix, v0fix
from tests.formats.canary import POLICIES, Canaries, canary_base, check
from tests.maps import shell_commands

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _tokens(records: list[dict[str, Any]]) -> int:
    """Prompt + completion tokens of each model response, once per response id (from the records)."""
    seen: dict[str, int] = {}
    for e in records:
        resp = (e.get("tool_call_metadata") or {}).get("model_response")
        if "action" in e and isinstance(resp, dict):
            usage = resp["usage"]
            seen[resp["id"]] = usage["prompt_tokens"] + usage["completion_tokens"]
    return sum(seen.values())


def _check_counts(m: dict[str, Any], records: list[dict[str, Any]], *, store: bool) -> None:
    want = v0fix.COUNTS
    kinds = Counter(e["kind"] for e in m["events"])
    assert m["session"]["agentTool"] == "openhands"
    if store:  # the folder names the conversation; a trajectory's events do not (a stand-in id)
        assert m["session"]["id"] == f"local:openhands:{v0fix.CONVERSATION}"
    assert kinds["user"] == want["user"] and m["totals"]["promptImages"] == want["images"]
    assert kinds["llm"] == m["totals"]["requests"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == m["totals"]["calls"] == want["calls"]
    assert shell_commands(m) == want["shell"] and kinds["edit"] == want["edits"] and kinds["read"] == want["reads"]
    assert kinds["mcp"] == want["mcp"] and kinds["compaction"] == want["compactions"]
    assert kinds["error"] == want["error_events"]
    assert sum(1 for e in m["events"] if e["kind"] in CALLS and e.get("err")) == want["tool_errors"]
    assert m["totals"]["tokens"] == _tokens(records)
    assert m["session"]["models"] == [v0fix.MODEL]
    # the repository OpenHands cloned is the root: files are repo-relative
    assert sorted(f["path"] for f in m["files"]) == ["README.md", "new.py"]
    assert next(f for f in m["files"] if f["path"] == "new.py").get("op") == "create"
    first = min(e["timestamp"] for e in records)
    assert m["session"]["startedAt"] >= first[:23]  # never before the first recorded time


def test_a_trajectory_becomes_a_map() -> None:
    data = v0fix.trajectory(jsonfix.plain())
    assert detect(data, "x.json") == "openhands-v0"
    m = redact_bytes(data, name=f"{v0fix.CONVERSATION}.json").session_map
    _check_counts(m, orjson.loads(data), store=False)


def test_every_file_of_the_store_reads_as_the_whole_conversation(tmp_path: Path) -> None:
    conv = v0fix.file_store(tmp_path / "sessions", jsonfix.plain())
    records = [orjson.loads(p.read_bytes()) for p in (conv / "events").iterdir()]
    maps = []
    for path in (conv / "metadata.json", conv / "events" / "0.json", conv / "events" / "7.json",
                 conv / "event_cache" / "0-25.json"):
        result = redact_file(path)
        _check_counts(result.session_map, records, store=True)
        maps.append(result.session_map["events"])
    assert all(events == maps[0] for events in maps)


def test_batch_finds_one_session_a_folder(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    v0fix.file_store(sessions, jsonfix.plain())
    out = tmp_path / "out"
    assert main([str(sessions), "--out-dir", str(out)]) == 0
    written = list(out.glob("*.json.gz"))
    assert len(written) == 1  # one map for the conversation, not one per event file
    import gzip

    m = orjson.loads(gzip.decompress(written[0].read_bytes()))
    assert m["session"]["id"] == f"local:openhands:{v0fix.CONVERSATION}" and m["totals"]["calls"] == 8


def test_native_keeps_the_events_and_drops_the_text() -> None:
    data = v0fix.trajectory(jsonfix.plain())
    report = RedactionReport(source="x")
    out = scrub_native(data, "openhands-v0", name="t.json", policy=load_policy("default"), key=None, mode=None,
                       report=report)
    doc = orjson.loads(out)
    assert b"plain words" not in out
    kinds = [e.get("action") or e.get("observation") for e in doc]
    assert "frobnicate" not in kinds and kinds.count("run") == 4  # two calls and their results
    run = next(e for e in doc if e.get("action") == "run")
    assert run["tool_call_metadata"]["model_response"]["usage"]["prompt_tokens"] == 100
    assert "choices" not in run["tool_call_metadata"]["model_response"]


@given(canary_base)
@settings(max_examples=5, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_no_canary_in_any_map(base: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(v0fix.trajectory(c), c, policy, key, name="t.json")


@pytest.mark.parametrize("policy,key", POLICIES)
def test_no_canary_survives_native(policy: str, key: Any) -> None:
    c = Canaries("nat")
    data = v0fix.trajectory(c)
    out = scrub_native(data, "openhands-v0", name="t.json", policy=load_policy(policy), key=key, mode=None,
                       report=RedactionReport(source="x"))
    assert not [w for w in c.all if w.encode() in out]


def test_a_trajectory_longer_than_the_detection_head_is_read(tmp_path: Path) -> None:
    """A pretty-printed list longer than the first MiB does not parse from the head alone (taken for
    a map there): detection runs again on the whole file, which is read, not refused."""
    records = v0fix.events(jsonfix.plain())
    records[2]["args"]["content"] = "long words " * 120_000  # a prompt of 1.3 MB
    path = tmp_path / "trajectory.json"
    path.write_bytes(orjson.dumps(records, option=orjson.OPT_INDENT_2))
    assert path.stat().st_size > 1 << 20
    m = redact_file(path).session_map
    assert m["totals"]["calls"] == v0fix.COUNTS["calls"] and m["totals"]["promptChars"] > 1_000_000


@pytest.mark.parametrize(("tool", "server"), [("create_pr", "openhands"), ("tavily_search", "unknown")])
def test_an_mcp_call_names_its_server_only_when_known(tmp_path: Path, tool: str, server: str) -> None:
    """A V0 MCP action names its tool only: OpenHands' own server is named for the tools it serves
    (create_pr), any other tool's server is not recorded, never made up (issue 25)."""
    records = v0fix.events(jsonfix.plain())
    for e in records:
        if e.get("action") == "call_tool_mcp":
            e["args"]["name"] = tool
    path = tmp_path / "trajectory.json"
    path.write_bytes(orjson.dumps(records))
    m = redact_file(path, policy="internal").session_map
    assert [(e["server"], e["tool"]) for e in m["events"] if e["kind"] == "mcp"] == [(server, tool)]
