"""Kimi CLI wire logs under `--to native`: `~/.kimi/sessions/<md5 of the work dir>/<id>/wire.jsonl`,
a metadata line and then one timestamped event per line (`{timestamp, message: {type, payload}}`);
a subagent's events are nested whole in `SubagentEvent` lines; and `context.jsonl`, the model's
history (one message per line by its `role`, no times), read when a folder has no wire log.

Text (prompts, replies, thinking, tool output and messages, approval descriptions) becomes its
shape; a tool call keeps its id and name and, of its JSON arguments, what the tool table reads (a
path in the path mode, a command as its verb, a URL's host, a subagent's name); token usage stays;
streamed argument chunks, displays (diffs, file contents) and anything unknown are dropped and counted.

It is also the reader's table: an event type the reader maps says what it reads of it (`used`); the
event types are read off the tree (`keys.py`).
"""
from __future__ import annotations

from collections.abc import Mapping

from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, PATH, SHAPE, URL_HOST, VERB, VERSION, ByType, JsonText, Many, Obj, Ref, Spec, Switch,
    Table, const, enum, ident, tagged, tool, used,
)

FORMAT = "kimi"


#: Kimi CLI's tools -> (event kind, edit op)
TOOLS: dict[str, tuple[str, str | None]] = {
    "Shell": ("exec", None), "ReadFile": ("read", None), "ReadMediaFile": ("read", None),
    "WriteFile": ("edit", None), "StrReplaceFile": ("edit", "modify"), "Glob": ("search", None),
    "Grep": ("search", None), "SearchWeb": ("web", None), "FetchURL": ("web", None), "Task": ("subagent", None),
    "CreateSubagent": ("tool", None), "SetTodoList": ("tool", None), "Think": ("tool", None),
}
#: The wording of a failed shell command's message (harness wording): its exit code.
EXIT_MESSAGE = r"^Command failed with exit code: (-?\d{1,5})\b"
_TARGET = used("targets (read, edit)", PATH)
ARGS: dict[str, dict[str, Spec]] = {
    "Shell": {"command": used("verb (verb engine)", VERB), "timeout": NUMBER},
    "ReadFile": {"path": _TARGET, "line_offset": NUMBER, "n_lines": NUMBER},
    "ReadMediaFile": {"path": _TARGET},
    "WriteFile": {"path": _TARGET, "content": SHAPE, "mode": enum("overwrite", "append")},
    "StrReplaceFile": {"path": _TARGET, "edit": SHAPE},
    "Glob": {"pattern": SHAPE, "directory": PATH, "include_dirs": BOOL},
    "Grep": {"pattern": SHAPE, "path": PATH, "glob": SHAPE, "output_mode": enum("content", "files_with_matches", "count_matches", "count"),
             "-i": BOOL, "-n": BOOL, "-A": NUMBER, "-B": NUMBER, "-C": NUMBER, "head_limit": NUMBER, "type": SHAPE,
             "multiline": BOOL},
    "SearchWeb": {"query": SHAPE, "limit": NUMBER, "include_content": BOOL},
    "FetchURL": {"url": used("host only", URL_HOST)},
    "Task": {"subagent_name": used("subagentType", ident("subagent_type")), "description": SHAPE, "prompt": SHAPE},
    "SetTodoList": {"todos": SHAPE},
    "Think": {"thought": SHAPE},
}


def _call(name: Spec, args: Mapping[str, Spec]) -> Obj:
    return Obj({"name": used("event kind (see the tool table)", name),
                "arguments": used("path, command, URL host, subagent name (see the tool table)",
                                  JsonText(Obj(dict(args))))})


FUNCTION = Switch("name", {name: _call(const(name), ARGS.get(name, {})) for name in TOOLS},
                  default=_call(tool(*TOOLS), {}))
_PART = tagged("type", {
    "text": used("length (textChars)", Obj({"text": used("length", SHAPE)})),
    "think": used("presence (thinking)", Obj({"think": used("presence", SHAPE), "encrypted": DROP})),
    "image_url": used("counted on a prompt", Obj({"image_url": DROP})),
}, default=Obj({}), use="part dispatch")
_RETURN = Obj({"is_error": used("err", BOOL), "output": used("byte count; commits and PRs a shell's confirms", SHAPE),
               "message": used(f"errClass from the wording; a shell's exit code (`{EXIT_MESSAGE}`)", SHAPE),
               "display": DROP, "extras": DROP})
#: event `type` -> its payload
PAYLOADS: dict[str, Spec] = {
    "TurnBegin": used("a prompt: length, images, URL count", Obj({
        "user_input": used("length and URL count; images", ByType(text=SHAPE, items=Many(_PART)))})),
    "StepBegin": used("a model request starts (its latency's start)", Obj({"n": NUMBER})),
    "ContentPart": used("the current response's text length or thinking", _PART),
    "ToolCall": used("a tool call (see the tool table)", Obj({
        "type": enum("function"), "id": used("pairs call and result", ID), "function": FUNCTION, "extras": DROP})),
    "ToolCallPart": used("the rest of the last tool call's arguments (streamed)", Obj({
        "arguments_part": used("appended to the last ToolCall's arguments, in its lane", DROP)})),
    "ToolResult": used("its result: error, output size, exit code", Obj({
        "tool_call_id": used("pairs call and result", ID), "return_value": _RETURN})),
    "StatusUpdate": used("the current response's tokens", Obj({
        "context_usage": NUMBER, "context_tokens": NUMBER, "max_context_tokens": NUMBER, "message_id": ID,
        "token_usage": Obj({"input_other": used("in", NUMBER), "output": used("out", NUMBER),
                            "input_cache_read": used("cr", NUMBER), "input_cache_creation": used("cw", NUMBER)})})),
    "StepInterrupted": used("an error event: interrupted", Obj({})),
    "TurnEnd": Obj({}),
    "CompactionBegin": used("a compaction starts", Obj({})),
    "CompactionEnd": Obj({}),
    "ApprovalRequest": Obj({"id": ID, "tool_call_id": ID, "sender": tool(*TOOLS), "action": SHAPE,
                            "description": SHAPE, "display": DROP}),
    "ApprovalResponse": Obj({"request_id": ID, "response": enum("approve", "approve_for_session", "reject")}),
    "SubagentEvent": used("a subagent's event, in the lane of the Task call that launched it", Obj({
        "task_tool_call_id": used("the lane (the Task call)", ID), "event": Ref("event")})),
}
EVENT = used("event dispatch", Switch("type", {kind: Obj({"type": const(kind), "payload": payload}, use=payload.use)
                                              for kind, payload in PAYLOADS.items()}))
#: The harness's wording at the head of a tool message of `context.jsonl`: `<system>...</system>`,
#: `<system>ERROR: ...` when the call failed (the wire log says the same in `message` and `is_error`).
CONTEXT_ERROR = "<system>ERROR: "
_CONTENT = ByType(text=SHAPE, items=Many(_PART))
#: `context.jsonl` (and `context_sub_N.jsonl`): the model's history, one message per line by its
#: `role`, without times. Read only when the folder has no wire log (the wire log holds the same).
CONTEXT: dict[str, Spec] = {
    "user": used("a prompt: length, images, URL count", Obj({
        "role": const("user"), "content": used("length and URL count; images", _CONTENT)})),
    "assistant": used("an llm event: text length, thinking, tool calls", Obj({
        "role": const("assistant"), "content": used("text length; thinking (presence)", _CONTENT),
        "tool_calls": used("its tool calls (see the tool table)", Many(Obj({
            "type": enum("function"), "id": used("pairs call and result", ID), "function": FUNCTION,
            "extras": DROP})))})),
    "tool": used("its result: output size; an error and a shell's exit code from the harness's header", Obj({
        "role": const("tool"), "tool_call_id": used("pairs call and result", ID),
        "content": used(f"byte count; `{CONTEXT_ERROR}` (and the exit code after it) at its head", _CONTENT)})),
    "system": Obj({"role": const("system"), "content": _CONTENT}),
    "_usage": Obj({"role": const("_usage"), "token_count": NUMBER}),  # the context's size, not a response's tokens
    "_checkpoint": Obj({"role": const("_checkpoint"), "id": NUMBER}),
}
#: A line that is not the wire log's metadata: a `context.jsonl` message by its role, else a wire event.
CONTEXT_LINE = used("a context.jsonl message by its role, else one wire event", Switch("role", CONTEXT, default=Obj({
    "timestamp": used("event times (epoch seconds)", NUMBER), "message": Ref("event")})))
LINE = used("the metadata line, else one event", Switch("type", {
    "metadata": Obj({"type": const("metadata"), "protocol_version": VERSION})}, default=Ref("context")))

#: `~/.kimi/kimi.json` (read for the work dir only, never a session; a companion file): its work dirs.
WORK_DIRS = Obj({"work_dirs": Many(Obj({
    "path": used("the work dir whose md5 is the session folder's name (repository root, never written)", PATH),
    "kaos": enum("local"), "last_session_id": ID}))})

TABLE = Table(FORMAT, LINE, {"event": EVENT, "kimi_json": WORK_DIRS, "context": CONTEXT_LINE})
