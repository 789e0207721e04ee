"""VS Code Copilot Chat sessions (chatSessions documents and exported chats): detection, the map's
events by kind, the workspace folder as repository root, native scrubbing, batch discovery from a VS
Code user folder, and canaries in every text slot never surviving any policy."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes, redact_file
from redact.formats.detect import detect
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.native.helpers import native, report_text
from tests.native.vscodefix import SESSION_ID, chat, edit_log, requests

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _map(data: bytes) -> dict[str, Any]:
    return redact_bytes(data, name="in").session_map


@pytest.mark.parametrize("export", [False, True])
def test_detected_and_counted(export: bool) -> None:
    """Counts made from the fixture's requests, not by the reader: one llm event per round, one call
    per round's tool call, plus the invocations no round lists."""
    data = chat(Canaries("cnt"), export=export)
    assert detect(data, "x") == "copilot-vscode"
    reqs = requests(Canaries("cnt"))
    m = _map(data)
    assert m["session"]["agentTool"] == "copilot-vscode" and m["session"]["id"].endswith(SESSION_ID)
    kinds = Counter(e["kind"] for e in m["events"])
    rounds = [r for q in reqs for r in (q["result"].get("metadata") or {}).get("toolCallRounds") or []]
    listed = sum(len(r["toolCalls"]) for r in rounds)
    unlisted = sum(1 for q in reqs if not (q["result"].get("metadata") or {}).get("toolCallRounds")
                   for p in q["response"] if p.get("kind") == "toolInvocationSerialized")
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == listed + unlisted
    assert kinds["llm"] == len(rounds) + 1  # the second request has no rounds but shows markdown
    assert kinds["user"] == len(reqs) and m["totals"]["tokens"] == 0  # no usage recorded: none invented
    assert all("dur" not in e for e in m["events"] if e["kind"] in CALL_KINDS)  # results carry no time


def test_tools_errors_and_outputs() -> None:
    ev = _map(chat(Canaries("res")))["events"]
    assert [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    mcp = next(e for e in ev if e["kind"] == "mcp")
    assert (mcp["server"], mcp["tool"]) == ("playwright", "browser_navigate")
    edit = [e for e in ev if e["kind"] == "edit"]
    assert edit[0]["err"] is True and edit[1]["targets"][0]["op"] == "create"  # the patch adds a file
    assert next(e for e in ev if e["kind"] == "web")["host"] == "docs.example.org"
    assert next(e for e in ev if e["kind"] == "verify")["verb"] == "npm test"  # an unlisted invocation
    assert [(e["source"], e["errClass"]) for e in ev if e["kind"] == "error"] == [
        ("llm", "rate_limit"), ("orchestration", "interrupted")]


def test_the_workspace_folder_is_the_repository_root(tmp_path: Path) -> None:
    storage = tmp_path / "User" / "workspaceStorage" / "eb1d1323cf2e79fbf8370f6c99fb15fe"
    (storage / "chatSessions").mkdir(parents=True)
    session = storage / "chatSessions" / f"{SESSION_ID}.json"
    session.write_bytes(chat(Canaries("ws")))
    (storage / "workspace.json").write_text('{"folder": "file:///home/mele/src/shop"}')
    m = redact_file(session).session_map
    assert m["repos"][0]["name"] == "shop"
    assert {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py", "src/new.py"}
    tasks, _ = batch.plan([str(tmp_path / "User")], tmp_path / "out")
    assert [Path(t.output).name for t in tasks] == [f"{SESSION_ID}.json.gz"]


LAYOUTS = ("document", "export", "log")


def _layout(c: Canaries, layout: str) -> bytes:
    return edit_log(c) if layout == "log" else chat(c, export=layout == "export")


def test_the_edit_log_is_replayed_into_the_same_session(tmp_path: Path) -> None:
    """The JSONL edit log newer VS Code writes: detected, replayed (pushes, sets, deletes, a cut), and
    the same map as the document it describes; an entry whose path is not there is counted."""
    log = edit_log(Canaries("log"))
    assert detect(log, "x") == "copilot-vscode"
    result = redact_bytes(log, name="in")
    assert result.session_map["events"] == _map(chat(Canaries("log")))["events"]
    assert result.report.skipped_records["<edit not applied>"] == 1
    out, _ = native(log, "copilot-vscode")
    assert out.count(b"\n") == 1 and orjson.loads(out)["kind"] == 0  # written back compacted
    assert redact_bytes(out, name="n", input_format="copilot-vscode").session_map["totals"]["calls"] == 7
    folder = tmp_path / "workspaceStorage" / "ab12" / "chatSessions"
    folder.mkdir(parents=True)
    (folder / f"{SESSION_ID}.jsonl").write_bytes(log)
    tasks, _ = batch.plan([str(tmp_path / "workspaceStorage")], tmp_path / "out")
    assert [Path(t.output).name for t in tasks] == [f"{SESSION_ID}.json.gz"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(LAYOUTS))
def test_no_canary_in_any_map(base: str, layout: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(_layout(c, layout), c, policy, key, name="chat.json")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(LAYOUTS), policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, layout: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(_layout(c, layout), "copilot-vscode", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "mele" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="copilot-vscode", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_what_the_table_allows() -> None:
    out, report = native(chat(Canaries("nat")), "copilot-vscode")
    doc = orjson.loads(out)
    assert doc["sessionId"] == SESSION_ID and "requesterUsername" not in doc
    first = doc["requests"][0]
    assert first["modelId"] == "copilot/gpt-4.1" and set(first["message"]["text"]) == {"chars"}
    calls = first["result"]["metadata"]["toolCallRounds"][0]["toolCalls"]
    assert [x["name"] for x in calls] == ["copilot_readFile", "copilot_replaceString"]
    assert "toolCallResults" not in first["result"]["metadata"] and "followups" not in first
    assert len(first["response"]) == 8 and sum(report.skipped_records.values()) == 1  # the unknown part
    edit = next(p for p in first["response"] if p.get("kind") == "textEditGroup")
    assert edit["uri"]["fsPath"].startswith("~") and edit["uri"]["scheme"] == "file"  # a path, in its bucket
    terminal = doc["requests"][1]["response"][1]["toolSpecificData"]
    assert terminal["commandLine"]["original"] == "npm test"
    assert redact_bytes(out, name="n", input_format="copilot-vscode").session_map["totals"]["calls"] == 7
