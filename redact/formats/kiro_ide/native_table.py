"""Kiro IDE chat sessions under `--to native`: the session document (`<sessionId>.json`), and the
assembly the reader reads (the session with the execution logs its replies point to).

Text (prompts, replies, tool output, the title, the prompt logs) becomes its shape or is dropped; a
tool call keeps what the shared tool table reads of its input (a command as its verb, a path in the
path mode); the workspace directory is the session's working directory; anything unknown is dropped
and counted. Built from public readers' descriptions of the files, not from a sample.
"""
from __future__ import annotations

from redact.formats.kiro_tool_table import IDE_ALIASES
from redact.formats.toolnames import kind_of
from redact.tables.spec import (
    CWD, DROP, ID, NUMBER, SHAPE, TIMESTAMP, ByType, Many, Obj, Ref, Spec, Switch, Table, const, enum, ident,
    tagged, tool, used,
)
from redact.formats.tooltable import inputs_of

FORMAT = "kiro-ide"
#: The IDE agent's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = IDE_ALIASES
_TOOL = tool(*ALIASES)


def _inputs(name: str) -> dict[str, Spec]:
    kind = kind_of(ALIASES.get(name, name))[0]
    found = inputs_of(kind)
    if kind in ("search",):
        found.update(inputs_of("read"))
    return found


def _tool_use(name: Spec, inputs: dict[str, Spec], tag: tuple[str, str]) -> Obj:
    return Obj({tag[0]: const(tag[1]), "id": used("pairs call and result", ID),
                "name": used("event kind (the shared tool table, after the aliases)", name),
                "input": used("command (verb), path", Obj(inputs))})


#: a session message's content block
BLOCK = tagged("type", {
    "text": used("length only", Obj({"text": used("length only", SHAPE)})),
    "tool_use": used("a tool call", Switch("name", {n: _tool_use(const(n), _inputs(n), ("type", "tool_use"))
                                                    for n in ALIASES},
                                           default=_tool_use(_TOOL, {}, ("type", "tool_use")))),
    "image_url": used("counted on a prompt", Obj({"image_url": DROP})),
}, use="content dispatch")
MESSAGE = Obj({"role": used("dispatch: user, assistant", enum("user", "assistant")), "id": ID,
               "content": used("a prompt's or reply's length, tool calls",
                               ByType(text=used("length only", SHAPE), items=Many(BLOCK)))})
ENTRY = Obj({"message": used("the message", MESSAGE),
             "executionId": used("the execution log holding the reply whole", ID),
             "promptLogs": Obj({"completion": DROP, "prompt": DROP}), "contextItems": DROP})
SESSION = Obj({
    "sessionId": used("session.id", ID), "title": SHAPE,
    "workspaceDirectory": used("the working directory (repository root)", CWD),
    "dateCreated": used("the session's time (epoch ms)", ByType(text=TIMESTAMP, scalar=NUMBER)),
    "selectedModel": used("llm model", ident("model")), "defaultModelTitle": ident("model"),
    "sessionType": enum("chat", "spec", "vibe"), "history": used("the messages", Many(ENTRY)),
})
#: an execution log's entry of a bot message
BOT_ENTRY = tagged("type", {
    "text": used("length only", Obj({"text": used("length only", SHAPE)})),
    "toolUse": used("a tool call", Switch("name", {n: _tool_use(const(n), _inputs(n), ("type", "toolUse"))
                                                   for n in ALIASES},
                                          default=_tool_use(_TOOL, {}, ("type", "toolUse")))),
}, use="entry dispatch")
EXEC_MESSAGE = tagged("role", {
    "human": used("the prompt again (the session's message is read)", Obj({"entries": DROP})),
    "bot": used("an llm response", Obj({"entries": used("its text and tool calls", Many(BOT_ENTRY))})),
    "tool": used("a tool result, paired in order", Obj({"entries": used("byte count", SHAPE)})),
}, use="message dispatch")
EXECUTION = Obj({"executionId": used("joins the session's replies", ID),
                 "messagesFromExecutionId": used("the exchange", Many(EXEC_MESSAGE))})
#: what the reader reads: the session and the execution logs its replies point to (table.assemble)
ASSEMBLY = Obj({"kiroIde": used("recognises the assembly", const("session")),
                "session": used("the session", Ref("session")),
                "executions": used("the execution logs", Many(Ref("execution")))})

TABLE = Table(FORMAT, SESSION, {"session": SESSION, "execution": EXECUTION}, jsonl=False, document=ASSEMBLY,
              document_key="executions")
