"""Gemini CLI chat recordings under `--to native`: both layouts (the single-JSON ConversationRecord
and the append-only JSONL with its metadata line, messages, `$set` and `$rewindTo` lines).

Message text, thoughts and tool output become their shape (`{"chars": N}`); a tool call keeps its
id, name, status and time, and of its arguments only what the tool table reads (paths in the path
mode, the shell command as its verb, line numbers and flags); everything else a call carries
(`description`, `displayName`, `resultDisplay`) is dropped.
"""
from __future__ import annotations

from redact.formats.gemini_cli.table import CANCELLED, MESSAGE_TYPES, TOOLS
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
    ByType,
    Many,
    Obj,
    Ref,
    Spec,
    Switch,
    Table,
    const,
    enum,
    ident,
    obj,
    shape,
    tool,
)

FORMAT = "gemini-cli"

_LINES: dict[str, Spec] = {"start_line": NUMBER, "end_line": NUMBER, "offset": NUMBER, "limit": NUMBER}
_EDIT: dict[str, Spec] = {"file_path": PATH, "old_string": SHAPE, "new_string": SHAPE, "instruction": SHAPE,
         "allow_multiple": BOOL, "expected_replacements": NUMBER}
_SEARCH: dict[str, Spec] = {"pattern": SHAPE, "dir_path": PATH, "path": PATH, "include": SHAPE, "context": NUMBER,
           "total_max_matches": NUMBER, "case_sensitive": BOOL}
ARGS: dict[str, dict[str, Spec]] = {
    "run_shell_command": {"command": VERB, "dir_path": PATH, "directory": PATH, "is_background": BOOL,
                          "description": SHAPE},
    "read_file": {"file_path": PATH, "absolute_path": PATH, "path": PATH, **_LINES},
    "read_many_files": {"paths": SHAPE, "include": SHAPE, "exclude": SHAPE},
    "write_file": {"file_path": PATH, "content": SHAPE},
    "replace": _EDIT,
    "edit": _EDIT,
    "glob": _SEARCH,
    "grep_search": _SEARCH,
    "search_file_content": _SEARCH,
    "grep": _SEARCH,
    "list_directory": {"dir_path": PATH, "path": PATH, "ignore": SHAPE},
    "ls": {"dir_path": PATH, "path": PATH, "ignore": SHAPE},
    "google_web_search": {"query": SHAPE},
    "web_fetch": {"prompt": SHAPE, "url": SHAPE},
    "read_background_output": {"pid": NUMBER, "delay_ms": NUMBER},
    "list_background_processes": {"wait_for_previous": BOOL},
}

_STATUS = enum("success", "error", "cancelled", "scheduled", "validating", "awaiting_approval",
               "executing")
_CALL: dict[str, Spec] = {
    "id": ID, "status": _STATUS, "timestamp": TIMESTAMP, "result": SHAPE, "displayName": DROP,
    "description": DROP, "resultDisplay": DROP, "renderOutputAsMarkdown": BOOL,
}


def _call(name: Spec, args: dict[str, Spec]) -> Obj:
    return Obj({**_CALL, "name": name, "args": Obj(args)})


TOOL_CALL = Switch("name", {name: _call(const(name), ARGS.get(name, {})) for name in TOOLS},
                   default=_call(tool(*TOOLS), {}))

_BASE: dict[str, Spec] = {"id": ID, "timestamp": TIMESTAMP}
_CONTENT = ByType(text=SHAPE, items=SHAPE, obj=SHAPE)
TOKENS = obj(input=NUMBER, output=NUMBER, cached=NUMBER, thoughts=NUMBER, tool=NUMBER, total=NUMBER)
MESSAGE = Switch("type", {
    "user": Obj({**_BASE, "type": const("user"), "content": _CONTENT}),
    "gemini": Obj({**_BASE, "type": const("gemini"), "content": _CONTENT, "model": ident("model"),
                   "tokens": TOKENS, "toolCalls": Many(TOOL_CALL),
                   "thoughts": Many(obj(subject=SHAPE, description=SHAPE, timestamp=TIMESTAMP))}),
    **{kind: Obj({**_BASE, "type": const(kind), "content": ByType(text=shape(CANCELLED), items=SHAPE)})
       for kind in MESSAGE_TYPES if kind not in ("user", "gemini")},
})

META: dict[str, Spec] = {
    # projectHash is a sha256 of the project's path in older clients: a guessed path can be tested
    # against it, so it is dropped (never an id kept as written)
    "sessionId": ID, "projectHash": DROP, "startTime": TIMESTAMP, "lastUpdated": TIMESTAMP,
    "kind": enum("main", "subagent"), "directories": Many(CWD), "summary": SHAPE,
    "messages": Many(Ref("message")),
}
#: A JSONL line: a message (by its type), or the metadata line, a `$set` or a `$rewindTo`.
LINE = Switch("type", {kind: Ref("message") for kind in MESSAGE_TYPES},
              default=Obj({**META, "$set": Obj(META), "$rewindTo": ID}))
#: The single-JSON layout.
DOCUMENT = Obj(META)

TABLE = Table(FORMAT, LINE, {"message": MESSAGE}, document=DOCUMENT, document_key="messages")
