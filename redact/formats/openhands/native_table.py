"""OpenHands V1 conversations under `--to native`: the list of events, each by its kind.

Text (messages, thoughts, reasoning, observations' content, the system prompt) becomes its shape;
a terminal command its verb; an editor path the path mode; ids are kept or hashed; the tools'
descriptions, metadata blobs and anything unknown are dropped and counted.

The format's one table: the event kinds the reader maps are the layouts whose node says what it keeps
(`EVENT_KINDS` is read off the tree); the action kinds (`ACTIONS`) and the editor's commands
(`EDITOR`), which carry what the reader makes of them, are the lists the tree is built from.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERB, Many, Obj, Spec, Switch, Table, const, enum,
    handling, tool, used,
)

FORMAT = "openhands"
#: action kinds -> (the shared tool table's name, what a FileEditorAction's command does)
ACTIONS: dict[str, str] = {
    "TerminalAction": "bash", "ExecuteBashAction": "bash", "FileEditorAction": "file_editor",
    "StrReplaceEditorAction": "file_editor", "ThinkAction": "think", "FinishAction": "finish",
    "TaskTrackerAction": "task_tracker", "BrowserNavigateAction": "web_fetch",
}
#: FileEditorAction.command -> (event kind, file op)
EDITOR: dict[str, tuple[str, str | None]] = {
    "view": ("read", None), "create": ("edit", "create"), "str_replace": ("edit", "modify"),
    "insert": ("edit", "modify"), "undo_edit": ("edit", "modify"),
}
#: What the reader reads inside an observation's `content` (a list of text blocks: a leaf it opens)
CONTENT_TEXT = "text"
_TOOLS = tool("terminal", "file_editor", "think", "finish", "task_tracker", "browser_use")
_SOURCE = enum("agent", "user", "environment")
_COMMON: dict[str, Spec] = {
    "id": used("an ActionEvent's id names its call; an observation's action_id pairs it", ID),
    "timestamp": used("event times (written without a zone: read as UTC)", TIMESTAMP),
    "source": used("user / agent / environment", _SOURCE)}
_EDIT_COMMAND = enum(*EDITOR)
_CALL: dict[str, Spec] = {"tool_name": used("tool", _TOOLS),
                          "tool_call_id": used("pairs call and result when action_id is absent", ID),
                          "action_id": used("the call it answers", ID)}


def _kind(name: str, **fields: Spec) -> Obj:
    return Obj({**fields, "kind": const(name)})


#: The fields of an action, by the tool it is (`ACTIONS`: an older kind has its renamed kind's fields).
_ACTION_FIELDS: dict[str, dict[str, Spec]] = {
    "bash": {"command": used("verb (verb engine)", VERB), "is_input": BOOL, "reset": BOOL, "timeout": NUMBER},
    "file_editor": {"command": used("read, or an edit (create / modify)", _EDIT_COMMAND),
                    "path": used("targets", PATH), "file_text": SHAPE,
                    "old_str": SHAPE, "new_str": SHAPE, "insert_line": NUMBER, "view_range": DROP},
    "think": {"thought": SHAPE},
    "finish": {"message": SHAPE},
    "task_tracker": {"command": enum("view", "plan"), "task_list": SHAPE},
}
ACTION = used("the tool (see the action table)", Switch("kind", {
    kind: _kind(kind, **_ACTION_FIELDS[name]) for kind, name in ACTIONS.items() if name in _ACTION_FIELDS}))
_METADATA = Obj({"exit_code": NUMBER, "pid": NUMBER,
                 "working_dir": used("the first one is the repository root", CWD), "username": DROP, "hostname": DROP,
                 "py_interpreter_path": DROP, "prefix": DROP, "suffix": SHAPE})
_OBS: dict[str, Spec] = {"content": used(f"byte count (content[].{CONTENT_TEXT})", SHAPE), "is_error": used("err", BOOL)}
OBSERVATION = Switch("kind", {
    "TerminalObservation": _kind("TerminalObservation", **_OBS, command=VERB, exit_code=used("exitCode", NUMBER),
                                 timeout=used("errClass timeout", BOOL),
                                 metadata=_METADATA, full_output_save_dir=DROP),
    "FileEditorObservation": _kind("FileEditorObservation", **_OBS, command=_EDIT_COMMAND, path=PATH,
                                   prev_exist=used("created, when the call was a create", BOOL), old_content=SHAPE,
                                   new_content=SHAPE),
    "ThinkObservation": _kind("ThinkObservation", **_OBS),
    "FinishObservation": _kind("FinishObservation", **_OBS),
    "TaskTrackerObservation": _kind("TaskTrackerObservation", **_OBS, command=enum("view", "plan"),
                                    task_list=SHAPE),
})
_MESSAGE = Obj({"role": enum("user", "assistant", "system", "tool"), "content": used("length only", SHAPE),
                "thinking_blocks": SHAPE, "reasoning_content": SHAPE})
#: Event kinds: a layout whose node says what the reader keeps is read for facts (`mapped`); any other
#: is counted by kind, never read (`EVENT_KINDS` below).
EVENT = used("dispatch (see the event table)", Switch("kind", {
    # the system prompt and the tools' descriptions
    "SystemPromptEvent": _kind("SystemPromptEvent", **_COMMON, system_prompt=SHAPE, tools=DROP,
                               dynamic_context=SHAPE),
    "MessageEvent": used("source user: a prompt (length); source agent: a reply (length)", _kind(
        "MessageEvent", **_COMMON, llm_message=_MESSAGE, activated_skills=DROP, extended_content=SHAPE, sender=DROP,
        llm_response_id=ID)),
    "ActionEvent": used("a tool call; its llm_response_id groups calls into model calls", _kind(
        "ActionEvent", **_COMMON, **_CALL, thought=used("length of the thought (textChars)", SHAPE),
        reasoning_content=used("presence only (thinking)", SHAPE),
        thinking_blocks=used("presence only (thinking)", SHAPE), action=ACTION,
        tool_call=Obj({"id": used("pairs call and result when action_id is absent", ID),
                       "name": _TOOLS, "arguments": SHAPE,
                       "origin": enum("completion", "responses")}),
        llm_response_id=used("one llm event per response", ID), security_risk=enum("LOW", "MEDIUM", "HIGH", "UNKNOWN"),
        summary=SHAPE)),
    "ObservationEvent": used("a tool result, paired by tool_call_id", _kind(
        "ObservationEvent", **_COMMON, **_CALL, observation=OBSERVATION)),
    "AgentErrorEvent": used("a failed tool call", _kind(
        "AgentErrorEvent", **_COMMON, **_CALL, error=used("errClass from the wording", SHAPE))),
    "UserRejectObservation": used("a call the user refused", _kind(
        "UserRejectObservation", **_COMMON, **_CALL, rejection_reason=SHAPE)),
    "Condensation": used("a compaction (auto)", _kind("Condensation", **_COMMON, forgotten_event_ids=Many(ID),
                                                    summary=SHAPE,
                                                    summary_offset=NUMBER, llm_response_id=ID)),
    "CondensationRequest": _kind("CondensationRequest", **_COMMON),
    "PauseEvent": _kind("PauseEvent", **_COMMON),
}))
#: Event kinds -> "mapped" / "skipped" (the mapped first): the tree's, and one more the sniffer knows (its
#: state blob is not classified: the reader skips it, `--to native` drops it, both count it).
EVENT_KINDS: dict[str, str] = {**dict(sorted(handling(EVENT).items(), key=lambda case: case[1] != "mapped")),
                               "ConversationStateUpdateEvent": "skipped"}

TABLE = Table(FORMAT, Many(EVENT), {}, jsonl=False)
