"""Issue 25, verbs and retries: the session's shell decides the grammar a command line is read with,
a bare PowerShell cmdlet is a verb of the closed cmdlet list in any grammar, and a retry repeats the
same program (two different unknown scripts are both `<script>`, and neither retries the other)."""
from __future__ import annotations

from typing import Any

import orjson
import pytest

from redact.api import redact_bytes
from redact.verbs.engine import extract

T = 1_770_577_372_307


def _verbs(m: dict[str, Any]) -> list[str]:
    return [e["verb"] for e in m["events"] if "verb" in e]


@pytest.mark.parametrize(("line", "verb"), [
    ("Get-ChildItem -Recurse src", "get-childitem"),
    ("Select-String -Path a.txt -Pattern x", "select-string"),
    ("Set-Location C:\\src\\app", "set-location"),
    ("get-content notes.txt", "get-content"),
    ("Get-Payroll -Everyone", "<script>"),  # the Verb-Noun shape alone names no cmdlet
    ("Invoke-AcmeDeploy", "<script>"),
])
def test_a_bare_cmdlet_is_a_verb_of_the_closed_list(line: str, verb: str) -> None:
    assert extract(line).verb == verb


def _cline(cwd: str, command: str) -> bytes:
    request = f"<task>go</task>\n# Current Working Directory ({cwd}) Files\n"
    return orjson.dumps([
        {"ts": T, "type": "say", "say": "task", "text": "go"},
        {"ts": T + 1, "type": "say", "say": "api_req_started", "text": orjson.dumps({"request": request}).decode()},
        {"ts": T + 2, "type": "say", "say": "command", "text": command, "commandCompleted": True}])


@pytest.mark.parametrize(("cwd", "verb"), [("c:\\Users\\mele\\src\\shop", "get-childitem"),
                                           ("/home/mele/src/shop", "ls")])
def test_a_windows_cline_session_reads_its_commands_as_powershell(cwd: str, verb: str) -> None:
    """`ls` in PowerShell is Get-ChildItem; in a Linux session it is ls."""
    assert _verbs(redact_bytes(_cline(cwd, "ls"), name="tasks/1770577372307/ui_messages.json").session_map) == [verb]


def _vscode(language: str) -> bytes:
    inv = {"kind": "toolInvocationSerialized", "toolId": "copilot_runInTerminal", "toolCallId": "u1",
           "isComplete": True, "source": {"type": "internal", "label": "built-in"},
           "toolSpecificData": {"kind": "terminal", "language": language, "commandLine": {"original": "ls"}}}
    call = {"name": "run_in_terminal", "arguments": orjson.dumps({"command": "ls"}).decode(), "id": "call_1"}
    return orjson.dumps({"version": 3, "sessionId": "a622273b-64af-41b3-b181-debba92c0202", "requests": [
        {"requestId": "r1", "timestamp": T, "message": {"text": "list"}, "response": [inv],
         "result": {"metadata": {"toolCallRounds": [{"response": "", "toolCalls": [call]}]}}}]})


@pytest.mark.parametrize(("language", "verb"), [("pwsh", "get-childitem"), ("bash", "ls")])
def test_the_terminals_language_decides_in_copilot_chat(language: str, verb: str) -> None:
    assert _verbs(redact_bytes(_vscode(language), name="s.json").session_map) == [verb]


def _copilot_cli(tool: str) -> bytes:
    events = [
        {"type": "session.start", "id": "e1", "parentId": None, "timestamp": "2026-03-01T10:00:00.000Z",
         "data": {"sessionId": "8baa78ec-b203-4c7f-b1d3-c1170ae84b7d", "copilotVersion": "1.0.10",
                  "context": {"cwd": "D:\\src\\shop"}}},
        {"type": "user.message", "id": "e2", "parentId": "e1", "timestamp": "2026-03-01T10:00:01.000Z",
         "data": {"content": "list"}},
        {"type": "tool.execution_start", "id": "e3", "parentId": "e2", "timestamp": "2026-03-01T10:00:02.000Z",
         "data": {"toolCallId": "t1", "toolName": tool, "arguments": {"command": "ls"}}},
        {"type": "tool.execution_complete", "id": "e4", "parentId": "e3", "timestamp": "2026-03-01T10:00:03.000Z",
         "data": {"toolCallId": "t1", "success": True, "result": {"content": "a"}}}]
    return b"\n".join(orjson.dumps(e) for e in events) + b"\n"


@pytest.mark.parametrize(("tool", "verb"), [("powershell", "get-childitem"), ("bash", "ls")])
def test_copilot_clis_powershell_tool_runs_powershell(tool: str, verb: str) -> None:
    assert _verbs(redact_bytes(_copilot_cli(tool), name="events.jsonl").session_map) == [verb]


def _gemini(commands: list[str]) -> bytes:
    calls = [{"id": f"c{i}", "name": "run_shell_command", "args": {"command": c}, "status": "success",
              "timestamp": "2025-11-07T00:08:00.000Z", "result": [{"functionResponse": {
                  "id": f"c{i}", "name": "run_shell_command",
                  "response": {"output": f"Command: {c}\nDirectory: (root)\nOutput: failed\nExit Code: 1"}}}]}
             for i, c in enumerate(commands)]
    return orjson.dumps({"sessionId": "7e0d8100-cb72-4990-aea1-5f928cd91530", "startTime": "2025-11-07T00:07:53.626Z",
                         "messages": [{"id": "m1", "timestamp": "2025-11-07T00:07:53.626Z", "type": "user",
                                       "content": "deploy"},
                                      {"id": "m2", "timestamp": "2025-11-07T00:07:59.000Z", "type": "gemini",
                                       "content": "ok", "toolCalls": calls, "model": "gemini-2.5-pro"}]})


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_two_different_scripts_are_no_retry_of_each_other(policy: str) -> None:
    from tests.formats.canary import KEY

    def events(commands: list[str]) -> list[dict[str, Any]]:
        m = redact_bytes(_gemini(commands), name="s.json", policy=policy,
                         key=KEY if policy == "public" else None).session_map
        return [e for e in m["events"] if e["kind"] == "exec"]

    different = events(["./deploy-acme.sh --prod", "./rollback-acme.sh"])
    assert len(different) == 2 and all(e.get("err") for e in different)
    assert "retryOf" not in different[1]
    same = events(["./deploy-acme.sh --prod", "./deploy-acme.sh --prod --force"])
    assert same[1].get("retryOf") == same[0]["seq"]  # the same program again, after it failed
