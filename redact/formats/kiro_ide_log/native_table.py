"""Kiro's session store `~/.kiro/sessions/<workspace>/sess_<id>/` under `--to native`: the event log
`messages.jsonl` (`{id, timestamp, payload: {type, ...}}`, one event a line) and the session's
`session.json` (`{id, title, workspacePaths, rootPaths, model, status, parentSessionId, createdReason,
lastModifiedAt}`).

No sample of this store is public. The layout is taken from public descriptions of it (a session
monitor's documentation of `session.json` and the `turn_start` / `turn_end` events with their
`stopReason`; a usage indexer's reader of the events `user`, `assistant` (`operationType` Say,
Reasoning, Summary), `tool_call`, `tool_result`, `sub_agent_start`, `sub_agent_complete`,
`steering_inclusion`, `usage_summary` and `tombstone`), so every field the descriptions do not name
is dropped and counted, and the docs say which parts came from descriptions (docs/formats.md).

Text (prompts, replies, reasoning, tool output, a subagent's prompt and response, the title) becomes
its shape; `reasoningSignature` is a blob and is dropped; attachments (images, documents, steering
files) are dropped; a tool call keeps what the shared tool table reads of its arguments (a command as
its verb, a path in the path mode); credits (`usage_summary`) are Kiro's billing unit, never tokens.
"""
from __future__ import annotations

from redact.formats.kiro_tool_table import IDE_ALIASES
from redact.formats.toolnames import kind_of
from redact.formats.tooltable import inputs_of
from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, SHAPE, TIMESTAMP, Many, Obj, Spec, Switch, Table, const, enum, ident, tagged, tool,
    used,
)

FORMAT = "kiro-ide-log"
#: Kiro's tool names (the IDE agent's and the CLI's built-in tools) -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    **IDE_ALIASES, "shell": "bash", "read": "read", "write": "edit_file", "grep": "grep", "glob": "glob",
    "web_fetch": "web_fetch", "web_search": "web_search",
}
#: `turn_end.stopReason` -> (the map's stop reason of the turn's last response, an error class or None)
STOP_REASONS: dict[str, tuple[str, str | None]] = {
    "end_turn": ("end_turn", None), "error": ("end_turn", "other"), "failed": ("end_turn", "other"),
    "aborted": ("end_turn", "interrupted"), "cancelled": ("end_turn", "interrupted"),
}
#: `session.json`'s `createdReason` of a session that is another's lane
SUB_REASONS = ("tangent", "subagent")
_TOOL = tool(*ALIASES)


def _args(name: str) -> dict[str, Spec]:
    kind = kind_of(ALIASES.get(name, name))[0]
    found = inputs_of("web" if kind == "web-search" else kind)
    if kind == "search":
        found.update(inputs_of("read"))
    return found


def _call(name: Spec, args: dict[str, Spec]) -> Obj:
    return Obj({"type": const("tool_call"), "toolCallId": used("pairs call and result", ID),
                "toolName": used("event kind (the shared tool table, after the aliases)", name),
                "args": used("command (verb), path", Obj(args))})


_TOOL_CALL = Switch("toolName", {n: _call(const(n), _args(n)) for n in ALIASES}, default=_call(_TOOL, {}))
_ATTACHMENTS = DROP  # images and documents: a file's bytes, its URL, a steering file's text
#: `payload.type` -> its layout
PAYLOADS: dict[str, Spec] = {
    "user": used("a prompt: length, URL count, images", Obj({
        "type": const("user"), "content": used("length and URL count", SHAPE),
        "images": used("counted", _ATTACHMENTS), "documents": _ATTACHMENTS, "source": DROP})),
    "assistant": used("a reply (Say), thinking (Reasoning), a compaction's summary (Summary)", Obj({
        "type": const("assistant"), "operationType": used("what the text is", enum("Say", "Reasoning", "Summary")),
        "content": used("length only", SHAPE), "reasoningSignature": DROP, "documents": _ATTACHMENTS,
        "images": _ATTACHMENTS})),
    "tool_call": used("a tool call (the shared tool table)", _TOOL_CALL),
    "tool_result": used("its result: byte count", Obj({
        "type": const("tool_result"), "toolCallId": used("pairs call and result", ID),
        "content": used("byte count", SHAPE), "isError": used("err", BOOL),
        "status": used("err when `error`", enum("success", "error"))})),
    "sub_agent_start": used("a subagent launch (a `task` call)", Obj({
        "type": const("sub_agent_start"), "subSessionId": used("pairs launch and completion", ID),
        "subAgentName": used("subagentType", ident("subagent_type")), "prompt": SHAPE})),
    "sub_agent_complete": used("the subagent's result: byte count", Obj({
        "type": const("sub_agent_complete"), "subSessionId": used("pairs launch and completion", ID),
        "response": used("byte count", SHAPE)})),
    "turn_start": used("a turn starts", Obj({"type": const("turn_start")})),
    "turn_end": used("a turn ends: its stop reason; a failed or cancelled turn is an error event", Obj({
        "type": const("turn_end"), "stopReason": used("stop reason, error", enum(*STOP_REASONS))})),
    "steering_inclusion": Obj({"type": const("steering_inclusion"), "documents": _ATTACHMENTS}),
    "usage_summary": Obj({"type": const("usage_summary"), "executionId": ID,
                          "promptTurnSummaries": Many(Obj({"unit": enum("credit", "credits"), "usage": NUMBER}))}),
    "tombstone": Obj({"type": const("tombstone"), "kind": enum("summarization"), "effectiveFromMessageId": ID}),
    "pending_interaction": Obj({"type": const("pending_interaction")}),
    "interaction_resolved": Obj({"type": const("interaction_resolved")}),
    "session_start": Obj({"type": const("session_start")}),
    "session_metadata": Obj({"type": const("session_metadata")}),
    "session_event": Obj({"type": const("session_event")}),
    "ContextualHookInvoked": Obj({"type": const("ContextualHookInvoked")}),
}
PAYLOAD = tagged("type", PAYLOADS, use="event dispatch")
#: one line of `messages.jsonl`
EVENT = Obj({"id": used("the event's id", ID), "timestamp": used("event time", TIMESTAMP),
             "payload": used("event dispatch (by its type)", PAYLOAD)})
_STATUS = enum("in_progress", "failed", "completed", "waiting_on_user", "idle", "busy")
#: `session.json` beside the log
SESSION = Obj({
    "id": used("session.id", ID), "title": SHAPE,
    "workspacePaths": used("the working directory (its first entry; repository root on evidence)", Many(CWD)),
    "rootPaths": used("the working directory when workspacePaths has none", Many(CWD)),
    "model": used("llm model", ident("model")), "status": _STATUS,
    "parentSessionId": used("parentSessionId: a tangent's or subagent's session", ID),
    "createdReason": used("the session's role (a tangent or subagent: subagent)", enum("user", *SUB_REASONS)),
    "createdAt": TIMESTAMP, "lastModifiedAt": used("the session's end when no event is later", TIMESTAMP),
})

#: the key that tells the session document from an event (`native.py` always writes it)
DOCUMENT_KEY = "workspacePaths"
TABLE = Table(FORMAT, EVENT, {"session": SESSION}, jsonl=True, document=SESSION, document_key=DOCUMENT_KEY)
