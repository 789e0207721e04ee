"""Amp threads under `--to native`: the thread document, its messages and their content blocks.

Text (prompts, replies, thinking, tool results, the title) becomes its shape; a tool's input keeps
only what the shared tool table reads (a command as its verb, a path in the path mode, a URL's
host); usage numbers and models stay; the environment keeps the client's version (the workspace's
`file://` URI and repository are dropped); `~debug` (the last request, whole) and anything unknown are dropped and counted.
"""
from __future__ import annotations

from redact.formats.toolnames import kind_of
from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, SHAPE, TIMESTAMP, VERSION, Many, Obj, Spec, Switch, Table, const, enum, ident,
    tagged, tool, used,
)
from redact.formats.tooltable import inputs_of

FORMAT = "amp"
#: Amp's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "Bash": "bash", "Read": "read", "read_file": "read", "edit_file": "edit_file", "create_file": "write",
    "undo_edit": "edit_file", "format_file": "edit_file", "Grep": "grep", "glob": "glob",
    "list_directory": "list_directory", "codebase_search_agent": "codebase_search",
    "read_web_page": "web_fetch", "web_search": "web_search", "Task": "task",
}
#: tool_result.run.status -> (error, errClass)
STATUS: dict[str, tuple[bool, str | None]] = {
    "done": (False, None), "error": (True, None), "cancelled": (True, "interrupted"),
    "rejected-by-user": (True, "permission_denied"),
}
#: What the reader opens inside a tool result's `run.result` when it is an object (a shape in this
#: table): the exit code and the output text.
RESULT_EXIT, RESULT_OUTPUT = "exitCode", "output"
_TOOL = tool(*ALIASES)


def _tool_use(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return Obj({"type": const("tool_use"), "id": used("pairs call and result", ID),
                "name": used("event kind (the shared tool table, after the aliases)", name),
                "input": used("command (cmd), path, url host", Obj(inputs))})


def _kind(name: str) -> str:
    kind = kind_of(ALIASES.get(name, name))[0]
    return "web" if kind == "web-search" else kind


TOOL_USE = Switch("name", {name: _tool_use(const(name), inputs_of(_kind(name))) for name in ALIASES},
                  default=_tool_use(_TOOL, {}))
#: Content block types: a layout whose node says what the reader keeps is read for facts (`mapped`);
#: any other type is counted by name in the report, never read (redact/tables/spec.py `handling`).
BLOCK = tagged("type", {
    "text": used("length only (a prompt's, a reply's)", Obj({"text": used("length only", SHAPE)})),
    "thinking": used("presence only (thinking)", Obj({"thinking": used("presence only (thinking)", SHAPE),
                                                      "signature": DROP})),
    "redacted_thinking": used("presence only (thinking)", Obj({"data": DROP})),
    "image": used("counted on a prompt", Obj({"source": DROP})),
    "tool_use": used("event kind (the shared tool table, after the aliases)", TOOL_USE),  # a tool call (docs show this on its `name`)
    "tool_result": used("its result", Obj({
        "toolUseID": used("pairs call and result", ID),
        "run": Obj({"status": used("done / error / cancelled / rejected-by-user", enum(*STATUS, "in-progress", "queued")),
                    "result": used(f"byte count; `{RESULT_EXIT}` of a Bash result (its `{RESULT_OUTPUT}` when an "
                                   "object)", SHAPE),
                    "error": used("byte count", SHAPE), "progress": DROP})})),
}, use="content dispatch")
_USAGE = Obj({"model": used("llm model", ident("model")), "maxInputTokens": NUMBER,
              "inputTokens": used("in", NUMBER), "outputTokens": used("out", NUMBER),
              "cacheCreationInputTokens": used("cw", NUMBER), "cacheReadInputTokens": used("cr", NUMBER), "totalInputTokens": NUMBER,
              "credits": NUMBER, "creditsSinceLastUserMessage": NUMBER, "thinkingBudget": NUMBER})
MESSAGE = Obj({
    "role": used("dispatch: user, assistant", enum("user", "assistant", "info")), "messageId": used("its time, when it has no sentAt: the usage ledger's", NUMBER),
    "content": Many(BLOCK),
    "state": Obj({"type": enum("complete", "streaming", "cancelled", "error"),
                  "stopReason": used("stop", enum("end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal"))}),
    "usage": _USAGE, "userState": DROP, "agentMode": enum("smart", "rush", "free", "fast"),
    "meta": Obj({"sentAt": used("a user message's time (epoch ms)", NUMBER)}), "fileMentions": DROP,
})
_LEDGER = Obj({"id": ID, "timestamp": used("the time of an assistant message; of an auxiliary model call",
                                            TIMESTAMP),
               "model": used("an auxiliary model call's model", ident("model")), "credits": NUMBER,
               "tokens": Obj({"input": used("an auxiliary model call's in", NUMBER),
                              "output": used("an auxiliary model call's out", NUMBER)}),
               "operationType": used("`inference` events time the messages; any other (title generation, "
                                     "summarization, oracle) is an llm event of its own",
                                     enum("inference", "title-generation", "summarization", "oracle")),
               "fromMessageId": NUMBER, "toMessageId": used("the time of an assistant message", NUMBER)})
_PLATFORM = Obj({"os": enum("linux", "darwin", "windows"), "osVersion": DROP, "cpuArchitecture": enum("x64", "arm64"),
                 "webBrowser": BOOL, "client": enum("CLI", "VS Code", "Cursor", "Windsurf", "JetBrains"),
                 "clientVersion": VERSION, "clientType": enum("cli", "vscode", "jetbrains")})
THREAD = Obj({
    "v": NUMBER, "id": used("session.id (the uuid of T-<uuid>)", ID),
    "created": used("first time seen (epoch ms)", NUMBER), "nextMessageId": NUMBER, "title": SHAPE,
    "agentMode": enum("smart", "rush", "free", "fast"), "messages": Many(MESSAGE),
    "env": Obj({"initial": Obj({"trees": Many(Obj({
        "displayName": DROP, "uri": used("the first tree's: repository root (never written)", DROP),
        "repository": DROP})),
                                "platform": _PLATFORM, "tags": DROP})}),
    "usageLedger": Obj({"events": Many(_LEDGER)}), "~debug": DROP, "meta": DROP,
})

TABLE = Table(FORMAT, THREAD, {}, jsonl=False)
