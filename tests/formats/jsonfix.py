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
