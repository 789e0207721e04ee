"""Issue 15, the Codex items: unified-exec exit codes, rollouts without a working directory, new
record types (tool search, guardian assessments, permission requests). Fixtures are written here,
modelled on the shapes real rollouts use."""
from __future__ import annotations

from typing import Any

from redact.api import redact_bytes
from tests.formats.codexfix import Rollout

SID = "019d6d67-1952-7e83-93ef-94497e3c15b6"
CWD = "/home/kim/proj"


def rollout(cwd: str | None = CWD) -> Rollout:
    r = Rollout(SID)
    if cwd is not None:
        r.meta(cwd)
        r.turn(cwd)
    return r


def run(data: bytes, **kw: Any) -> dict[str, Any]:
    return redact_bytes(data, name="r.jsonl", **kw).session_map


def _exec(m: dict[str, Any], tool: str = "exec_command") -> list[dict[str, Any]]:
    return [e for e in m["events"] if e.get("tool") == tool]


# -- item 5: exec_command_end with source unified_exec_startup -------------------------------------
def test_startup_end_gives_the_exit_code_to_its_own_call() -> None:
    """Codex 0.118 writes every end as `unified_exec_startup`; a command that exits fast has its
    end before its output, whose header then holds no exit code."""
    r = rollout()
    cid = r.tick(10).function_call("exec_command", {"cmd": "ls /nowhere", "workdir": CWD})
    r.tick(40).event({"type": "exec_command_end", "call_id": cid, "exit_code": 2, "process_id": "7",
                      "duration": {"secs": 0, "nanos": 2500}, "source": "unified_exec_startup",
                      "status": "failed"})
    r.tick(100).output(cid, "Chunk ID: 1\nWall time: 0.0000 seconds\nOriginal token count: 0\nOutput:\n")
    ev = _exec(run(r.bytes()))[0]
    assert (ev.get("exitCode"), ev.get("err"), ev.get("errClass")) == (2, True, "exit_code")


def test_long_running_exit_code_lands_on_the_command_not_on_the_poll() -> None:
    r = rollout()
    cid = r.tick(10).function_call("exec_command", {"cmd": "make build", "workdir": CWD})
    r.tick(1000).output(cid, "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 4242\n"
                             "Original token count: 3\nOutput:\nbuilding\n")
    polls = []
    for _ in range(2):
        pid = r.tick(500).function_call("write_stdin", {"session_id": 4242, "chars": ""})
        r.tick(1000).output(pid, "Chunk ID: 2\nWall time: 1.0 seconds\nProcess running with session ID 4242\n"
                                 "Output:\n")
        polls.append(pid)
    pid = r.tick(500).function_call("write_stdin", {"session_id": 4242, "chars": "", "yield_time_ms": 1000})
    r.tick(300).output(pid, "Chunk ID: 3\nWall time: 0.3 seconds\nProcess exited with code 1\n"
                            "Output:\nerror\n")
    m = run(r.bytes())
    ev = _exec(m)[0]
    assert (ev.get("exitCode"), ev.get("err"), ev.get("errClass")) == (1, True, "exit_code")
    assert all(not e.get("err") and "exitCode" not in e for e in _exec(m, "write_stdin"))
    assert m["totals"]["errors"] == 1


def test_startup_end_after_the_polls_also_reaches_the_command() -> None:
    r = rollout()
    cid = r.tick(10).function_call("exec_command", {"cmd": "brew install x", "workdir": CWD})
    r.tick(1000).output(cid, "Chunk ID: 1\nWall time: 1.0 seconds\n"
                             "Process running with session ID 9\nOutput:\n")
    pid = r.tick(500).function_call("write_stdin", {"session_id": 9, "chars": ""})
    r.tick(1000).output(pid, "Chunk ID: 2\nWall time: 1.0 seconds\n"
                             "Process running with session ID 9\nOutput:\n")
    r.tick(9000).event({"type": "exec_command_end", "call_id": cid, "exit_code": 0,
                        "duration": {"secs": 11, "nanos": 0}, "source": "unified_exec_startup",
                        "status": "completed"})
    m = run(r.bytes())
    assert _exec(m)[0].get("exitCode") == 0
    assert "exitCode" not in _exec(m, "write_stdin")[0]


# -- item 7: the August-2025 layout without a working directory ------------------------------------
def _legacy(items: list[dict[str, Any]], remote: str | None) -> bytes:
    import orjson

    git: dict[str, Any] = {"commit_hash": "0123456789abcdef0123456789abcdef01234567", "branch": "main"}
    if remote is not None:
        git["repository_url"] = remote
    header = {"id": "38b123ff-0000-4dfe-bd12-d42671fcb25f", "timestamp": "2025-08-19T08:25:08.000Z",
              "instructions": "be kind", "git": git}
    lines = [header, {"record_type": "state"}]
    for item in items:
        lines += [item, {"record_type": "state"}]
    return b"".join(orjson.dumps(x) + b"\n" for x in lines)


_PATCH = ("*** Begin Patch\n*** Add File: src/app/main.py\n+print('hi')\n*** Update File: README.md\n"
          "@@\n-old\n+new\n*** End Patch\n")


def _legacy_patch_session(remote: str | None) -> bytes:
    import json

    return _legacy([
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "add a main"}]},
        {"type": "function_call", "name": "shell", "call_id": "call_p1",
         "arguments": json.dumps({"command": ["apply_patch", _PATCH]})},
        {"type": "function_call_output", "call_id": "call_p1",
         "output": json.dumps({"output": "Success. Updated the following files:\nA src/app/main.py\n",
                               "metadata": {"exit_code": 0, "duration_seconds": 0.1}})},
    ], remote)


def test_rootless_patch_paths_are_repo_relative_and_the_remote_is_kept() -> None:
    m = run(_legacy_patch_session("git@github.com:acme-corp/acme-shop.git"), policy="internal")
    assert sorted(f["path"] for f in m["files"]) == ["README.md", "src/app/main.py"]
    assert all(f["repo"] == "r0" for f in m["files"])
    assert m["repos"] == [{"id": "r0", "name": "acme-shop", "remote": "acme-corp/acme-shop"}]
    edit = next(e for e in m["events"] if e["kind"] == "edit")
    assert all("file" in t for t in edit["targets"])


def test_rootless_without_a_remote_still_collapses_to_a_bucket() -> None:
    m = run(_legacy_patch_session(None), policy="internal")
    assert m["files"] == [] and not m.get("repos")
    edit = next(e for e in m["events"] if e["kind"] == "edit")
    assert {t.get("label") for t in edit["targets"]} == {"outside-repo"}


# -- item 10: tool search, guardian assessments, permission requests --------------------------------
SECRET = "ZEBRA-CANARY-93412"


def test_tool_search_call_and_output_are_one_tool_event() -> None:
    r = rollout()
    r.tick(10).user("find a calendar tool")
    r.tick(100).item({"type": "tool_search_call", "call_id": "ts_1", "execution": "client",
                      "status": "completed", "arguments": {"query": SECRET, "limit": 2}})
    r.tick(50).item({"type": "tool_search_output", "call_id": "ts_1", "execution": "client",
                     "status": "completed", "tools": [{"name": SECRET, "description": SECRET}]})
    res = redact_bytes(r.bytes(), name="r.jsonl")
    m = res.session_map
    ev = [e for e in m["events"] if e["kind"] == "tool"]
    assert [(e["tool"], e.get("err", False), e.get("dur")) for e in ev] == [("tool_search", False, 50)]
    assert next(e for e in m["events"] if e["kind"] == "llm")["toolCalls"] == 1
    assert SECRET not in str(m)
    assert not any("tool_search" in k for k in res.report.skipped_records)


def test_server_side_tool_search_without_call_id_pairs_with_its_output() -> None:
    r = rollout()
    r.tick(10).user("go")
    r.tick(100).item({"type": "tool_search_call", "execution": "server", "status": "completed",
                      "arguments": {"query": "x"}})
    r.tick(20).item({"type": "tool_search_output", "execution": "server", "status": "failed", "tools": []})
    m = run(r.bytes())
    ev = [e for e in m["events"] if e["kind"] == "tool"]
    assert [(e["tool"], e.get("err"), e.get("errClass")) for e in ev] == [("tool_search", True, "other")]


def _guardian(status: str, gid: str, start_ms: float, done_ms: float | None) -> dict[str, Any]:
    p: dict[str, Any] = {"type": "guardian_assessment", "id": gid, "target_item_id": "call_x",
                         "turn_id": "turn-1", "started_at_ms": int(start_ms), "status": status,
                         "action": {"type": "command", "source": "shell", "command": f"rm -rf /{SECRET}",
                                    "cwd": "/home/kim/proj"}}
    if done_ms is not None:
        p.update(completed_at_ms=int(done_ms), risk_level="high", rationale=f"because {SECRET}")
    return p


def test_guardian_verdicts_are_events_without_text() -> None:
    r = rollout()
    r.tick(10).user("clean up")
    r.tick(100)
    r.event(_guardian("in_progress", "g1", r.t, None))
    r.tick(1500).event(_guardian("approved", "g1", r.t - 1500, r.t))
    r.tick(100)
    r.event(_guardian("in_progress", "g2", r.t, None))
    r.tick(800).event(_guardian("denied", "g2", r.t - 800, r.t))
    res = redact_bytes(r.bytes(), name="r.jsonl")
    m = res.session_map
    ev = [e for e in m["events"] if e.get("tool") == "guardian_assessment"]
    assert [(e["kind"], e.get("err", False), e.get("errClass"), e.get("dur")) for e in ev] == \
        [("tool", False, None, 1500), ("tool", True, "blocked", 800)]
    assert m["session"]["outcome"] == "blocked"
    assert SECRET not in str(m)
    assert res.report.skipped_records["guardian_assessment:in_progress"] == 2


def test_request_permissions_waits_on_the_user_and_keeps_no_reason() -> None:
    r = rollout()
    r.tick(10).user("fetch deps")
    cid = r.tick(100).function_call("request_permissions", {
        "reason": SECRET, "permissions": {"network": {"enabled": True}}, "scope": "turn"})
    r.event({"type": "request_permissions", "call_id": cid, "turn_id": "t", "reason": SECRET,
             "permissions": {"network": {"enabled": True}}})
    r.tick(45000).output(cid, '{"permissions":{"network":{"enabled":true}},"scope":"turn"}')
    res = redact_bytes(r.bytes(), name="r.jsonl")
    m = res.session_map
    ev = [e for e in m["events"] if e.get("tool") == "request_permissions"]
    assert len(ev) == 1 and ev[0]["kind"] == "tool" and not ev[0].get("err")
    assert SECRET not in str(m)
    assert res.report.skipped_records["event_msg:request_permissions"] == 1
    # the 45 s the user took to answer are not a tool delay of the agent
    assert not [e for e in m["events"] if e["kind"] == "delay"]


# -- item 9: PowerShell in a Windows session's shell_command ---------------------------------------
WIN = "C:\\Users\\kim\\source\\acme-shop"


def test_windows_shell_command_is_read_as_powershell() -> None:
    r = rollout(WIN)
    r.tick(10).user("look at the app")
    commands = ["Get-Content -Raw src\\App.tsx",
                "$files = @(Get-ChildItem -Recurse -Filter *.ts src); $files.Count",
                "Select-String -Pattern 'zebra payroll' -Path src\\pay.ts",
                "Set-Location web; npm run build",
                "Remove-Item -Recurse -Force dist"]
    for cmd in commands:
        cid = r.tick(100).function_call("shell_command", {"command": cmd, "workdir": WIN})
        r.tick(50).output(cid, "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nok\n")
    m = run(r.bytes(), policy="internal")
    ev = [e for e in m["events"] if e.get("tool") == "shell_command"]
    assert [(e["kind"], e["verb"]) for e in ev] == [
        ("read", "get-content"), ("search", "get-childitem"), ("search", "select-string"),
        ("verify", "npm run"), ("exec", "remove-item")]
    paths = {f["id"]: f["path"] for f in m["files"]}
    assert [paths[t["file"]] for t in ev[0]["targets"]] == ["src/App.tsx"]
    assert [(paths[t["file"]], t["touch"]) for t in ev[2]["targets"]] == [("src/pay.ts", "hit")]
    assert "zebra" not in str(m)


def test_a_unix_session_keeps_its_shell() -> None:
    r = rollout()
    cid = r.tick(10).function_call("shell_command", {"command": "cat src/a.py", "workdir": CWD})
    r.tick(50).output(cid, "Exit code: 0\nOutput:\nx\n")
    ev = [e for e in run(r.bytes())["events"] if e.get("tool") == "shell_command"]
    assert (ev[0]["kind"], ev[0]["verb"]) == ("read", "cat")
