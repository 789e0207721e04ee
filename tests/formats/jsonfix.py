"""Small JSON session files of our own for OpenHands, Amp and Continue, modelled on the shapes of the
real ones. Every free-text slot takes its value from `c()` (a canary counter, or a fixed phrase)."""
from __future__ import annotations

from collections.abc import Callable

import orjson

C = Callable[[], str]
ROOT = "/home/dana/src/shop"


def plain() -> C:
    n = [0]

    def c() -> str:
        n[0] += 1
        return f"plain words number {n[0]}"
    return c


# -- OpenHands --------------------------------------------------------------------------------------

#: 2 prompts; calls: terminal (git status), terminal (pytest, exit 1), file_editor view, create,
#: str_replace, think, finish; 5 model responses (llm_response_id) + 1 agent message
OPENHANDS_COUNTS = {"user": 2, "llm": 6, "calls": 7, "shell": 2, "edits": 2, "reads": 1}


def openhands_events(c: C) -> bytes:
    n = [0]

    def ev(kind: str, source: str, **fields: object) -> dict[str, object]:
        n[0] += 1
        return {"id": f"00000000-0000-4000-8000-{n[0]:012d}", "timestamp": f"2026-02-09T16:26:{n[0]:02d}.714879",
                "source": source, **fields, "kind": kind}

    def text(value: str) -> list[dict[str, object]]:
        return [{"cache_prompt": False, "type": "text", "text": value}]

    def action(kind: str, tool: str, cid: str, rid: str, **act: object) -> dict[str, object]:
        return ev("ActionEvent", "agent", thought=text(c()), reasoning_content=c(), thinking_blocks=[],
                  action={**act, "kind": kind}, tool_name=tool, tool_call_id=cid,
                  tool_call={"id": cid, "name": tool, "arguments": orjson.dumps(act).decode(), "origin": "completion"},
                  llm_response_id=rid, security_risk="LOW", summary=c())

    def obs(kind: str, tool: str, cid: str, **o: object) -> dict[str, object]:
        return ev("ObservationEvent", "environment", tool_name=tool, tool_call_id=cid,
                  observation={"content": text(c()), "is_error": False, **o, "kind": kind}, action_id=c())

    meta = {"exit_code": 0, "pid": -1, "username": c(), "hostname": c(), "working_dir": ROOT,
            "py_interpreter_path": "/usr/bin/python", "prefix": "", "suffix": c()}
    events = [
        ev("SystemPromptEvent", "agent", system_prompt={"cache_prompt": False, "type": "text", "text": c()},
           tools=[{"description": c(), "title": "terminal", "kind": "TerminalTool"}]),
        ev("MessageEvent", "user", llm_message={"role": "user", "content": text(c()), "thinking_blocks": []},
           activated_skills=[], extended_content=[]),
        action("TerminalAction", "terminal", "functions.terminal:0", "gen-1", command="git status", is_input=False),
        obs("TerminalObservation", "terminal", "functions.terminal:0", command="git status", exit_code=0,
            timeout=False, metadata=meta),
        action("TerminalAction", "terminal", "functions.terminal:1", "gen-2",
               command="pytest -q " + c().split()[0], is_input=False),
        obs("TerminalObservation", "terminal", "functions.terminal:1", command="pytest -q", exit_code=1,
            timeout=False, metadata={**meta, "exit_code": 1}),
        action("FileEditorAction", "file_editor", "file_editor:2", "gen-3", command="view", path=ROOT + "/app.py"),
        obs("FileEditorObservation", "file_editor", "file_editor:2", command="view", path=ROOT + "/app.py",
            prev_exist=True),
        action("FileEditorAction", "file_editor", "file_editor:3", "gen-3", command="create", path=ROOT + "/new.py",
               file_text=c()),
        obs("FileEditorObservation", "file_editor", "file_editor:3", command="create", path=ROOT + "/new.py",
            prev_exist=False, new_content=c()),
        action("FileEditorAction", "file_editor", "file_editor:4", "gen-4", command="str_replace",
               path=ROOT + "/app.py", old_str=c(), new_str=c()),
        obs("FileEditorObservation", "file_editor", "file_editor:4", command="str_replace", path=ROOT + "/app.py",
            prev_exist=True, old_content=c(), new_content=c()),
        ev("MessageEvent", "user", llm_message={"role": "user", "content": text(c())}),
        action("ThinkAction", "think", "think:5", "gen-5", thought=c()),
        obs("ThinkObservation", "think", "think:5"),
        ev("Condensation", "environment", forgotten_event_ids=["00000000-0000-4000-8000-000000000002"],
           summary=c(), summary_offset=1, llm_response_id="gen-6"),
        ev("MessageEvent", "agent", llm_message={"role": "assistant", "content": text(c())}),
        action("FinishAction", "finish", "finish:6", "gen-5", message=c()),
        obs("FinishObservation", "finish", "finish:6"),
        ev("FutureEvent", "environment", note=c()),
    ]
    return orjson.dumps(events, option=orjson.OPT_INDENT_2)


# -- Amp --------------------------------------------------------------------------------------------

AMP_ID = "T-16c2227a-e98f-4969-998b-aaa50a930b05"
#: 2 prompts, 3 assistant messages; calls: Bash (git status), Bash (npm test, exit 1), Read,
#: edit_file, create_file, read_web_page, todo_write (rejected)
AMP_COUNTS = {"user": 2, "llm": 3, "calls": 7, "shell": 2, "edits": 2, "in": 9 + 5 + 7, "out": 86 + 40 + 12}


def amp_thread(c: C) -> bytes:
    def use(cid: str, name: str, **inp: object) -> dict[str, object]:
        return {"type": "tool_use", "id": cid, "name": name, "input": inp}

    def res(cid: str, status: str, result: object) -> dict[str, object]:
        return {"type": "tool_result", "toolUseID": cid, "run": {"status": status, "result": result}}

    def usage(i: int, o: int) -> dict[str, object]:
        return {"model": "claude-sonnet-4-5-20250929", "maxInputTokens": 968000, "inputTokens": i,
                "outputTokens": o, "cacheCreationInputTokens": 972, "cacheReadInputTokens": 14570,
                "totalInputTokens": 15551, "credits": 0.93}

    thread = {
        "v": 194, "id": AMP_ID, "created": 1761596306663, "nextMessageId": 7, "agentMode": "smart",
        "title": c(),
        "env": {"initial": {"trees": [{"displayName": c(), "uri": "file://" + ROOT,
                                       "repository": {"type": "git", "url": "https://github.com/" + c().split()[0],
                                                      "ref": "refs/heads/main", "sha": "6d309544bfe3"}}],
                            "platform": {"os": "linux", "osVersion": c(), "cpuArchitecture": "x64",
                                         "webBrowser": False, "client": "CLI",
                                         "clientVersion": "0.0.1761595317-gdb0f30", "clientType": "cli"},
                            "tags": ["model:" + c().split()[0]]}},
        "usageLedger": {"events": [
            {"id": "6f79320c-14c2-4932-941e-4324cc93a309", "timestamp": "2025-10-27T20:20:13.854Z",
             "model": "claude-sonnet-4-5-20250929", "credits": 0.93, "tokens": {"input": 9, "output": 86},
             "operationType": "inference", "fromMessageId": 0, "toMessageId": 1}]},
        "~debug": {"lastInferenceInput": {"messages": [{"content": c()}]}},
        "messages": [
            {"role": "user", "messageId": 0, "content": [{"type": "text", "text": c()}],
             "userState": {"currentlyVisibleFiles": [c()]}, "agentMode": "smart", "meta": {"sentAt": 1761596410512}},
            {"role": "assistant", "messageId": 1, "content": [
                {"type": "thinking", "thinking": c(), "signature": c()},
                {"type": "text", "text": c()},
                use("toolu_1", "Bash", cmd="git status", cwd=ROOT),
                use("toolu_2", "Bash", cmd="npm test -- " + c().split()[0]),
                use("toolu_3", "Read", path=ROOT + "/src/app.ts"),
                use("toolu_4", "edit_file", path=ROOT + "/src/app.ts", old_str=c(), new_str=c()),
                use("toolu_5", "create_file", path=ROOT + "/src/new.ts", content=c()),
                use("toolu_6", "read_web_page", url="https://ampcode.com/" + c().split()[0], prompt=c()),
             ], "state": {"type": "complete", "stopReason": "tool_use"}, "usage": usage(9, 86)},
            {"role": "user", "messageId": 2, "content": [
                res("toolu_1", "done", {"output": c(), "exitCode": 0}),
                res("toolu_2", "done", {"output": c(), "exitCode": 1}),
                res("toolu_3", "done", c()), res("toolu_4", "done", c()), res("toolu_5", "done", c()),
                res("toolu_6", "error", c())], "meta": {"sentAt": 1761596420000}},
            {"role": "assistant", "messageId": 3, "content": [use("toolu_7", "todo_write", todos=[c()])],
             "state": {"type": "complete", "stopReason": "tool_use"}, "usage": usage(5, 40)},
            {"role": "user", "messageId": 4, "content": [
                {"type": "tool_result", "toolUseID": "toolu_7", "run": {"status": "rejected-by-user"}},
                {"type": "text", "text": c()}], "meta": {"sentAt": 1761596430000}},
            {"role": "assistant", "messageId": 5, "content": [{"type": "text", "text": c()}],
             "state": {"type": "complete", "stopReason": "end_turn"}, "usage": usage(7, 12)},
        ],
    }
    return orjson.dumps(thread, option=orjson.OPT_INDENT_2)


# -- Continue ---------------------------------------------------------------------------------------

CONTINUE_ID = "e00926af-e2ae-429b-8fc2-2c4f66629d7f"
#: 2 prompts, 3 assistant messages; calls: Bash (ls), run_terminal_command (pytest, errored), Read,
#: MultiEdit, create_new_file, Search (still calling: no result)
# out: the first response's total_tokens beyond its prompt (15 completion + 48 thinking), then 30
CONTINUE_COUNTS = {"user": 2, "llm": 3, "calls": 6, "shell": 2, "edits": 2, "in": 2032 + 900, "out": 2095 - 2032 + 30}


def continue_session(c: C, *, workspace: str = "file:///c%3A/Users/dana/dev/shop") -> bytes:
    def call(cid: str, name: str, **args: object) -> dict[str, object]:
        return {"id": cid, "type": "function", "function": {"name": name, "arguments": orjson.dumps(args).decode()}}

    def state(cid: str, name: str, status: str, out: str | None = None, **args: object) -> dict[str, object]:
        found: dict[str, object] = {"toolCallId": cid, "toolCall": call(cid, name, **args), "status": status,
                                    "parsedArgs": args, "tool": {"description": c()}}
        if out is not None:
            found["output"] = [{"content": out, "name": "Tool Result", "description": c()}]
        return found

    session = {
        "sessionId": CONTINUE_ID, "title": c(), "workspaceDirectory": workspace, "mode": "agent",
        "chatModelTitle": c(),
        "usage": {"totalCost": 2.88, "promptTokens": 2827649, "completionTokens": 27145,
                  "promptTokensDetails": {"cachedTokens": 0, "cacheWriteTokens": 0}},
        "history": [
            {"message": {"role": "user", "content": c(), "id": "38114a84-9320-4801-8403-adea5159c46c"},
             "contextItems": [{"content": c()}], "editorState": c(), "appliedRules": [c()]},
            {"message": {"role": "assistant", "content": c(),
                         "toolCalls": [call("t1", "Bash", command="ls -R"),
                                       call("t2", "run_terminal_command", command="pytest " + c().split()[0]),
                                       call("t3", "Read", filepath="src/app.js")],
                         "usage": {"prompt_tokens": 2032, "completion_tokens": 15, "total_tokens": 2095,
                                   "model": "gemini-2.5-pro", "cost_cents": 0}},
             "contextItems": [],
             "toolCallStates": [state("t1", "Bash", "done", c(), command="ls -R"),
                                state("t2", "run_terminal_command", "errored", c(), command="pytest x"),
                                state("t3", "Read", "done", c(), filepath="src/app.js")],
             "promptLogs": [{"modelTitle": c(), "prompt": c(), "completion": c()}]},
            {"message": {"role": "user", "content": [{"type": "text", "text": c()}]}, "contextItems": []},
            {"message": {"role": "assistant", "content": "",
                         "toolCalls": [call("t4", "MultiEdit", file_path="src/app.js", edits=[{"old": c()}]),
                                       call("t5", "create_new_file", filepath="C:/Users/dana/dev/shop/src/new.js", contents=c()),
                                       call("t6", "Search", pattern=c())],
                         "usage": {"prompt_tokens": 900, "completion_tokens": 30, "model": "gemini-2.5-pro"}},
             "toolCallStates": [state("t4", "MultiEdit", "done", c(), file_path="src/app.js"),
                                state("t5", "create_new_file", "done", c(), filepath="C:/Users/dana/dev/shop/src/new.js"),
                                state("t6", "Search", "calling", c(), pattern="x")]},
            {"message": {"role": "assistant", "content": c()}, "isGatheringContext": False},
        ],
    }
    return orjson.dumps(session, option=orjson.OPT_INDENT_2)
