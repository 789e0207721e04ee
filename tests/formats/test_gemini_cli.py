"""Gemini CLI chat recordings (both layouts): detection, the map's events by kind, native scrubbing,
batch discovery from `~/.gemini`, and canaries in every text slot never surviving any policy."""
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
from redact.errors import BadInput
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.native.geminifix import SESSION_ID, messages, recording
from tests.native.helpers import lines, native, report_text

LAYOUTS = ("jsonl", "json")


def _map(data: bytes, policy: str = "default") -> dict[str, Any]:
    return redact_bytes(data, name="in", policy=policy, key=KEY if policy == "public" else None).session_map


@pytest.mark.parametrize("layout", LAYOUTS)
def test_detected_from_the_content(layout: str) -> None:
    assert detect(recording(Canaries("det"), layout=layout), "x") == "gemini-cli"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_events_by_kind_agree_with_the_recording(layout: str) -> None:
    """Counted from the fixture's messages (not from the reader): each message once, even when the
    JSONL layout writes it twice; each tool call one event of its kind."""
    msgs = messages(Canaries("cnt"))
    m = _map(recording(Canaries("cnt"), layout=layout))
    assert m["session"]["agentTool"] == "gemini-cli" and m["session"]["id"].endswith(SESSION_ID)
    kinds = Counter(e["kind"] for e in m["events"])
    assert kinds["user"] == sum(1 for x in msgs if x["type"] == "user")
    assert kinds["llm"] == sum(1 for x in msgs if x["type"] == "gemini")
    calls = [tc for x in msgs for tc in x.get("toolCalls", [])]
    call_kinds = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
    assert sum(kinds[k] for k in call_kinds) == len(calls) == m["totals"]["calls"]
    assert kinds["exec"] + kinds["verify"] == sum(1 for tc in calls if tc["name"] == "run_shell_command")
    assert kinds["edit"] == sum(1 for tc in calls if tc["name"] in ("replace", "write_file"))
    assert kinds["mcp"] == 1 and kinds["web"] == 1 and kinds["search"] == 1 and kinds["tool"] == 1
    tokens = sum(t["input"] + t["output"] + t["thoughts"] for x in msgs if (t := x.get("tokens")))
    assert m["totals"]["tokens"] == tokens
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert (llm[0]["in"], llm[0]["cr"], llm[0]["out"]) == (600, 400, 80) and llm[0]["thinking"] is True
    assert [e["toolCalls"] for e in llm] == [len(x.get("toolCalls", [])) for x in msgs if x["type"] == "gemini"]
    assert llm[2]["in"] == 0 and llm[2]["out"] == 0  # no tokens recorded: absent, never invented


def test_results_errors_and_outputs() -> None:
    m = _map(recording(Canaries("res")))
    events = m["events"]
    shell = next(e for e in events if e.get("verb") == "git commit")
    assert shell["exitCode"] == 0 and not shell.get("err")
    assert [e["sha"] for e in events if e["kind"] == "commit"] == ["1a2b3c4"]  # confirmed by git's output
    edit = next(e for e in events if e["kind"] == "edit" and e.get("err"))
    assert edit["errClass"] == "patch_failed"
    test = next(e for e in events if e["kind"] == "verify")
    assert test["exitCode"] == 1 and test["errClass"] == "exit_code"
    assert next(e for e in events if e["kind"] == "tool")["errClass"] == "interrupted"  # cancelled
    errors = [(e["source"], e["errClass"]) for e in events if e["kind"] == "error"]
    assert errors == [("llm", "rate_limit"), ("orchestration", "interrupted")]
    assert next(e for e in events if e["kind"] == "mcp")["server"] == "github"
    outside = next(e for e in events if e.get("tool") == "write_file")
    assert outside["targets"][0]["label"] == "/tmp (scratch)"
    assert m["repos"][0]["name"] == "shop" and {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py"}


def test_a_recording_without_directories_places_absolute_paths_in_buckets() -> None:
    m = _map(recording(Canaries("nod"), directories=False))
    assert not m.get("files") and all("mele" not in orjson.dumps(e).decode() for e in m["events"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(LAYOUTS))
def test_no_canary_in_any_map(base: str, layout: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(recording(c, layout=layout), c, policy, key)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(LAYOUTS), policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, layout: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(recording(c, layout=layout), "gemini-cli", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "mele" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="gemini-cli", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_the_layout_and_what_the_table_allows() -> None:
    data = recording(Canaries("nat"))
    out, _ = native(data, "gemini-cli")
    got = lines(out)
    assert len(got) == len(lines(data))  # line for line
    assert got[0]["sessionId"] == SESSION_ID and got[0]["kind"] == "main"
    first = next(r for r in got if r.get("type") == "gemini" and r.get("toolCalls"))
    shell = first["toolCalls"][0]
    assert shell["args"]["command"] == "git commit" and set(shell["args"]["description"]) == {"chars"}
    assert "resultDisplay" not in shell and "displayName" not in shell
    assert first["model"] == "gemini-2.5-pro" and first["tokens"]["cached"] == 400
    doc = orjson.loads(native(recording(Canaries("nat"), layout="json"), "gemini-cli")[0])
    assert doc["sessionId"] == SESSION_ID and len(doc["messages"]) == len(messages(Canaries("n")))
    assert redact_bytes(out, name="n", input_format="gemini-cli").session_map["totals"]["calls"] == 9


def _home(tmp_path: Path) -> Path:
    """A `~/.gemini` with one project: two chats, a checkpoint, the prompt log, the shell history, a
    tool output, and the OAuth credentials beside them."""
    gemini = tmp_path / ".gemini"
    project = gemini / "tmp" / ("ab" * 32)
    (project / "chats").mkdir(parents=True)
    (project / "chats" / "session-2026-04-25T08-00-3f0c9a1e.jsonl").write_bytes(recording(Canaries("b1")))
    (project / "chats" / "session-2025-11-06T14-11-3f0c9a1e.json").write_bytes(
        recording(Canaries("b2"), layout="json"))
    (project / "checkpoint-mytag.json").write_bytes(b'[{"role": "user", "parts": [{"text": "zqsecretqz"}]}]')
    (project / "logs.json").write_bytes(b'[{"sessionId": "x", "message": "zqsecretqz"}]')
    (project / "shell_history").write_bytes(b"zqsecretqz\n")
    (project / "tool-outputs").mkdir()
    (project / "tool-outputs" / "read_file_1.txt").write_bytes(b"zqsecretqz")
    (gemini / "oauth_creds.json").write_bytes(b'{"access_token": "ya29.zqsecretqz"}')
    return gemini


@pytest.mark.parametrize("start", [".gemini", ".gemini/tmp", ".gemini/tmp/" + "ab" * 32])
def test_batch_finds_the_chats_and_skips_the_rest_by_name(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    assert sorted(Path(t.input).name for t in tasks) == ["session-2025-11-06T14-11-3f0c9a1e.json",
                                                         "session-2026-04-25T08-00-3f0c9a1e.jsonl"]
    assert sorted(Path(t.output).name for t in tasks) == ["session-2025-11-06T14-11-3f0c9a1e.json.gz",
                                                          "session-2026-04-25T08-00-3f0c9a1e.json.gz"]
    skipped = {Path(o.input).name: o for o in other}
    assert all(o.status == batch.SKIPPED and o.exit_code == 0 for o in other)
    expected = {"checkpoint-mytag.json", "logs.json", "shell_history", "read_file_1.txt"}
    if start == ".gemini":
        expected.add("oauth_creds.json")
    assert set(skipped) == expected
    assert all("zqsecretqz" not in o.message for o in other)
    outcomes = batch.run(tasks, batch.Settings(policy=__import__("redact.policy.load", fromlist=["x"])
                                               .load_policy("default")))
    assert [o.status for o in outcomes] == [batch.WRITTEN, batch.WRITTEN]


def test_a_credential_file_is_never_read(tmp_path: Path) -> None:
    gemini = _home(tmp_path)
    with pytest.raises(BadInput) as caught:
        redact_file(gemini / "oauth_creds.json")
    assert "zqsecretqz" not in caught.value.diagnostic()
    tasks, other = batch.plan([str(gemini / "oauth_creds.json")], tmp_path / "out")
    assert not tasks and [o.status for o in other] == [batch.SKIPPED]


def test_a_subagent_recording_names_its_parent(tmp_path: Path) -> None:
    """`chats/<parent>/<id>.jsonl` with `kind: "subagent"`: a session of role subagent, its parent the
    folder's session id; batch mode finds it beside the parent's recording."""
    parent = "3f0c9a1e-5b2d-4e6f-8a7b-9c0d1e2f3a4b"
    chats = tmp_path / "tmp" / "proj" / "chats"
    (chats / parent).mkdir(parents=True)
    lines_ = recording(Canaries("sub")).split(b"\n")
    head = orjson.loads(lines_[0])
    head.update(kind="subagent", sessionId="9d2e3f4a-1b2c-4d3e-8f4a-5b6c7d8e9f0a")
    sub = chats / parent / "9d2e3f4a-1b2c-4d3e-8f4a-5b6c7d8e9f0a.jsonl"
    sub.write_bytes(b"\n".join([orjson.dumps(head), *lines_[1:]]))
    (chats / "session-2026-04-25T08-00-3f0c9a1e.jsonl").write_bytes(recording(Canaries("par")))
    session = redact_file(sub).session_map["session"]
    assert session["role"] == "subagent" and session["parentSessionId"].endswith(parent)
    assert sorted(p.name for p in batch.sessions_in(tmp_path / "tmp")) == [
        "9d2e3f4a-1b2c-4d3e-8f4a-5b6c7d8e9f0a.jsonl", "session-2026-04-25T08-00-3f0c9a1e.jsonl"]


def test_the_cli_says_what_it_skipped_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from redact.cli import main

    gemini = _home(tmp_path)
    code = main([str(gemini), "--out-dir", str(tmp_path / "out"), "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 0 and "zqsecretqz" not in err
    assert "oauth_creds.json: skipped (a credential file, never read)" in err
    assert "wrote 2 map(s)" in err and "skipped 5 file(s) that are not sessions" in err
    assert main([str(gemini / "oauth_creds.json"), "-o", str(tmp_path / "x.json")]) == 2
    assert "never read as a session" in capsys.readouterr().err


# -- issue 25: a repository from the touched paths and the project hash; write_file of a new file -----
def _older_chat(project: str, calls: list[tuple[str, dict[str, Any], str]]) -> bytes:
    """An older single-JSON chat: no `directories`, the project folder named only by its sha256."""
    import hashlib

    tool_calls = [{"id": f"c{i}", "name": name, "args": args, "status": "success",
                   "timestamp": "2025-11-07T00:08:00.000Z",
                   "result": [{"functionResponse": {"id": f"c{i}", "name": name, "response": {"output": out}}}]}
                  for i, (name, args, out) in enumerate(calls)]
    return orjson.dumps({
        "sessionId": SESSION_ID, "projectHash": hashlib.sha256(project.encode()).hexdigest(),
        "startTime": "2025-11-07T00:07:53.626Z", "lastUpdated": "2025-11-07T00:46:37.409Z",
        "messages": [{"id": "m1", "timestamp": "2025-11-07T00:07:53.626Z", "type": "user", "content": "fix it"},
                     {"id": "m2", "timestamp": "2025-11-07T00:07:59.000Z", "type": "gemini", "content": "ok",
                      "toolCalls": tool_calls, "model": "gemini-2.5-pro"}]})


def _targets(m: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for e in m["events"] for t in e.get("targets", ())]


def test_the_touched_paths_and_the_project_hash_give_the_repository() -> None:
    root = "/home/mele/src/shop"
    m = _map(_older_chat(root, [
        ("read_file", {"absolute_path": f"{root}/src/app.py"}, "x = 1"),
        ("replace", {"file_path": "src/app.py", "old_string": "1", "new_string": "2"},
         f"Successfully modified file: {root}/src/app.py (1 replacements)."),
        ("write_file", {"file_path": f"{root}/src/new.py", "content": "y"},
         f"Successfully created and wrote to new file: {root}/src/new.py."),
        ("write_file", {"file_path": f"{root}/README.md", "content": "z"},
         f"Successfully overwrote file: {root}/README.md.")]), policy="internal")
    assert [r.get("name") for r in m["repos"]] == ["shop"]
    assert sorted(f["path"] for f in m["files"]) == ["README.md", "src/app.py", "src/new.py"]
    assert not [t for t in _targets(m) if "label" in t]  # no bucket: read then edited is one file
    app = next(f["id"] for f in m["files"] if f["path"] == "src/app.py")
    assert {t["touch"] for t in _targets(m) if t.get("file") == app} == {"read", "edit"}
    ops = {f["path"]: t.get("op") for t in _targets(m) if t["touch"] == "edit"
           for f in m["files"] if f["id"] == t["file"]}
    assert ops == {"src/app.py": "modify", "src/new.py": "create", "README.md": None}
    assert m["totals"]["filesCreated"] == 1


def test_relative_paths_under_a_home_hash_find_their_project() -> None:
    """The hash names the home (Gemini started there): no root, but the folder the relative paths
    share below it is one; a write's output confirms where the relative path lay."""
    m = _map(_older_chat("/home/mele", [
        ("read_file", {"file_path": "shop/src/app.py"}, "x"),
        ("write_file", {"file_path": "shop/src/new.py", "content": "y"},
         "Successfully created and wrote to new file: /home/mele/shop/src/new.py.")]), policy="internal")
    assert [r.get("name") for r in m["repos"]] == ["shop"]
    assert sorted(f["path"] for f in m["files"]) == ["src/app.py", "src/new.py"]


def test_paths_that_only_share_the_home_stay_in_buckets() -> None:
    m = _map(_older_chat("/home/mele", [
        ("read_file", {"absolute_path": "/home/mele/notes.txt"}, "x"),
        ("read_file", {"absolute_path": "/home/mele/Documents/plan.md"}, "y")]), policy="internal")
    assert not m.get("repos") and not m["files"] and len([t for t in _targets(m) if "label" in t]) == 2
