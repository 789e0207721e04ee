"""Kiro CLI sessions under `--to native`: the log entries (`{version, kind, data}`), the session
metadata document of the store (`<uuid>.json`), and the `/chat save` export that holds both.

Text (prompts, replies, tool output, the title) becomes the placeholder string `TEXT_PLACEHOLDER`:
Kiro's loader wants a string in each of these slots (a shape object `{"chars": N}` fails `/chat load`),
so the lengths are the map's to say, not the native file's; a `json` item of a tool result holds any
JSON in Kiro, so it keeps its shape; an image block is dropped whole (its bytes are the image, and
Kiro wants its whole layout or nothing); a tool call's purpose is dropped; a thinking block is dropped whole (its `signature` and `redactedContent` are blobs: a byte array is
text hidden in numbers), so the output never holds half a block; a tool call's input keeps only what
the shared tool table reads (a command as its verb, a path in the path mode); each turn's metadata
keeps its counts, times, end reason and credits (`metering_usage`: Kiro's billing unit, not tokens);
the turn's copy of the last reply (`result`), the permissions and anything unknown are dropped and
counted.
"""
from __future__ import annotations

from redact.formats.toolnames import kind_of
from redact.tables.spec import (
    CWD, DROP, ID, NUMBER, SHAPE, TIMESTAMP, Many, Obj, Ref, Spec, Switch, Table, const, enum, ident, mask,
    tagged, tool, used,
)
from redact.formats.tooltable import inputs_of

FORMAT = "kiro"
EXPORT_FORMAT = "kiro-session-export-v1"
#: Kiro's tool names -> the shared tool table's spelling (its built-in tools of CLI 2.x)
ALIASES: dict[str, str] = {
    "shell": "bash", "execute_bash": "bash", "execute_cmd": "bash", "read": "read", "fs_read": "read",
    "write": "edit_file", "fs_write": "edit_file", "grep": "grep", "glob": "glob", "ls": "list_directory",
    "web_fetch": "web_fetch", "web_search": "web_search", "use_subagent": "task", "subagent": "task",
}
#: toolResult.status -> error
STATUS: dict[str, bool] = {"success": False, "error": True}
#: What the reader opens inside a `json` item of a tool result (a shape in this table): a shell
#: command's `exit_status` ("exit status: N") and its `stdout`.
RESULT_EXIT, RESULT_STDOUT = "exit_status", "stdout"
#: A read tool's input: the operations, each with a path (the first one's is the call's path).
OPERATIONS, OPERATION_PATH = "operations", "path"
#: What a text slot (prompt, reply, tool output, title) holds under `--to native`: a string, as Kiro loads.
TEXT_PLACEHOLDER = "[REDACTED]"
_TEXT = mask(TEXT_PLACEHOLDER)
_TOOL = tool(*ALIASES)
_OPERATION = Obj({"mode": enum("Line", "Directory", "Search", "Image"),
                  OPERATION_PATH: used("the path of a read (the first operation's)", inputs_of("read")["path"]),
                  "start_line": NUMBER, "end_line": NUMBER, "depth": NUMBER})
_WRITE_COMMANDS = enum("create", "str_replace", "append", "insert", "strReplace")


def _inputs(name: str) -> dict[str, Spec]:
    kind = kind_of(ALIASES.get(name, name))[0]
    found = inputs_of("web" if kind == "web-search" else kind)
    if kind in ("read", "search"):
        found[OPERATIONS] = used("the first operation's path", Many(_OPERATION))
        found.update(inputs_of("read"))
    if kind == "edit":
        found["command"] = used("create or modify", _WRITE_COMMANDS)
    return {**found, "__tool_use_purpose": DROP, "summary": DROP}


def _tool_use(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return Obj({"toolUseId": used("pairs call and result", ID),
                "name": used("event kind (the shared tool table, after the aliases)", name),
                "input": used("command (verb), path", Obj(inputs))})


TOOL_USE = Switch("name", {name: _tool_use(const(name), _inputs(name)) for name in ALIASES},
                  default=_tool_use(_TOOL, {"__tool_use_purpose": DROP}))
_RESULT_ITEM = tagged("kind", {
    "text": used("byte count", Obj({"data": used("byte count", _TEXT)})),
    "json": used(f"`{RESULT_EXIT}` (exit code) and byte count of `{RESULT_STDOUT}`",
                 Obj({"data": used("exit code, byte count", SHAPE)})),
    "image": DROP,
})
#: Content block kinds: a layout whose node says what the reader keeps is read for facts.
BLOCK = tagged("kind", {
    "text": used("length only (a prompt's, a reply's)", Obj({"data": used("length only", _TEXT)})),
    "thinking": used("presence only (thinking); dropped whole: its signature and redactedContent are blobs",
                     DROP),
    "toolUse": used("a tool call", Obj({"data": TOOL_USE})),
    "toolResult": used("its result", Obj({"data": Obj({
        "toolUseId": used("pairs call and result", ID),
        "status": used("success / error", enum(*STATUS)),
        "content": used("byte count, exit code", Many(_RESULT_ITEM))})})),
    "image": used("counted on a prompt; dropped whole under --to native", DROP),
}, use="content dispatch")
_META = Obj({"timestamp": used("the record's time (epoch seconds)", NUMBER)})
_DATA = Obj({"message_id": used("its turn (the turn metadata's message_ids)", ID),
             "content": Many(BLOCK), "meta": _META,
             "results": DROP})  # the tool results again, with the calls' inputs: dropped
#: Record kinds: a layout whose node says what the reader keeps is read; any other kind is counted.
ENTRY = tagged("kind", {
    "Prompt": used("a prompt", Obj({"version": enum("v1"), "data": _DATA})),
    "AssistantMessage": used("an llm response", Obj({"version": enum("v1"), "data": _DATA})),
    "ToolResults": used("tool results", Obj({"version": enum("v1"), "data": _DATA})),
    "Clear": Obj({"version": enum("v1"), "data": Obj({"message_id": ID})}),
    "Metadata": Obj({"version": enum("v1"), "data": Obj({"message_id": ID})}),
}, default=Ref("metadata"), use="record dispatch")
_DURATION = Obj({"secs": NUMBER, "nanos": NUMBER})
_METERING = Obj({"value": used("credits (never tokens): not written to a map", NUMBER),
                 "unit": enum("credit"), "unitPlural": enum("credits")})
TURN = Obj({
    "loop_id": DROP, "result": DROP,  # `result`: the turn's last reply again, whole
    "message_ids": used("the records of the turn", Many(ID)),
    "total_request_count": NUMBER, "number_of_cycles": NUMBER, "builtin_tool_uses": NUMBER,
    "turn_duration": _DURATION,
    "end_reason": used("the stop reason of the turn's last response",
                       enum("UserTurnEnd", "ToolUseRejected", "Cancelled", "Interrupted", "Error",
                            "MaxTurns")),
    "end_timestamp": used("the time of the turn's last record", TIMESTAMP),
    "input_token_count": NUMBER, "output_token_count": NUMBER,  # 0 in every session seen: not read
    "context_usage_percentage": NUMBER, "metering_usage": Many(_METERING),
})
MODEL_INFO = Obj({"model_name": ident("model"), "model_id": used("llm model", ident("model")),
                  "description": DROP, "context_window_tokens": NUMBER, "rate_multiplier": NUMBER,
                  "rate_unit": enum("Credit")})
METADATA = Obj({
    "session_id": used("session.id", ID), "cwd": used("the working directory (repository root)", CWD),
    "created_at": used("first time seen", TIMESTAMP), "updated_at": TIMESTAMP, "title": _TEXT,
    "session_state": Obj({
        "version": enum("v1"), "agent_name": DROP, "permissions": DROP,
        "conversation_metadata": Obj({"user_turn_metadatas": used("turns: times, stop reasons", Many(TURN)),
                                      "user_turn_start_request": DROP, "last_request": DROP}),
        "rts_model_state": Obj({"conversation_id": ID, "model_info": used("llm model", MODEL_INFO),
                                "context_usage_percentage": NUMBER})}),
})
EXPORT = Obj({"format": used("recognises the export", const(EXPORT_FORMAT)),
              "metadata": used("the session", Ref("metadata")),
              "log_entries": used("the records", Many(Ref("entry")))})

TABLE = Table(FORMAT, ENTRY, {"metadata": METADATA, "entry": ENTRY}, jsonl=True, document=EXPORT,
              document_key="log_entries")
