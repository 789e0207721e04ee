"""The chat record Gemini CLI writes and Qwen Code (its fork) inherited, as one table's parts: the
message types, the tool table, a tool call's fields and the session metadata. Gemini CLI's
(`gemini_cli/native_table.py`) and Qwen Code's (`qwen_code/native_table.py`) one tables are built
from these, each with its own model message type (`gemini`, `qwen`) and its own tools on top.

Declarative only (the native proof reads it, tests/test_boundaries.py): the reader these parts serve
is `redact/formats/gemini_record.py`.

Message text, thoughts and tool output become their shape (`{"chars": N}`); a tool call keeps its
id, name, status and time, and of its arguments only what the tool table reads (paths in the path
mode, the shell command as its verb, line numbers and flags); everything else a call carries
(`description`, `displayName`, `resultDisplay`) is dropped.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERB, ByType, Many, Obj, Ref, Spec, Switch, const, enum,
    ident, obj, shape, tool, used,
)

#: The `info` message the CLI writes when the user cancels a request (an interruption).
CANCELLED = "Request cancelled."


def message_types(model: str) -> dict[str, str]:
    """message `type` -> handling, for a record whose model messages are of type `model`."""
    return {
        "user": "mapped (a prompt: length and URL count)",
        model: "mapped (an llm event; its toolCalls are tool events)",
        "error": "mapped (an error event, llm; class from the wording)",
        "info": "`Request cancelled.`: an error event (interrupted); any other: skipped",
        "warning": "skipped",
    }


#: Gemini CLI's tool name -> event kind (the tool-call switch's cases are a format's tools). The
#: arguments read are the tool's `args` fields with a `use` below (`TARGET_ARGS`, `command`,
#: `prompt` / `url`).
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
#: What the reader opens inside a tool call's `result` (a shape in the table): the output and error
#: texts of `result[].functionResponse.response`.
RESULT_PATH = ("functionResponse", "response")
RESULT_OUTPUT, RESULT_ERROR = "output", "error"
#: What the reader opens inside a prompt's `content` when it is a list of parts (a shape in the
#: table): each part's text, and the parts that are images.
PART_TEXT, PART_IMAGE = "text", "inlineData"

_LINES: dict[str, Spec] = {"start_line": NUMBER, "end_line": NUMBER, "offset": NUMBER, "limit": NUMBER}
TARGETS: dict[str, Spec] = {name: used("targets (read, edit)", PATH) for name in TARGET_ARGS}
_EDIT: dict[str, Spec] = {**TARGETS, "old_string": SHAPE, "new_string": SHAPE, "instruction": SHAPE,
                          "allow_multiple": BOOL, "expected_replacements": NUMBER}
SEARCH: dict[str, Spec] = {"pattern": SHAPE, "dir_path": PATH, "path": PATH, "include": SHAPE, "context": NUMBER,
                           "total_max_matches": NUMBER, "case_sensitive": BOOL}
SHELL: dict[str, Spec] = {"command": used("verb (verb engine)", VERB), "dir_path": PATH, "directory": PATH,
                          "is_background": BOOL, "description": SHAPE}
#: Gemini CLI's tools' arguments (a tool absent here keeps none of its arguments)
ARGS: dict[str, dict[str, Spec]] = {
    "run_shell_command": SHELL,
    "read_file": {**TARGETS, **_LINES},
    "read_many_files": {"paths": SHAPE, "include": SHAPE, "exclude": SHAPE, **TARGETS},
    "write_file": {**TARGETS, "content": SHAPE},
    "replace": _EDIT,
    "edit": _EDIT,
    "glob": SEARCH,
    "grep_search": SEARCH,
    "search_file_content": SEARCH,
    "grep": SEARCH,
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


def _call(name: Spec, args: Mapping[str, Spec]) -> Obj:
    return Obj({**_CALL, "name": name, "args": Obj(dict(args))})


def tool_call(tools: Mapping[str, str], args: Mapping[str, Mapping[str, Spec]]) -> Switch:
    """A `toolCalls[]` entry, by its tool name (any other name: a tool, its arguments dropped)."""
    return used("event kind (see the tool table)", Switch(
        "name", {name: _call(const(name), args.get(name, {})) for name in tools}, default=_call(tool(*tools), {})))


_BASE: dict[str, Spec] = {"id": used("the last writing of a message wins", ID),
                          "timestamp": used("event times", TIMESTAMP)}
_CONTENT = ByType(text=SHAPE, items=SHAPE, obj=SHAPE)
TOKENS = obj(input=used("in (input - cached)", NUMBER), output=used("out (output + thoughts)", NUMBER),
             cached=used("cr", NUMBER), thoughts=used("out (output + thoughts)", NUMBER), tool=NUMBER,
             total=NUMBER)
_CONTENT_OF = {"user": f"length and URL count (a list: its parts' `{PART_TEXT}`); images (parts with `{PART_IMAGE}`)",
               "model": "length only (textChars)", "error": "errClass from the wording"}


def message_switch(model: str, tools: Mapping[str, str], args: Mapping[str, Mapping[str, Spec]]) -> Switch:
    """A chat message by its type; what the reader does with it is its handling (`message_types`)."""
    types = message_types(model)
    layouts: dict[str, dict[str, Spec]] = {
        "user": {"content": used(_CONTENT_OF["user"], _CONTENT)},
        model: {
            "content": used(_CONTENT_OF["model"], _CONTENT),
            "model": used("llm model", ident("model")), "tokens": TOKENS,
            "toolCalls": Many(tool_call(tools, args)),
            "thoughts": used("presence only (thinking)",
                             Many(obj(subject=SHAPE, description=SHAPE, timestamp=TIMESTAMP)))},
    }

    def message(kind: str) -> Obj:
        fields = layouts.get(kind) or {"content": used(_CONTENT_OF.get(kind, "`Request cancelled.` only"),
                                                       ByType(text=shape(CANCELLED), items=SHAPE))}
        layout = Obj({**_BASE, "type": const(kind), **fields})
        return layout if types[kind] == "skipped" else used(types[kind], layout)

    return used("message dispatch (see the message types)", Switch("type", {kind: message(kind) for kind in types}))


#: The session metadata (the single-JSON document, the JSONL layout's first line); `messages` are the
#: table's named node `message`.
META: dict[str, Spec] = {
    # projectHash is a sha256 of the project's path in older clients: a guessed path can be tested
    # against it, so it is dropped (never an id kept as written)
    "sessionId": used("session.id", ID), "projectHash": DROP,
    "startTime": used("session start (when no message is older)", TIMESTAMP),
    "lastUpdated": used("session start (when no message is older)", TIMESTAMP),
    "kind": used("`subagent`: session.role", enum("main", "subagent")),
    "directories": used("repository roots (never written)", Many(CWD)), "summary": SHAPE,
    "messages": Many(Ref("message")),
}


@dataclass(frozen=True)
class RecordKeys:
    """The names the chat-record reader (redact/formats/gemini_record.py) reads, each proven against a
    format's one table (its keys.py)."""

    session_id: str
    start: str
    kind: str
    directories: str
    messages: str
    message_kinds: Mapping[str, str]  # message type -> "mapped" / "skipped"
    message_type: str
    message_id: str
    at: str
    content: str
    model: str
    tokens: str
    thoughts: str
    tokens_in: str
    cached: str
    tokens_out: str
    thinking: str
    tool_calls: str
    call_id: str
    call_name: str
    call_args: str
    call_status: str
    call_done: str
    call_result: str
    path_args: tuple[str, ...]
    command: str
    prompt: str
    url: str
    # inside shapes the table keeps whole (its own constants)
    function_response: str
    response: str
    output: str
    error: str
    text: str
    inline_data: str
