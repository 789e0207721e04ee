"""A Goose session (JSON Lines of any generation, or a `sessions.db` session exported by `store.py`)
-> facts.

The metadata line (2025, and the store's) names the working directory (the repository root on
evidence, redact/formats/roots.py) and, in a store, the session's id; its token totals are the session's and
are never spread over the messages. A user message is a prompt (text length, images) when it holds
text; its tool responses are the results of the calls. An assistant message is one llm event: text
length, thinking, its tool requests. `developer__shell` is a shell command through the verb engine;
`developer__text_editor` a read (`view`) or an edit (`write` creates the file); any other tool (an
extension's, `<extension>__<tool>`) is a `tool` event whose arguments are never read. A late-2024
tool call has no id: its result is the next result by order. Times are the messages' `created`
(epoch seconds).
"""
from __future__ import annotations

from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import epoch_ms, label
from redact.formats.goose.keys import (
    ARGUMENTS, CALL_NAME, CONTENT, CONTENT_TEXT, CONTENT_TYPE, CREATED, CREATED_AT, EDITOR_COMMAND, ERR, IS_ERROR, ITEM_TYPE,
    ITEMS, OK, OLD_CALL, OLD_IMAGE, OLD_REQUEST, OLD_RESPONSE, OLD_RESULT, OLD_TEXT, OLD_TEXT_TEXT, PLAIN_ARGUMENTS,
    PLAIN_ID, PLAIN_RESULT, PLAIN_TEXT, REQUEST_ID, RESPONSE_ID, RESULT_CONTENT, RESULT_ERROR, RESULT_VALUE, ROLE,
    SESSION_ID, STATUS, TEXT, TOOL_CALL, TOOL_NAME, TOOL_RESULT, VALUE, WORKING_DIR,
)
from redact.formats.goose.native_table import EDITOR_COMMANDS, EDITOR_TOOLS, SHELL_TOOLS
from redact.formats.ids import session_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport

AGENT_TOOL = "goose"
#: (kind, ...) of one content item, whatever its generation
Item = tuple[Any, ...]


def _texts(items: object) -> str:
    """The text of a result's content items (`[{type: text, text}]`)."""
    found = items if isinstance(items, list) else []
    return "\n".join(t for t in (as_object(i).get(CONTENT_TEXT) for i in found if as_object(i).get(CONTENT_TYPE) == "text")
                     if isinstance(t, str))


def _call(call: object) -> Item:
    c = as_object(call)
    return "call", c.get(CALL_NAME), c.get(ARGUMENTS)


def item_of(item: dict[str, Any]) -> Item:
    """One content item as (kind, ...): text, image, thinking, call (id, name, arguments), result
    (id, error, text), or (`skip`, its name)."""
    kind = item.get(ITEM_TYPE)
    if isinstance(kind, str):
        if ITEMS.get(kind) != "mapped":
            return "skip", label("content", kind)
        if kind == "text":
            return "text", item.get(TEXT)
        if kind == "image":
            return ("image",)
        if kind in ("thinking", "redactedThinking"):
            return ("thinking",)
        if kind == "toolRequest":
            call = as_object(item.get(TOOL_CALL))
            if call.get(STATUS) != "success":
                return "skip", "item:toolRequest:<not parsed>"
            return ("call", item.get(REQUEST_ID), *_call(call.get(VALUE))[1:])
        result = as_object(item.get(TOOL_RESULT))
        value = result.get(RESULT_VALUE)
        error = result.get(STATUS) == "error" or as_object(value).get(IS_ERROR) is True
        text = _texts(value) if isinstance(value, list) else _texts(as_object(value).get(RESULT_CONTENT))
        return "result", item.get(RESPONSE_ID), error, text or result.get(RESULT_ERROR)
    # the older generations: the item's one key names its kind
    if isinstance(item.get(OLD_TEXT), dict):
        return "text", item[OLD_TEXT].get(OLD_TEXT_TEXT)
    if item.get(OLD_IMAGE) is not None:
        return ("image",)
    if isinstance(item.get(OLD_REQUEST), dict):
        request = item[OLD_REQUEST]
        call = as_object(request.get(OLD_CALL))
        if not isinstance(call.get(OK), dict):
            return "skip", "item:ToolRequest:<not parsed>"
        return ("call", request.get(REQUEST_ID), *_call(call[OK])[1:])
    if isinstance(item.get(OLD_RESPONSE), dict):
        response = item[OLD_RESPONSE]
        result = as_object(response.get(OLD_RESULT))
        error = ERR in result
        return "result", response.get(RESPONSE_ID), error, result.get(ERR) if error else _texts(result.get(OK))
    if isinstance(item.get(TOOL_NAME), str):
        return "call", None, item[TOOL_NAME], item.get(PLAIN_ARGUMENTS)
    if PLAIN_RESULT in item:
        found = item.get(PLAIN_RESULT)
        return "result", item.get(PLAIN_ID), False, found if isinstance(found, str) else None
    if isinstance(item.get(PLAIN_TEXT), str):
        return "text", item[PLAIN_TEXT]
    return "skip", "item:<unknown kind>"


class GooseReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.sid: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.unpaired: list[ToolCall] = []  # late-2024 calls without an id, in order
        self.done: set[str] = set()
        self.writes: set[str] = set()  # the text editor's `write` calls: their file is created
        self.t: float | None = None
        self.lines = 0

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, data: bytes | BinaryIO, where: str, skip_bad_lines: bool) -> None:
        for _, r in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            self.lines += 1
            role = r.get(ROLE)
            if role in ("user", "assistant"):
                self.message(role, r)
            elif role is None and self.lines == 1 and isinstance(r.get(WORKING_DIR), str):
                self.metadata(r)
            else:
                self.skip(label("message", role) if isinstance(role, str) else "<no role>")

    def metadata(self, r: dict[str, Any]) -> None:
        sid, cwd = r.get(SESSION_ID), r.get(WORKING_DIR)
        self.sid = sid if isinstance(sid, str) and sid else None
        if isinstance(cwd, str) and cwd:
            self.s.cwd = cwd
            self.s.roots = chatlog.root_of(cwd)
        t = epoch_ms(r.get(CREATED_AT))
        if t is not None:
            self.s.saw(t)

    def message(self, role: str, r: dict[str, Any]) -> None:
        t = chatlog.epoch_number(r.get(CREATED))
        if t is not None:
            self.t = t
            self.s.saw(t)
        if self.t is None:
            self.skip("message:<no time>")
            return
        content = r.get(CONTENT)
        items = [item_of(i) for i in content if isinstance(i, dict)] if isinstance(content, list) else []
        for item in items:
            if item[0] == "skip":
                self.skip(item[1])
        if role == "user":
            for item in items:
                if item[0] == "result":
                    self.result(item, self.t)
            texts = [i for i in items if i[0] in ("text", "image")]
            if texts:
                turn = UserTurn(self.t, MAIN, sum(len(i[1]) for i in texts if i[0] == "text" and isinstance(i[1], str)))
                turn.images = sum(1 for i in texts if i[0] == "image")
                self.s.facts.append(turn)
            return
        llm = LlmResponse(self.t, MAIN, None)
        self.s.facts.append(llm)
        for item in items:
            if item[0] == "text" and isinstance(item[1], str):
                llm.text_chars += len(item[1])
            elif item[0] == "thinking":
                llm.thinking = True
            elif item[0] == "call":
                self.call(item, self.t, llm)

    def call(self, item: Item, t: float, llm: LlmResponse) -> None:
        _, call_id, name, args = item
        if not isinstance(name, str) or not name or (isinstance(call_id, str) and call_id in self.calls):
            self.skip("item:toolRequest:<no name>" if not isinstance(name, str) or not name else "<duplicate>")
            return
        inp = as_object(args)
        if name in SHELL_TOOLS:
            canonical = "shell"
        elif name in EDITOR_TOOLS:
            command = inp.get(EDITOR_COMMAND)
            canonical = EDITOR_COMMANDS.get(command, "tool") if isinstance(command, str) else "tool"
        else:
            canonical, inp = "tool", {}  # an extension's tool: its arguments are content
        cid = call_id if isinstance(call_id, str) and call_id else f"goose-{len(self.calls)}"
        c = chatlog.call(name, inp, cid, t, MAIN, aliases={name: canonical})
        if canonical == "write":
            self.writes.add(cid)
        self.calls[cid] = c
        if not (isinstance(call_id, str) and call_id):
            self.unpaired.append(c)
        llm.tool_calls += 1
        self.s.facts.append(c)

    def result(self, item: Item, t: float) -> None:
        _, call_id, error, text = item
        c = self.calls.get(call_id) if isinstance(call_id, str) else None
        if c is None and self.unpaired:
            c = self.unpaired.pop(0)
        if c is None or c.call_id in self.done:
            self.skip("item:toolResponse:<no call>" if c is None else "<duplicate>")
            return
        self.done.add(c.call_id)
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=bool(error), output=text,
                                           error_text=text if error else None,
                                           created=True if c.call_id in self.writes else None))


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = GooseReader(report)
    reader.read(data, where, skip_bad_lines)
    reader.s.native_id = session_id(reader.sid, data, file_stem)
    reader.stats.warn_skipped(report)
    return reader.s
