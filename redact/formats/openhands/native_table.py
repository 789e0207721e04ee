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
)

FORMAT = "openhands"
_TOOLS = tool("terminal", "file_editor", "think", "finish", "task_tracker", "browser_use")
_SOURCE = enum("agent", "user", "environment")
_COMMON: dict[str, Spec] = {"id": ID, "timestamp": TIMESTAMP, "source": _SOURCE}
_EDIT_COMMAND = enum("view", "create", "str_replace", "insert", "undo_edit")
_CALL: dict[str, Spec] = {"tool_name": _TOOLS, "tool_call_id": ID, "action_id": ID}


def _kind(name: str, **fields: Spec) -> Obj:
    return Obj({**fields, "kind": const(name)})


ACTION = Switch("kind", {
    "TerminalAction": _kind("TerminalAction", command=VERB, is_input=BOOL, reset=BOOL, timeout=NUMBER),
    "FileEditorAction": _kind("FileEditorAction", command=_EDIT_COMMAND, path=PATH, file_text=SHAPE,
                              old_str=SHAPE, new_str=SHAPE, insert_line=NUMBER, view_range=DROP),
    "ThinkAction": _kind("ThinkAction", thought=SHAPE),
    "FinishAction": _kind("FinishAction", message=SHAPE),
    "TaskTrackerAction": _kind("TaskTrackerAction", command=enum("view", "plan"), task_list=SHAPE),
})
_METADATA = Obj({"exit_code": NUMBER, "pid": NUMBER, "working_dir": CWD, "username": DROP, "hostname": DROP,
                 "py_interpreter_path": DROP, "prefix": DROP, "suffix": SHAPE})
_OBS: dict[str, Spec] = {"content": SHAPE, "is_error": BOOL}
OBSERVATION = Switch("kind", {
    "TerminalObservation": _kind("TerminalObservation", **_OBS, command=VERB, exit_code=NUMBER, timeout=BOOL,
                                 metadata=_METADATA, full_output_save_dir=DROP),
    "FileEditorObservation": _kind("FileEditorObservation", **_OBS, command=_EDIT_COMMAND, path=PATH,
                                   prev_exist=BOOL, old_content=SHAPE, new_content=SHAPE),
    "ThinkObservation": _kind("ThinkObservation", **_OBS),
    "FinishObservation": _kind("FinishObservation", **_OBS),
    "TaskTrackerObservation": _kind("TaskTrackerObservation", **_OBS, command=enum("view", "plan"),
                                    task_list=SHAPE),
})
_MESSAGE = Obj({"role": enum("user", "assistant", "system", "tool"), "content": SHAPE,
                "thinking_blocks": SHAPE, "reasoning_content": SHAPE})
EVENT = Switch("kind", {
    "SystemPromptEvent": _kind("SystemPromptEvent", **_COMMON, system_prompt=SHAPE, tools=DROP,
                               dynamic_context=SHAPE),
    "MessageEvent": _kind("MessageEvent", **_COMMON, llm_message=_MESSAGE, activated_skills=DROP,
                          extended_content=SHAPE, sender=DROP, llm_response_id=ID),
    "ActionEvent": _kind("ActionEvent", **_COMMON, **_CALL, thought=SHAPE, reasoning_content=SHAPE,
                         thinking_blocks=SHAPE, action=ACTION,
                         tool_call=Obj({"id": ID, "name": _TOOLS, "arguments": SHAPE,
                                        "origin": enum("completion", "responses")}),
                         llm_response_id=ID, security_risk=enum("LOW", "MEDIUM", "HIGH", "UNKNOWN"),
                         summary=SHAPE),
    "ObservationEvent": _kind("ObservationEvent", **_COMMON, **_CALL, observation=OBSERVATION),
    "AgentErrorEvent": _kind("AgentErrorEvent", **_COMMON, **_CALL, error=SHAPE),
    "UserRejectObservation": _kind("UserRejectObservation", **_COMMON, **_CALL, rejection_reason=SHAPE),
    "Condensation": _kind("Condensation", **_COMMON, forgotten_event_ids=Many(ID), summary=SHAPE,
                          summary_offset=NUMBER, llm_response_id=ID),
    "CondensationRequest": _kind("CondensationRequest", **_COMMON),
    "PauseEvent": _kind("PauseEvent", **_COMMON),
})
assert set(EVENT.cases) >= {k for k in EVENT_KINDS if k != "ConversationStateUpdateEvent"}

TABLE = Table(FORMAT, Many(EVENT), {}, jsonl=False)
