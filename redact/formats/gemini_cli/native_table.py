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
    used,
)

FORMAT = "gemini-cli"

_LINES: dict[str, Spec] = {"start_line": NUMBER, "end_line": NUMBER, "offset": NUMBER, "limit": NUMBER}
_TARGET = used("targets (read, edit)", PATH)
_EDIT: dict[str, Spec] = {"file_path": _TARGET, "old_string": SHAPE, "new_string": SHAPE, "instruction": SHAPE,
         "allow_multiple": BOOL, "expected_replacements": NUMBER}
_SEARCH: dict[str, Spec] = {"pattern": SHAPE, "dir_path": PATH, "path": PATH, "include": SHAPE, "context": NUMBER,
           "total_max_matches": NUMBER, "case_sensitive": BOOL}
ARGS: dict[str, dict[str, Spec]] = {
    "run_shell_command": {"command": used("verb (verb engine)", VERB), "dir_path": PATH, "directory": PATH, "is_background": BOOL,
                          "description": SHAPE},
    "read_file": {"file_path": _TARGET, "absolute_path": _TARGET, "path": _TARGET, **_LINES},
    "read_many_files": {"paths": SHAPE, "include": SHAPE, "exclude": SHAPE},
    "write_file": {"file_path": _TARGET, "content": SHAPE},
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
    "result": used("functionResponse.response.output: byte count, exit code (`Exit Code: N`), commits and PRs "
                   "it confirms; .error: errClass from the wording", SHAPE),
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
_CONTENT_OF = {"user": "length and URL count", "gemini": "length only (textChars)",
               "error": "errClass from the wording"}
MESSAGE = used("message dispatch (see the message types)", Switch("type", {
    "user": used("a prompt", Obj({**_BASE, "type": const("user"),
                                  "content": used(_CONTENT_OF["user"], _CONTENT)})),
    "gemini": used("an llm event", Obj({
        **_BASE, "type": const("gemini"), "content": used(_CONTENT_OF["gemini"], _CONTENT),
        "model": used("llm model", ident("model")), "tokens": TOKENS, "toolCalls": Many(TOOL_CALL),
        "thoughts": used("presence only (thinking)",
                         Many(obj(subject=SHAPE, description=SHAPE, timestamp=TIMESTAMP)))})),
    **{kind: Obj({**_BASE, "type": const(kind), "content": used(
        _CONTENT_OF.get(kind, "`Request cancelled.` only"), ByType(text=shape(CANCELLED), items=SHAPE))})
       for kind in MESSAGE_TYPES if kind not in ("user", "gemini")},
}))

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
#: A JSONL line: a message (by its type), or the metadata line, a `$set` or a `$rewindTo`.
LINE = used("line dispatch: a message by its type, else the metadata line, `$set` or `$rewindTo`", Switch(
    "type", {kind: Ref("message") for kind in MESSAGE_TYPES},
    default=Obj({**META, "$set": used("metadata update: `directories` read, the rest skipped and counted",
                                      Obj(META)),
                 "$rewindTo": used("skipped and counted", ID)})))
#: The single-JSON layout.
DOCUMENT = Obj(META)

TABLE = Table(FORMAT, LINE, {"message": MESSAGE}, document=DOCUMENT, document_key="messages")
