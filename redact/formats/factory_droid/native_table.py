"""Factory Droid's one table: the session JSON Lines (`~/.factory/sessions/<cwd slug>/<uuid>.jsonl`), a
`session_start` line and then `message` lines holding Anthropic-style content blocks, with what the
reader keeps of each field and what `--to native` writes.

Text (prompts, replies, thinking, tool results, titles) becomes its shape; a tool's input keeps only
what the shared tool table reads (a command as its verb, a path in the path mode, a URL's host); the
session's `owner` (a user name) is dropped; any other record type or field is dropped and counted.
"""
from __future__ import annotations

from redact.formats.toolnames import kind_of
from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, RESULT, SHAPE, TIMESTAMP, Many, Obj, Spec, Switch, Table, ByType,
    const, enum, ident, tagged, tool, used,
)
from redact.formats.tooltable import inputs_of

FORMAT = "factory-droid"
#: Droid's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "Read": "read", "LS": "list", "Grep": "grep", "Glob": "glob", "Create": "write", "Edit": "edit",
    "MultiEdit": "multiedit", "ApplyPatch": "apply_patch", "Execute": "execute", "WebSearch": "web_search",
    "FetchUrl": "fetch", "Task": "task", "TodoWrite": "todo_write",
}
#: input fields of Droid's tools that name a folder to search (read as the search's target)
FOLDER_KEYS = ("directory_path", "folder")
_TOOL = tool(*ALIASES)


def _kind(name: str) -> str:
    kind = kind_of(ALIASES.get(name, name))[0]
    return "web" if kind == "web-search" else kind


def _inputs(name: str) -> dict[str, Spec]:
    found = inputs_of(_kind(name))
    if _kind(name) == "search":
        found.update({k: PATH for k in (*FOLDER_KEYS, "path")})
    return found


def _tool_use(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return Obj({"type": const("tool_use"), "id": used("pairs call and result", ID),
                "name": used("event kind (the shared tool table, after the aliases)", name),
                "input": used("command (verb), path, url host", Obj(inputs))})


TOOL_USE = Switch("name", {name: _tool_use(const(name), _inputs(name)) for name in ALIASES},
                  default=_tool_use(_TOOL, {}))
_RESULT_USE = "byte count; a shell output confirms commits and PRs"
_IMAGE = used("counted on a prompt", Obj({"source": DROP}))
RESULT_CONTENT = ByType(text=used(_RESULT_USE, RESULT), items=Many(tagged("type", {
    "text": Obj({"text": used(_RESULT_USE, RESULT)}), "image": Obj({"source": DROP})})))
#: Content block types: a layout whose node says what the reader keeps is read for facts (`mapped`);
#: any other type is counted by name in the report, never read (redact/tables/spec.py `handling`).
BLOCK = tagged("type", {
    "text": used("length only (a prompt's, a reply's)", Obj({"text": used("length only", SHAPE)})),
    "thinking": used("presence only (thinking)", Obj({"thinking": SHAPE, "signature": DROP})),
    "redacted_thinking": used("presence only (thinking)", Obj({"data": DROP})),
    "image": _IMAGE,
    "tool_use": used("a tool call", TOOL_USE),
    "tool_result": used("its result", Obj({
        "tool_use_id": used("pairs call and result", ID),
        "content": used(_RESULT_USE, RESULT_CONTENT),
        "is_error": used("err; errClass from the wording", BOOL)})),
}, use="content dispatch")
MESSAGE = Obj({
    "role": used("dispatch: user, assistant", enum("user", "assistant")),
    "content": used("a string: a prompt's or reply's length", ByType(text=used("length only", SHAPE),
                                                                       items=Many(BLOCK))),
    "model": used("llm model", ident("model")),
})
SESSION_START = Obj({
    "id": used("session.id", ID), "title": SHAPE, "sessionTitle": SHAPE, "owner": DROP,
    "version": NUMBER, "cwd": used("working directory: the repository root on evidence", CWD),
    "isSessionTitleManuallySet": BOOL, "sessionTitleAutoStage": DROP,
    "timestamp": used("the session's start when no message has a time (a header-only log)", TIMESTAMP),
})
MESSAGE_LINE = Obj({
    "id": ID, "parentId": ID, "timestamp": used("event time", TIMESTAMP),
    "visibility": used("`llm_only`: context the harness injected, not a prompt", enum("llm_only", "user_only")),
    "message": used("role dispatch", MESSAGE),
})
RECORD = tagged("type", {"session_start": used("session id and working directory", SESSION_START),
                         "message": used("a prompt, a reply, tool results", MESSAGE_LINE)})
#: `<uuid>.settings.json` beside the log (the table's one-document layout, told by its
#: `assistantActiveTimeMs`): read for the model only (its token totals are the session's, never spread
#: over the requests); `--to native` never writes it
SETTINGS = Obj({"model": used("llm model when the messages name none", ident("model")),
                "assistantActiveTimeMs": NUMBER, "reasoningEffort": DROP, "interactionMode": DROP,
                "autonomyLevel": DROP, "autonomyMode": DROP, "tokenUsage": DROP, "providerLock": DROP,
                "providerLockTimestamp": DROP, "apiProviderLock": DROP})

TABLE = Table(FORMAT, RECORD, document=SETTINGS, document_key="assistantActiveTimeMs")
