"""Gemini CLI chat recordings under `--to native`: both layouts (the single-JSON ConversationRecord
and the append-only JSONL with its metadata line, messages, `$set` and `$rewindTo` lines).

Message text, thoughts and tool output become their shape (`{"chars": N}`); a tool call keeps its
id, name, status and time, and of its arguments only what the tool table reads (paths in the path
mode, the shell command as its verb, line numbers and flags); everything else a call carries
(`description`, `displayName`, `resultDisplay`) is dropped.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERB, ByType, Many, Obj, Ref, Spec, Switch, Table,
    const, enum, ident, obj, shape, tool, used,
)

FORMAT = "gemini-cli"

#: The `info` message Gemini CLI writes when the user cancels a request (an interruption).
CANCELLED = "Request cancelled."

#: message `type` -> handling (the message switch's cases are these types)
MESSAGE_TYPES: dict[str, str] = {
    "user": "mapped (a prompt: length and URL count)",
    "gemini": "mapped (an llm event; its toolCalls are tool events)",
    "error": "mapped (an error event, llm; class from the wording)",
    "info": "`Request cancelled.`: an error event (interrupted); any other: skipped",
    "warning": "skipped",
}

#: tool name -> event kind (the tool-call switch's cases are these tools). The arguments read are
#: the tool's `args` fields with a `use` below (`TARGET_ARGS`, `command`, `prompt` / `url`).
TOOLS: dict[str, str] = {
    "read_file": "read", "read_many_files": "read",
    "write_file": "edit", "replace": "edit", "edit": "edit",
    "glob": "search", "grep_search": "search", "search_file_content": "search", "grep": "search",
    "list_directory": "search", "ls": "search",
    "run_shell_command": "exec",
    "google_web_search": "web", "web_fetch": "web",
    "codebase_investigator": "subagent", "delegate_to_agent": "subagent",
    "save_memory": "tool", "write_todos": "tool", "ask_user": "tool", "enter_plan_mode": "tool",
    "exit_plan_mode": "tool", "read_background_output": "tool", "list_background_processes": "tool",
    "activate_skill": "skill",
}

#: The path arguments of a read or edit tool, in the order the reader tries them (the first that is a
#: non-empty string is the call's target): every read and edit tool's `args` classifies each of them.
TARGET_ARGS = ("file_path", "absolute_path", "path")
#: What the reader opens inside a tool call's `result` (a shape in this table): the output and error
#: texts of `result[].functionResponse.response`.
RESULT_PATH = ("functionResponse", "response")
RESULT_OUTPUT, RESULT_ERROR = "output", "error"
#: What the reader opens inside a prompt's `content` when it is a list of parts (a shape in this
#: table): each part's text, and the parts that are images.
PART_TEXT, PART_IMAGE = "text", "inlineData"

_LINES: dict[str, Spec] = {"start_line": NUMBER, "end_line": NUMBER, "offset": NUMBER, "limit": NUMBER}
_TARGETS: dict[str, Spec] = {name: used("targets (read, edit)", PATH) for name in TARGET_ARGS}
_EDIT: dict[str, Spec] = {**_TARGETS, "old_string": SHAPE, "new_string": SHAPE, "instruction": SHAPE,
         "allow_multiple": BOOL, "expected_replacements": NUMBER}
_SEARCH: dict[str, Spec] = {"pattern": SHAPE, "dir_path": PATH, "path": PATH, "include": SHAPE, "context": NUMBER,
           "total_max_matches": NUMBER, "case_sensitive": BOOL}
ARGS: dict[str, dict[str, Spec]] = {
    "run_shell_command": {"command": used("verb (verb engine)", VERB), "dir_path": PATH, "directory": PATH, "is_background": BOOL,
                          "description": SHAPE},
    "read_file": {**_TARGETS, **_LINES},
    "read_many_files": {"paths": SHAPE, "include": SHAPE, "exclude": SHAPE, **_TARGETS},
    "write_file": {**_TARGETS, "content": SHAPE},
    "replace": _EDIT,
    "edit": _EDIT,
    "glob": _SEARCH,
    "grep_search": _SEARCH,
    "search_file_content": _SEARCH,
    "grep": _SEARCH,
    "list_directory": {"dir_path": PATH, "path": PATH, "ignore": SHAPE},
    "ls": {"dir_path": PATH, "path": PATH, "ignore": SHAPE},
    "google_web_search": {"query": SHAPE},
    "web_fetch": {"prompt": used("host of its first URL", SHAPE), "url": used("host, when no prompt", SHAPE)},
    "read_background_output": {"pid": NUMBER, "delay_ms": NUMBER},
    "list_background_processes": {"wait_for_previous": BOOL},
}

_STATUS = enum("success", "error", "cancelled", "scheduled", "validating", "awaiting_approval",
               "executing")
_CALL: dict[str, Spec] = {
    "id": used("call id", ID),
    "status": used("success, error, cancelled: the result's error and errClass", _STATUS),
    "timestamp": used("the result's time", TIMESTAMP),
    "result": used(f"{'.'.join(RESULT_PATH)}.{RESULT_OUTPUT}: byte count, exit code (`Exit Code: N`), commits "
                   f"and PRs it confirms; .{RESULT_ERROR}: errClass from the wording", SHAPE),
    "displayName": DROP,
    "description": DROP, "resultDisplay": DROP, "renderOutputAsMarkdown": BOOL,
}


def _call(name: Spec, args: dict[str, Spec]) -> Obj:
    return Obj({**_CALL, "name": name, "args": Obj(args)})


TOOL_CALL = used("event kind (see the tool table)", Switch(
    "name", {name: _call(const(name), ARGS.get(name, {})) for name in TOOLS}, default=_call(tool(*TOOLS), {})))

_BASE: dict[str, Spec] = {"id": used("the last writing of a message wins", ID),
                          "timestamp": used("event times", TIMESTAMP)}
_CONTENT = ByType(text=SHAPE, items=SHAPE, obj=SHAPE)
TOKENS = obj(input=used("in (input - cached)", NUMBER), output=used("out (output + thoughts)", NUMBER),
             cached=used("cr", NUMBER), thoughts=used("out (output + thoughts)", NUMBER), tool=NUMBER,
             total=NUMBER)
_CONTENT_OF = {"user": f"length and URL count (a list: its parts' `{PART_TEXT}`); images (parts with `{PART_IMAGE}`)",
               "gemini": "length only (textChars)", "error": "errClass from the wording"}
#: The fields of a message type beyond its id, time and type (any other type: its `content`).
_LAYOUTS: dict[str, dict[str, Spec]] = {
    "user": {"content": used(_CONTENT_OF["user"], _CONTENT)},
    "gemini": {
        "content": used(_CONTENT_OF["gemini"], _CONTENT),
        "model": used("llm model", ident("model")), "tokens": TOKENS, "toolCalls": Many(TOOL_CALL),
        "thoughts": used("presence only (thinking)",
                         Many(obj(subject=SHAPE, description=SHAPE, timestamp=TIMESTAMP)))},
}


def _message(kind: str) -> Obj:
    """The layout of a message type; what the reader does with it is its handling (`MESSAGE_TYPES`)."""
    fields = _LAYOUTS.get(kind) or {"content": used(_CONTENT_OF.get(kind, "`Request cancelled.` only"),
                                                    ByType(text=shape(CANCELLED), items=SHAPE))}
    layout = Obj({**_BASE, "type": const(kind), **fields})
    return layout if MESSAGE_TYPES[kind] == "skipped" else used(MESSAGE_TYPES[kind], layout)


MESSAGE = used("message dispatch (see the message types)",
               Switch("type", {kind: _message(kind) for kind in MESSAGE_TYPES}))

META: dict[str, Spec] = {
    # projectHash is a sha256 of the project's path in older clients: a guessed path can be tested
    # against it, so it is dropped (never an id kept as written)
    "sessionId": used("session.id", ID),
    "projectHash": used("when no directories are named: the folder above the touched paths whose sha256 it is "
                        "is the working directory (redact/roots.py); never written", DROP),
    "startTime": used("session start (when no message is older)", TIMESTAMP),
    "lastUpdated": used("session start (when no message is older)", TIMESTAMP),
    "kind": used("`subagent`: session.role", enum("main", "subagent")),
    "directories": used("repository roots (never written)", Many(CWD)), "summary": SHAPE,
    "messages": Many(Ref("message")),
}
#: The JSONL layout's update lines (beside the metadata line and the messages), each one field.
UPDATES: dict[str, Spec] = {
    "$set": used("metadata update: `directories` read, the rest skipped and counted", Obj(META)),
    "$rewindTo": used("skipped and counted (the rewound messages happened: they stay in the map)", ID),
}
#: A JSONL line: a message (by its type), or the metadata line, a `$set` or a `$rewindTo`.
LINE = used("line dispatch: a message by its type, else the metadata line, `$set` or `$rewindTo`", Switch(
    "type", {kind: Ref("message") for kind in MESSAGE_TYPES}, default=Obj({**META, **UPDATES})))
#: line shapes of the JSONL layout other than messages -> handling (the update lines' read off the tree)
LINE_KINDS: dict[str, str] = {
    "metadata (first line)": "session id, start time, `kind`, `directories` (repository roots)",
    **{name: node.use for name, node in UPDATES.items()},
}
#: The single-JSON layout.
DOCUMENT = Obj(META)

TABLE = Table(FORMAT, LINE, {"message": MESSAGE}, document=DOCUMENT, document_key="messages")
