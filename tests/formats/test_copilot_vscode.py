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


# -- issue 25: one call, two spellings; the request's own duration -----------------------------------
def _spelled_twice(rounds_names: list[str], tool_ids: list[str], elapsed: int | None = 7_500) -> bytes:
    """A request whose rounds name each tool as the model calls it (`read_file`) while the response's
    invocation parts carry VS Code's own id (`copilot_readFile`), as real chatSessions files do."""
    calls = [{"name": n, "arguments": orjson.dumps({"filePath": f"/w/p/f{i}.py", "command": "ls"}).decode(),
              "id": f"call_{i}"} for i, n in enumerate(rounds_names)]
    parts = [{"kind": "toolInvocationSerialized", "toolId": tid, "toolCallId": f"uuid-{i}", "isComplete": True,
              "source": {"type": "internal", "label": "built-in"}, "resultDetails": {"isError": i == 0}}
             for i, tid in enumerate(tool_ids)]
    result: dict[str, Any] = {"metadata": {"toolCallRounds": [{"response": "r", "toolCalls": calls},
                                                              {"response": "done", "toolCalls": []}]}}
    if elapsed is not None:
        result["timings"] = {"firstProgress": 800, "totalElapsed": elapsed}
    doc = {"version": 3, "sessionId": SESSION_ID, "creationDate": 1_759_343_988_000, "requests": [
        {"requestId": "request_1", "timestamp": 1_759_343_988_690, "modelId": "copilot/gpt-4.1",
         "message": {"text": "fix it"}, "response": parts, "result": result}]}
    return orjson.dumps(doc)


def test_a_call_spelled_two_ways_is_one_call() -> None:
    names = ["read_file", "run_in_terminal", "replace_string_in_file"]
    m = _map(_spelled_twice(names, ["copilot_readFile", "copilot_runInTerminal", "copilot_replaceString"]))
    calls = [e for e in m["events"] if e["kind"] in CALL_KINDS]
    assert m["totals"]["calls"] == len(calls) == 3
    assert [e["kind"] for e in calls] == ["read", "search", "edit"]  # `ls` in the terminal is a search
    assert calls[0].get("err") is True and not calls[1].get("err")  # the invocation's isError reached its call


def test_unequal_lists_pair_by_either_spelling() -> None:
    """One more invocation than round calls: each call takes its own tool's part, the rest is a call."""
    m = _map(_spelled_twice(["read_file"], ["copilot_runInTerminal", "copilot_readFile"]))
    calls = [e for e in m["events"] if e["kind"] in CALL_KINDS]
    assert [e["kind"] for e in calls] == ["read", "exec"]
    assert "err" not in calls[0] and calls[1]["err"] is True  # each got its own part, not the first one


def test_the_request_lasts_its_total_elapsed() -> None:
    assert _map(_spelled_twice(["read_file"], ["copilot_readFile"]))["session"]["durationMs"] == 7_500
    assert _map(_spelled_twice(["read_file"], ["copilot_readFile"], None))["session"]["durationMs"] == 0
