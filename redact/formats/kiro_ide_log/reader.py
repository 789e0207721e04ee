"""A session of Kiro's store (`~/.kiro/sessions/<workspace>/sess_<id>/messages.jsonl`, with the
`session.json` beside it) -> facts. Built from public descriptions of the store, not from a sample.

- **Prompts.** A `user` event: its text length, URL count, images.
- **Model responses.** The `assistant` events and `tool_call`s after a prompt or a tool result are one
  llm event (the session's `model`): `Say` text gives its length, `Reasoning` its thinking (presence
  only: the text and `reasoningSignature` are never read), each `tool_call` a call through the
  shared tool table after Kiro's aliases (`executeBash` / `shell` is a shell command through the verb
  engine). An `assistant` `Summary` is a compaction. The store states no tokens: none is made up;
  credits (`usage_summary`) are not tokens and are not read.
- **Tool results.** A `tool_result`: the byte count of its content, an error when `isError` is true
  or `status` is `error`. A `sub_agent_start` is a subagent launch (a `task` call named by
  `subAgentName`), its `sub_agent_complete` the launch's result.
- **Turns.** `turn_end` gives the stop reason of the turn's last response; a turn that ended in
  `error`, `failed` or `aborted` is an error event, a `cancelled` one an interruption.
- **The session.** `session.json`: its id, the working directory (the first of `workspacePaths`,
  else of `rootPaths`), the model, and for a tangent or a subagent session (`createdReason`) its
  parent (`parentSessionId`). A session with no event (a `session.json` alone, an empty log) is a map
  with no events, and the report says so; it starts at `lastModifiedAt`, the only time it records.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

import orjson

from redact.build.facts import MAIN, Compaction, ErrorFact, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import count_urls, epoch_ms, is_model_name, label, session_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.kiro_ide_log.keys import (
    AT, CALL_ARGS, CALL_ID, CALL_NAME, CONTENT, IMAGES, IS_ERROR, MODEL, MODIFIED, OPERATION, PARENT, PAYLOAD,
    REASON, ROOTS, SESSION_ID, STATUS, STOP, SUB_ID, SUB_NAME, SUB_RESPONSE, TYPE, TYPES, WORKSPACES,
)
from redact.formats.kiro_ide_log.native_table import ALIASES, STOP_REASONS, SUB_REASONS
from redact.formats.kiro_ide_log.table import META, is_session_doc
from redact.formats.roots import settle
from redact.report import RedactionReport

AGENT_TOOL = "kiro"
NO_EVENTS = "the session holds no events (its session.json alone, or an empty log): its map has no events"


def session_doc(companions: list[Any] | None) -> dict[str, Any] | None:
    """The `session.json` among the companions, when it is one."""
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        if path.name != META:
            continue
        try:
            doc = orjson.loads(path.read_bytes()[:1 << 20])
        except (OSError, orjson.JSONDecodeError):
            continue
        if is_session_doc(doc):
            return dict(doc)
    return None


class KiroStoreReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.model: str | None = None
        self.sid: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.llm: LlmResponse | None = None
        self.last: LlmResponse | None = None
        self.events = 0
        self.modified: float | None = None

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def session(self, doc: dict[str, Any]) -> None:
        sid, model = doc.get(SESSION_ID), doc.get(MODEL)
        self.modified = epoch_ms(doc.get(MODIFIED))
        self.sid = sid if isinstance(sid, str) and sid else None
        self.model = str(model) if is_model_name(model) else None
        for key in (WORKSPACES, ROOTS):
            paths = doc.get(key)
            cwd = next((p for p in paths if isinstance(p, str) and p), None) if isinstance(paths, list) else None
            if cwd is not None:
                self.s.cwd = cwd
                break
        parent = doc.get(PARENT)
        if doc.get(REASON) in SUB_REASONS and isinstance(parent, str) and parent:
            self.s.role, self.s.parent_native_id = "subagent", parent

    def read(self, data: bytes, where: str, *, skip_bad_lines: bool) -> None:
        for n, r in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            if n == 1 and PAYLOAD not in r and is_session_doc(r):  # a session.json given alone: its assembly's first line
                self.session(r)
                continue
            t = epoch_ms(r.get(AT))
            p = as_object(r.get(PAYLOAD))
            kind = p.get(TYPE)
            if not isinstance(kind, str) or TYPES.get(kind) != "mapped":
                self.skip(label(kind) if isinstance(kind, str) else "<no type>")
                continue
            if t is None:
                self.skip(label(kind) + ":<no time>")
                continue
            self.s.saw(t)
            self.events += 1
            self.event(kind, p, t)

    def response(self, t: float) -> LlmResponse:
        if self.llm is None:
            self.llm = LlmResponse(t, MAIN, self.model, stop="end_turn")
            self.s.facts.append(self.llm)
            self.last = self.llm
        return self.llm

    def event(self, kind: str, p: dict[str, Any], t: float) -> None:
        if kind == "user":
            text = p.get(CONTENT)
            text = text if isinstance(text, str) else ""
            images = p.get(IMAGES)
            n_images = sum(1 for i in images if i) if isinstance(images, list) else 0
            if text or n_images:
                self.s.facts.append(UserTurn(t, MAIN, len(text), n_images, count_urls(text)))
            self.llm = None
        elif kind == "assistant":
            op, text = p.get(OPERATION), p.get(CONTENT)
            if op == "Summary":
                self.s.facts.append(Compaction(t, MAIN))
                return
            llm = self.response(t)
            if op == "Reasoning":
                llm.thinking = True
            elif op == "Say" and isinstance(text, str):
                llm.text_chars += len(text)
        elif kind == "tool_call":
            self.call(p.get(CALL_ID), p.get(CALL_NAME), p.get(CALL_ARGS), t)
        elif kind == "sub_agent_start":
            name = p.get(SUB_NAME)
            c = self.call(p.get(SUB_ID), "task", {}, t)
            if c is not None and isinstance(name, str) and 0 < len(name) <= 100 and " " not in name:
                c.subagent_type = name
        elif kind in ("tool_result", "sub_agent_complete"):
            self.result(p, t, sub=kind == "sub_agent_complete")
        elif kind == "turn_end":
            self.turn_end(p.get(STOP), t)
        # turn_start: a turn begins (its prompt is the `user` event)

    def call(self, call_id: object, name: object, args: object, t: float) -> ToolCall | None:
        if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name:
            self.skip("tool_call:<no id or name>")
            return None
        if call_id in self.calls:
            self.skip("<duplicate>")
            return None
        llm = self.response(t)
        c = chatlog.call(name, as_object(args), call_id, t, MAIN, aliases={**ALIASES, "task": "task"})
        self.calls[call_id] = c
        llm.tool_calls += 1
        llm.stop = "tool_use"
        self.s.facts.append(c)
        return c

    def result(self, p: dict[str, Any], t: float, *, sub: bool) -> None:
        call_id = p.get(SUB_ID if sub else CALL_ID)
        c = self.calls.get(call_id) if isinstance(call_id, str) else None
        if c is None or c.call_id in self.done:
            self.skip(("sub_agent_complete" if sub else "tool_result") + (":<no call>" if c is None else ":<again>"))
            return
        self.done.add(c.call_id)
        output = p.get(SUB_RESPONSE if sub else CONTENT)
        error = not sub and (p.get(IS_ERROR) is True or p.get(STATUS) == "error")
        text = output if isinstance(output, str) else None
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=error, output=text,
                                           error_text=text if error else None))
        self.llm = None  # what the model says next is its next response

    def turn_end(self, reason: object, t: float) -> None:
        found = STOP_REASONS.get(reason) if isinstance(reason, str) else None
        if found is None:
            return
        stop, err_class = found
        if self.last is not None and self.last.stop != "tool_use":
            self.last.stop = stop
        if err_class is not None:
            self.s.facts.append(ErrorFact(t, MAIN, "orchestration", err_class))
        self.llm = None

    def finish(self, data: bytes, file_stem: str | None) -> SessionFacts:
        s, modified = self.s, self.modified
        if not self.events:
            self.report.warn(NO_EVENTS)
            if modified is not None and s.first_seen is None:
                s.saw(modified)
        elif modified is not None and s.last_seen is not None and modified > s.last_seen:
            s.ends(modified)
        s.native_id = session_id(self.sid, data, file_stem if file_stem not in ("messages", "session") else None)
        settle(s, (s.cwd,))  # a repository only on evidence (redact/formats/roots.py)
        self.stats.warn_skipped(self.report)
        return s


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    reader = KiroStoreReader(report)
    doc: Any = None
    body = raw.lstrip()
    if body[:1] == b"{" and b"\n{" not in body.rstrip():
        try:
            doc = orjson.loads(body)
        except orjson.JSONDecodeError:
            doc = None
    meta = doc if is_session_doc(doc) else session_doc(companions)
    if meta is not None:
        reader.session(meta)
    if not is_session_doc(doc) and raw.strip():
        reader.read(raw, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(raw, file_stem)
