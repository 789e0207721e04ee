"""A Kiro IDE chat session (its `<sessionId>.json`, or the assembly with its execution logs) -> facts.

A `user` message is a prompt (its text length, images counted). An `assistant` message whose
`executionId` names an execution log that is there is read from that log: each `bot` message is one
llm event (text length, tool calls through the shared tool table after the aliases: `executeBash` is a
shell command through the verb engine), each `tool` message the result of the oldest call still
open (the log pairs them by order; its outcome is not recorded, so no result is an error). An
assistant message without its log is one llm event with the text it shows (often only "On it.").
Times: Kiro writes none per message; every event takes the session's `dateCreated`. The model is the
session's `selectedModel`. Built from public readers' descriptions, not from a sample.
"""
from __future__ import annotations

from collections import deque
from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import epoch_ms, is_model_name, json_doc, label
from redact.formats.ids import session_id
from redact.formats.kiro_ide.keys import (
    ASSEMBLY_SESSION, ASSEMBLY_TAG, BLOCK_TYPE, BLOCKS, CALL_ID, CALL_INPUT, CALL_NAME, CONTENT, CREATED,
    EXECUTION_ID, EXECUTIONS, HISTORY, MESSAGE, MODEL, ROLE, SESSION_ID, TEXT, WORKSPACE, X_CALL_ID, X_CALL_INPUT,
    X_CALL_NAME, X_ENTRIES, X_ID, X_MESSAGES, X_ROLE, X_ROLES, X_TEXT, X_TYPE, X_TYPES,
)
from redact.formats.kiro_ide.native_table import ALIASES
from redact.report import RedactionReport

AGENT_TOOL = "kiro"


def _time(value: object) -> float | None:
    if isinstance(value, str) and value.isdigit():
        return chatlog.epoch_number(int(value))
    return chatlog.epoch_number(value) if not isinstance(value, str) else epoch_ms(value)


class KiroIdeReader:
    def __init__(self, report: RedactionReport, executions: dict[str, dict[str, Any]]) -> None:
        self.report = report
        self.executions = executions
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.calls: dict[str, ToolCall] = {}
        self.open: deque[ToolCall] = deque()
        self.model: str | None = None
        self.used: set[str] = set()

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, doc: dict[str, Any]) -> None:
        cwd = doc.get(WORKSPACE)
        if isinstance(cwd, str) and cwd:
            self.s.cwd = cwd
            self.s.roots = chatlog.root_of(cwd, project=True)
        model = doc.get(MODEL)
        self.model = model if is_model_name(model) else None
        t = _time(doc.get(CREATED))
        history = doc.get(HISTORY)
        if t is None:
            if isinstance(history, list) and history:
                self.skip("session:<no time>")
            return
        self.s.saw(t)
        for entry in history if isinstance(history, list) else []:
            message = as_object(as_object(entry).get(MESSAGE))
            role = message.get(ROLE)
            content = message.get(CONTENT)
            blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
            for b in blocks:
                kind = b.get(BLOCK_TYPE)
                if not isinstance(kind, str) or BLOCKS.get(kind) != "mapped":
                    self.skip(label("block", kind if isinstance(kind, str) else None))
            if role == "user":
                self.prompt(content, blocks, t)
            elif role == "assistant":
                exec_id = as_object(entry).get(EXECUTION_ID)
                log = self.executions.get(exec_id) if isinstance(exec_id, str) and exec_id not in self.used else None
                if log is not None and isinstance(exec_id, str):
                    self.used.add(exec_id)
                    self.execution(log, t)
                else:
                    self.reply(content, blocks, t)
            else:
                self.skip(label("message", role if isinstance(role, str) else None))

    def prompt(self, content: object, blocks: list[dict[str, Any]], t: float) -> None:
        chars = len(content) if isinstance(content, str) else \
            sum(len(b[TEXT]) for b in blocks if b.get(BLOCK_TYPE) == "text" and isinstance(b.get(TEXT), str))
        turn = UserTurn(t, MAIN, chars)
        turn.images = sum(1 for b in blocks if b.get(BLOCK_TYPE) == "image_url")
        self.s.facts.append(turn)

    def call(self, llm: LlmResponse, call_id: object, name: object, inp: object, t: float, fallback: str) -> None:
        if not isinstance(name, str) or not name:
            self.skip("tool_use:<no name>")
            return
        cid = call_id if isinstance(call_id, str) and call_id else fallback
        if cid in self.calls:
            self.skip("<duplicate>")
            return
        c = chatlog.call(name, inp, cid, t, MAIN, aliases=ALIASES)
        self.calls[cid] = c
        self.open.append(c)
        llm.tool_calls += 1
        self.s.facts.append(c)

    def reply(self, content: object, blocks: list[dict[str, Any]], t: float) -> None:
        llm = LlmResponse(t, MAIN, self.model)
        self.s.facts.append(llm)
        if isinstance(content, str):
            llm.text_chars = len(content)
        for n, b in enumerate(blocks):
            if b.get(BLOCK_TYPE) == "text" and isinstance(b.get(TEXT), str):
                llm.text_chars += len(b[TEXT])
            elif b.get(BLOCK_TYPE) == "tool_use":
                self.call(llm, b.get(CALL_ID), b.get(CALL_NAME), b.get(CALL_INPUT), t, f"call-{len(self.calls)}-{n}")
        llm.stop = "tool_use" if llm.tool_calls else None

    def execution(self, log: dict[str, Any], t: float) -> None:
        messages = log.get(X_MESSAGES)
        for m in messages if isinstance(messages, list) else []:
            m = as_object(m)
            role = m.get(X_ROLE)
            if not isinstance(role, str) or X_ROLES.get(role) != "mapped":
                self.skip(label("execution", role if isinstance(role, str) else None))
            elif role == "bot":
                self.bot(m, t)
            elif role == "tool":
                self.tool_result(m, t)

    def bot(self, m: dict[str, Any], t: float) -> None:
        llm = LlmResponse(t, MAIN, self.model)
        self.s.facts.append(llm)
        entries = m.get(X_ENTRIES)
        for n, e in enumerate(entries if isinstance(entries, list) else []):
            e = as_object(e)
            kind = e.get(X_TYPE)
            if kind == "text" and isinstance(e.get(X_TEXT), str):
                llm.text_chars += len(e[X_TEXT])
            elif kind == "toolUse":
                self.call(llm, e.get(X_CALL_ID), e.get(X_CALL_NAME), e.get(X_CALL_INPUT), t,
                          f"call-{len(self.calls)}-{n}")
            else:
                self.skip(label("entry", kind if isinstance(kind, str) and X_TYPES.get(kind) else None))
        llm.stop = "tool_use" if llm.tool_calls else "end_turn"

    def tool_result(self, m: dict[str, Any], t: float) -> None:
        if not self.open:
            self.skip("execution:tool:<no call>")
            return
        c = self.open.popleft()
        entries = m.get(X_ENTRIES)
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=False,
                                           output=entries if isinstance(entries, str) else None))


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    doc = json_doc(raw, where) if raw.strip() else {}
    doc = doc if isinstance(doc, dict) else {}
    executions: dict[str, dict[str, Any]] = {}
    if ASSEMBLY_TAG in doc and doc.get(ASSEMBLY_TAG) == "session":
        logs = doc.get(EXECUTIONS)
        for log in logs if isinstance(logs, list) else []:
            if isinstance(log, dict) and isinstance(log.get(X_ID), str):
                executions.setdefault(log[X_ID], log)
        doc = as_object(doc.get(ASSEMBLY_SESSION))
    reader = KiroIdeReader(report, executions)
    reader.read(doc)
    reader.s.native_id = session_id(doc.get(SESSION_ID), raw, file_stem)
    return reader.s
