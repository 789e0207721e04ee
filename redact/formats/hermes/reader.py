"""A Hermes Agent session -> facts: the session document (`session_<time>_<hex>.json`) or the JSON
Lines log (`<time>_<hex>.jsonl`); both hold OpenAI chat messages.

- **Times.** The log's messages carry their own `timestamp`; the document's messages carry none, so
  every event of a document is placed at its `session_start` and the session ends at
  `last_updated` (no latency is stated, none is made up); the store's export says where the session
  ended (`ended_at`), so its duration runs from the first time to that end. Hermes writes its files'
  times as local wall-clock times without a zone (Python's `datetime.now().isoformat()`) and its
  store's as epoch seconds: a zoneless time is read as written, its digits never shifted by any
  zone (the map cannot know the writer's), an epoch number as the instant it is.
- **Tokens.** The store keeps the session's totals (`sessions.input_tokens`, `output_tokens`,
  `cache_read_tokens`, `cache_write_tokens`, `reasoning_tokens`), not each response's; the export
  carries them on its header and they are given to the session's last model response, so the map's
  totals are Hermes's. Reasoning tokens are part of the output tokens as providers report them, so
  they are not added again. The files state no token counts: none is made up.
- **Prompts.** A `user` message: its length and URL count.
- **Model responses.** An `assistant` message is one llm event: the session's model (Hermes names
  it once, in the header), the stop reason (`finish_reason`), reasoning (presence), text length and
  tool calls (the shared tool table after Hermes's aliases). The store's token totals go to the last one.
- **Tool results.** A `tool` message: the byte count of its output and, when the output is Hermes's
  JSON result (`{output, exit_code, error}`), the exit code of a terminal call and its error; the
  commits and PRs a shell's output confirms.
- `system` messages and roles the table does not map are counted by name, never read.
"""
from __future__ import annotations

from typing import Any, BinaryIO

import orjson

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import count_urls, epoch_ms, is_model_name, json_document, label, session_id
from redact.formats.hermes.keys import (
    AT, CALL_ARGS, CALL_ID, CALL_NAME, CONTENT, DOC_ID, DOC_MODEL, END, FUNCTION, LINE_ROLES, MESSAGES,
    META_CWD, META_END, META_ID, META_MODEL, META_TOKENS, REASONING, RESULT_CALL, ROLE, START, STOP, TOOL_CALLS,
)
from redact.formats.hermes.native_table import ALIASES, STOPS
from redact.formats.hermes.table import sniff_doc
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.roots import settle
from redact.report import RedactionReport

AGENT_TOOL = "hermes"
#: Keys of Hermes's JSON tool result the reader reads (inside a text the table keeps as a shape).
RESULT_OUTPUT, RESULT_EXIT, RESULT_ERROR = "output", "exit_code", "error"


def document_of(data: bytes) -> dict[str, Any] | None:
    """The session document held in `data`, or None (the JSON Lines log)."""
    return json_document(data, sniff_doc)


def _time(value: object) -> float | None:
    """A Hermes time as epoch ms: an ISO-8601 text (zoneless: as written) or epoch seconds."""
    return epoch_ms(value) if isinstance(value, str) else chatlog.epoch_number(value)


def _result_json(text: str) -> dict[str, Any]:
    if not text.lstrip().startswith("{"):
        return {}
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


class HermesReader(CallPairs):
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.native: str | None = None
        self.cwd: str | None = None
        self.model: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.t: float | None = None
        self.header_seen = False
        self.tokens: dict[str, int] = {}
        self.last_llm: LlmResponse | None = None

    def document(self, doc: dict[str, Any]) -> None:
        sid, model = doc.get(DOC_ID), doc.get(DOC_MODEL)
        self.native = sid if isinstance(sid, str) and sid else None
        self.model = model if is_model_name(model) else None
        start, end = _time(doc.get(START)), _time(doc.get(END))
        if start is None:
            self.skip("document:<no time>")
            return
        self.s.saw(start)
        for m in doc.get(MESSAGES) or []:
            self.message(as_object(m), start)
        if end is not None and end >= start:
            self.s.saw(end)

    def lines(self, data: bytes, where: str, *, skip_bad_lines: bool) -> None:
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            role = record.get(ROLE)
            t = _time(record.get(AT))
            if role == "session_meta":
                self.header(record, t)
                continue
            if t is None:
                t = self.t
            if t is None:
                self.skip(label(role if isinstance(role, str) else "<no role>", "<no time>"))
                continue
            self.t = t
            self.message(record, t)

    def header(self, record: dict[str, Any], t: float | None) -> None:
        if self.header_seen:
            self.skip("session_meta:<again>")
            return
        self.header_seen = True
        sid, cwd, model = record.get(META_ID), record.get(META_CWD), record.get(META_MODEL)
        self.native = sid if isinstance(sid, str) and sid else None
        self.cwd = cwd if isinstance(cwd, str) and cwd else None
        self.model = model if is_model_name(model) else None
        if t is not None:
            self.s.saw(t)
            self.t = t
        end = _time(record.get(META_END))
        if end is not None and (t is None or end >= t):
            self.s.ends(end)
        for column in META_TOKENS:
            value = record.get(column)
            if type(value) is int and value > 0:
                self.tokens[column] = value

    def message(self, m: dict[str, Any], t: float) -> None:
        role = m.get(ROLE)
        if not isinstance(role, str) or LINE_ROLES.get(role) != "mapped" or role == "session_meta":
            self.skip(label(role if isinstance(role, str) else "<no role>"))
            return
        self.s.saw(t)
        content = m.get(CONTENT)
        text = content if isinstance(content, str) else ""
        if role == "user":
            if text:
                self.s.facts.append(UserTurn(t, MAIN, len(text), 0, count_urls(text)))
        elif role == "assistant":
            self.assistant(m, text, t)
        else:
            self.result(m, text, t)

    def assistant(self, m: dict[str, Any], text: str, t: float) -> None:
        stop = m.get(STOP)
        llm = LlmResponse(t, MAIN, self.model)
        llm.stop = STOPS.get(stop) if isinstance(stop, str) else None
        llm.text_chars = len(text)
        reasoning = m.get(REASONING)
        llm.thinking = isinstance(reasoning, str) and bool(reasoning)
        self.s.facts.append(llm)
        self.last_llm = llm
        calls = m.get(TOOL_CALLS)
        for item in calls if isinstance(calls, list) else []:
            call = as_object(item)
            function = as_object(call.get(FUNCTION))
            raw = function.get(CALL_ARGS)
            args = _result_json(raw) if isinstance(raw, str) else as_object(raw)
            self.open_call(llm, call.get(CALL_ID), function.get(CALL_NAME), args, t, aliases=ALIASES,
                           nameless="tool_call:<no id or name>")

    def result(self, m: dict[str, Any], text: str, t: float) -> None:
        c = self.answered(m.get(RESULT_CALL), unmatched="tool:<no call>")
        if c is None:
            return
        parsed = _result_json(text)
        output = parsed.get(RESULT_OUTPUT)
        code = parsed.get(RESULT_EXIT)
        exit_code = code if c.kind == "exec" and type(code) is int else None
        problem = parsed.get(RESULT_ERROR)
        error = isinstance(problem, str) and bool(problem)
        res = chatlog.result(c, max(t, c.t), error=error, output=output if isinstance(output, str) else text,
                             exit_code=exit_code, error_text=problem if error else None)
        res.out_bytes = len(text.encode("utf-8")) if text else None
        self.s.facts.append(res)

    def finish(self, data: bytes | BinaryIO, file_stem: str | None) -> SessionFacts:
        s = self.s
        if self.tokens and self.last_llm is not None:
            inp, out, cr, cw, _reasoning = (self.tokens.get(column, 0) for column in META_TOKENS)
            self.last_llm.inp, self.last_llm.out, self.last_llm.cr, self.last_llm.cw = inp, out, cr, cw
        elif self.tokens:
            self.skip("session_meta:<tokens with no model response>")
        s.native_id = session_id(self.native, data, file_stem)
        s.cwd = self.cwd
        settle(s, (self.cwd,))  # a repository only on evidence (redact/formats/roots.py)
        self.stats.warn_skipped(self.report)
        return s


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = HermesReader(report)
    raw = data if isinstance(data, bytes) else data.read()
    doc = document_of(raw)
    if doc is not None:
        reader.document(doc)
    else:
        reader.lines(raw, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(raw, file_stem)
