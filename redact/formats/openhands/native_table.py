"""OpenHands V1 conversations under `--to native`: the list of events, each by its kind.

Text (messages, thoughts, reasoning, observations' content, the system prompt) becomes its shape;
a terminal command its verb; an editor path the path mode; ids are kept or hashed; the tools'
descriptions, metadata blobs and anything unknown are dropped and counted.
"""
from __future__ import annotations

from redact.formats.openhands.table import EVENT_KINDS
from redact.native.spec import (
    BOOL,
    CWD,
    DROP,
    ID,
    NUMBER,
    PATH,
    SHAPE,
    TIMESTAMP,
    VERB,
    Many,
    Obj,
    Spec,
    Switch,
    Table,
    const,
    enum,
    tool,
    used,
)

FORMAT = "openhands"
_TOOLS = tool("terminal", "file_editor", "think", "finish", "task_tracker", "browser_use")
_SOURCE = enum("agent", "user", "environment")
_COMMON: dict[str, Spec] = {
    "id": used("an ActionEvent's id names its call; an observation's action_id pairs it", ID),
    "timestamp": used("event times (written without a zone: read as UTC)", TIMESTAMP),
    "source": used("user / agent / environment", _SOURCE)}
_EDIT_COMMAND = enum("view", "create", "str_replace", "insert", "undo_edit")
_CALL: dict[str, Spec] = {"tool_name": used("tool", _TOOLS),
                          "tool_call_id": used("pairs call and result when action_id is absent", ID),
                          "action_id": used("the call it answers", ID)}


def _kind(name: str, **fields: Spec) -> Obj:
    return Obj({**fields, "kind": const(name)})


ACTION = used("the tool (see the action table)", Switch("kind", {
    "TerminalAction": _kind("TerminalAction", command=used("verb (verb engine)", VERB), is_input=BOOL, reset=BOOL, timeout=NUMBER),
    "FileEditorAction": _kind("FileEditorAction", command=used("read, or an edit (create / modify)", _EDIT_COMMAND),
                              path=used("targets", PATH), file_text=SHAPE,
                              old_str=SHAPE, new_str=SHAPE, insert_line=NUMBER, view_range=DROP),
    "ThinkAction": _kind("ThinkAction", thought=SHAPE),
    "FinishAction": _kind("FinishAction", message=SHAPE),
    "TaskTrackerAction": _kind("TaskTrackerAction", command=enum("view", "plan"), task_list=SHAPE),
}))
_METADATA = Obj({"exit_code": NUMBER, "pid": NUMBER,
                 "working_dir": used("the first one is the repository root", CWD), "username": DROP, "hostname": DROP,
                 "py_interpreter_path": DROP, "prefix": DROP, "suffix": SHAPE})
_OBS: dict[str, Spec] = {"content": used("byte count (content[].text)", SHAPE), "is_error": used("err", BOOL)}
OBSERVATION = Switch("kind", {
    "TerminalObservation": _kind("TerminalObservation", **_OBS, command=VERB, exit_code=used("exitCode", NUMBER),
                                 timeout=used("errClass timeout", BOOL),
                                 metadata=_METADATA, full_output_save_dir=DROP),
    "FileEditorObservation": _kind("FileEditorObservation", **_OBS, command=_EDIT_COMMAND, path=PATH,
                                   prev_exist=BOOL, old_content=SHAPE, new_content=SHAPE),
    "ThinkObservation": _kind("ThinkObservation", **_OBS),
    "FinishObservation": _kind("FinishObservation", **_OBS),
    "TaskTrackerObservation": _kind("TaskTrackerObservation", **_OBS, command=enum("view", "plan"),
                                    task_list=SHAPE),
})
_MESSAGE = Obj({"role": enum("user", "assistant", "system", "tool"), "content": used("length only", SHAPE),
                "thinking_blocks": SHAPE, "reasoning_content": SHAPE})
EVENT = used("dispatch (see the event table)", Switch("kind", {
    "SystemPromptEvent": _kind("SystemPromptEvent", **_COMMON, system_prompt=SHAPE, tools=DROP,
                               dynamic_context=SHAPE),
    "MessageEvent": _kind("MessageEvent", **_COMMON, llm_message=_MESSAGE, activated_skills=DROP,
                          extended_content=SHAPE, sender=DROP, llm_response_id=ID),
    "ActionEvent": _kind("ActionEvent", **_COMMON, **_CALL, thought=used("length of the thought (textChars)", SHAPE),
                         reasoning_content=used("presence only (thinking)", SHAPE),
                         thinking_blocks=used("presence only (thinking)", SHAPE), action=ACTION,
                         tool_call=Obj({"id": used("pairs call and result when action_id is absent", ID),
                                        "name": _TOOLS, "arguments": SHAPE,
                                        "origin": enum("completion", "responses")}),
                         llm_response_id=used("one llm event per response", ID), security_risk=enum("LOW", "MEDIUM", "HIGH", "UNKNOWN"),
                         summary=SHAPE),
    "ObservationEvent": _kind("ObservationEvent", **_COMMON, **_CALL, observation=OBSERVATION),
    "AgentErrorEvent": _kind("AgentErrorEvent", **_COMMON, **_CALL, error=used("errClass from the wording", SHAPE)),
    "UserRejectObservation": _kind("UserRejectObservation", **_COMMON, **_CALL, rejection_reason=SHAPE),
    "Condensation": used("a compaction (auto)", _kind("Condensation", **_COMMON, forgotten_event_ids=Many(ID),
                                                    summary=SHAPE,
                                                    summary_offset=NUMBER, llm_response_id=ID)),
    "CondensationRequest": _kind("CondensationRequest", **_COMMON),
    "PauseEvent": _kind("PauseEvent", **_COMMON),
}))
assert set(EVENT.cases) >= {k for k in EVENT_KINDS if k != "ConversationStateUpdateEvent"}

TABLE = Table(FORMAT, Many(EVENT), {}, jsonl=False)
