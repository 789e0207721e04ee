"""Amp threads under `--to native`: the thread document, its messages and their content blocks.

Text (prompts, replies, thinking, tool results, the title) becomes its shape; a tool's input keeps
only what the shared tool table reads (a command as its verb, a path in the path mode, a URL's
host); usage numbers and models stay; the environment keeps the client's version (the workspace's
`file://` URI and repository are dropped); `~debug` (the last request, whole) and anything unknown are dropped and counted.
"""
from __future__ import annotations

from redact.formats.amp.table import ALIASES, STATUS
from redact.formats.toolnames import kind_of
from redact.native.spec import (
    BOOL,
    DROP,
    ID,
    NUMBER,
    SHAPE,
    TIMESTAMP,
    VERSION,
    Many,
    Obj,
    Spec,
    Switch,
    Table,
    const,
    enum,
    ident,
    tool,
    used,
)
from redact.native.tables.tools import inputs_of

FORMAT = "amp"
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
BLOCK = used("content dispatch", Switch("type", {
    "text": Obj({"type": const("text"), "text": used("length only", SHAPE)}),
    "thinking": Obj({"type": const("thinking"), "thinking": used("presence only (thinking)", SHAPE),
                     "signature": DROP}),
    "redacted_thinking": Obj({"type": const("redacted_thinking"), "data": DROP}),
    "image": Obj({"type": const("image"), "source": DROP}),
    "tool_use": TOOL_USE,
    "tool_result": Obj({"type": const("tool_result"), "toolUseID": used("pairs call and result", ID),
                        "run": Obj({"status": used("done / error / cancelled / rejected-by-user",
                                                   enum(*STATUS, "in-progress", "queued")),
                                    "result": used("byte count; exitCode of a Bash result", SHAPE),
                                    "error": used("byte count", SHAPE), "progress": DROP})}),
}))
_USAGE = Obj({"model": used("llm model", ident("model")), "maxInputTokens": NUMBER,
              "inputTokens": used("in", NUMBER), "outputTokens": used("out", NUMBER),
              "cacheCreationInputTokens": used("cw", NUMBER), "cacheReadInputTokens": used("cr", NUMBER), "totalInputTokens": NUMBER,
              "credits": NUMBER, "creditsSinceLastUserMessage": NUMBER, "thinkingBudget": NUMBER})
MESSAGE = Obj({
    "role": used("dispatch: user, assistant", enum("user", "assistant", "info")), "messageId": NUMBER,
    "content": Many(BLOCK),
    "state": Obj({"type": enum("complete", "streaming", "cancelled", "error"),
                  "stopReason": used("stop", enum("end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal"))}),
    "usage": _USAGE, "userState": DROP, "agentMode": enum("smart", "rush", "free", "fast"),
    "meta": Obj({"sentAt": used("a user message's time (epoch ms)", NUMBER)}), "fileMentions": DROP,
})
_LEDGER = Obj({"id": ID, "timestamp": used("the time of an assistant message", TIMESTAMP), "model": ident("model"), "credits": NUMBER,
               "tokens": Obj({"input": NUMBER, "output": NUMBER}),
               "operationType": enum("inference", "title-generation", "summarization", "oracle"),
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
