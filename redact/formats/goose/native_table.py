"""Goose's one table: a session as JSON Lines, in each generation Goose wrote, with what the reader
keeps of each field and what `--to native` writes.

- 2025 (`~/.local/share/goose/sessions/<id>.jsonl`): a metadata line `{working_dir, description,
  message_count, *_tokens, accumulated_*}`, then messages `{id, role, created, content, metadata}`
  whose content items are tagged by `type` (`text`, `image`, `toolRequest`, `toolResponse`,
  `thinking`, `redactedThinking`, ...; a tool call and its result as `{status, value | error}`);
- February 2025: the same messages with Rust-enum content items (`{"Text": {...}}`,
  `{"ToolRequest": {id, tool_call: {"Ok": {name, arguments}} | {"Err": ...}}}`, `{"ToolResponse": ...}`);
- late 2024 (`~/.config/goose/sessions/<id>.jsonl`): messages only, content items `{text}`,
  `{tool_name, arguments}` (no id) and `{id, tool_result}` (the result as JSON text);
- the SQLite store `sessions.db` of today, exported (`store.py`) as the 2025 layout.

Text (prompts, replies, thinking, tool output, the description) becomes its shape; a tool's
arguments keep only what the reader reads (the shell command as its verb, the text editor's command
word and path); any other field is dropped and counted. The session's token totals are kept as they
are and never spread over the messages.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, RESULT, SHAPE, TIMESTAMP, TOOL, VERB, ByType, Many, Obj, Spec, Switch, Table,
    const, enum, obj, tagged, used,
)

FORMAT = "goose"
#: tool name -> the shared tool table's kind spelling; the text editor's kind is its `command`'s
SHELL_TOOLS = ("developer__shell", "DeveloperSystem__bash", "developer__bash")
EDITOR_TOOLS = ("developer__text_editor", "DeveloperSystem__text_editor")
#: the text editor's `command` -> the shared tool table's name for that call
EDITOR_COMMANDS: dict[str, str] = {"view": "read", "write": "write", "str_replace": "edit", "insert": "edit",
                                   "undo_edit": "edit"}
_TOKENS = {name: NUMBER for name in ("total_tokens", "input_tokens", "output_tokens", "accumulated_total_tokens",
                                     "accumulated_input_tokens", "accumulated_output_tokens")}


def _call(name: Spec, arguments: Obj) -> Obj:
    return obj(name=used("event kind: the shell and the text editor by name, any other tool a `tool` event",
                         name), arguments=used("the shell's command (verb), the editor's command and path",
                                               arguments))


_SHELL = obj(command=used("verb (verb engine)", VERB), timeout=NUMBER)
_EDITOR = obj(command=used("read (view), edit (write: created; str_replace, insert, undo_edit)",
                           enum(*EDITOR_COMMANDS)), path=used("target", PATH))
#: a tool call `{name, arguments}`: Goose's built-in shell and editor keep their reads; any other name
#: is an identifier (an extension's tool, `<extension>__<tool>`) and its arguments are content
CALL = Switch("name", {**{n: _call(const(n), _SHELL) for n in SHELL_TOOLS},
                       **{n: _call(const(n), _EDITOR) for n in EDITOR_TOOLS}},
              default=_call(TOOL, obj()))
_CONTENT = Many(tagged("type", {"text": obj(text=used("byte count", RESULT), annotations=DROP),
                                "image": obj(data=DROP, mimeType=DROP, annotations=DROP),
                                "resource": obj(resource=DROP, annotations=DROP)}))
#: a result's `value`: a list of content items (2025), or an MCP CallToolResult
RESULT_VALUE = ByType(items=_CONTENT, obj=obj(content=_CONTENT, isError=used("err", BOOL),
                                              structuredContent=DROP))
_TOOL_CALL = obj(status=used("`error`: the call failed", enum("success", "error")),
                 value=used("the call", CALL), error=SHAPE)
_TOOL_RESULT = obj(status=used("`error`: the call failed", enum("success", "error")),
                   value=used("byte count of its text", RESULT_VALUE), error=used("errClass from the wording", SHAPE))
#: content item types (2025): a layout whose node says what the reader keeps is read (`mapped`); any
#: other type is counted by name, never read. An item without `type` is of an older generation.
ITEM = tagged("type", {
    "text": used("length only (a prompt's, a reply's)", obj(text=used("length only", SHAPE), annotations=DROP)),
    "image": used("counted on a prompt", obj(data=DROP, mimeType=DROP, annotations=DROP)),
    "toolRequest": used("a tool call", obj(id=used("pairs call and result", ID), toolCall=_TOOL_CALL,
                                           thoughtSignature=DROP)),
    "toolResponse": used("its result", obj(id=used("pairs call and result", ID), toolResult=_TOOL_RESULT)),
    "frontendToolRequest": obj(id=ID, toolCall=DROP),
    "toolConfirmationRequest": obj(id=ID, toolName=DROP, arguments=DROP, prompt=DROP),
    "actionRequired": obj(data=DROP),
    "thinking": used("presence only (thinking)", obj(thinking=SHAPE, signature=DROP)),
    "redactedThinking": used("presence only (thinking)", obj(data=DROP)),
    "systemNotification": obj(notificationType=DROP, msg=DROP),
    "contextLengthExceeded": obj(msg=DROP), "summarizationRequested": obj(msg=DROP),
    "conversationCompacted": obj(msg=DROP),
}, default=used("an item of an older generation: its one key names its kind", obj(
    # February 2025: Rust-enum items
    Text=used("length only", obj(text=used("length only", SHAPE))),
    Image=used("counted on a prompt", DROP),
    ToolRequest=used("a tool call", obj(id=used("pairs call and result", ID), tool_call=obj(
        Ok=used("the call", CALL), Err=used("a call Goose could not parse: counted as failed", DROP)))),
    ToolResponse=used("its result", obj(id=used("pairs call and result", ID), tool_result=obj(
        Ok=used("byte count of its text", _CONTENT), Err=used("errClass from the wording", SHAPE)))),
    # late 2024: untagged items
    text=used("length only", SHAPE),
    tool_name=used("a tool call (no id: its result is the next one by order)", TOOL),
    arguments=used("the shell's command (verb), the editor's command and path", DROP),
    id=used("pairs call and result", ID),
    tool_result=used("byte count (JSON text)", SHAPE),
)))
MESSAGE = obj(
    id=ID,
    role=used("dispatch: user, assistant", enum("user", "assistant")),
    created=used("event time (epoch seconds)", NUMBER),
    content=used("content dispatch (`type`)", Many(ITEM)),
    metadata=obj(userVisible=BOOL, agentVisible=BOOL),
)
#: the first line of a 2025 session, and of a store's export (`store.py`, which adds the row's id,
#: name, type and times)
METADATA = obj(
    id=used("session.id (a store's session; a file's id is its name)", ID),
    working_dir=used("working directory: the repository root on evidence", CWD),
    description=SHAPE, name=SHAPE, schedule_id=DROP, message_count=NUMBER,
    session_type=enum("user", "scheduled", "sub_agent", "hidden", "terminal"),
    created_at=used("first time seen", TIMESTAMP), updated_at=TIMESTAMP, user_set_name=BOOL,
    extension_data=DROP, recipe=DROP, **_TOKENS,
)
RECORD = Switch("role", {"user": MESSAGE, "assistant": MESSAGE}, default=used("the session's metadata", METADATA))

TABLE = Table(FORMAT, RECORD)
