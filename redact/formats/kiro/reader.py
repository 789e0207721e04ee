"""A Kiro CLI session (the `/chat save` export, the store's `.json` + `.jsonl` pair assembled into
it, or a store `.jsonl` alone) -> facts.

A `Prompt` record's text blocks are a prompt (its images counted); an `AssistantMessage` is one llm
event (the session's model, its text length, thinking, its tool calls through the shared tool table
after Kiro's aliases: `shell` is a shell command through the verb engine); a `ToolResults` record's
blocks are results (an error status, a shell result's exit status, the output's byte count). A
thinking block is read for its presence only: its `signature` and `redactedContent` are never read.

Times: a prompt's `meta.timestamp` (epoch seconds); the records after it take the latest time seen,
and the last record of a turn its metadata's `end_timestamp`. The turn's `end_reason` is the stop of
its last response (`UserTurnEnd`: end_turn). Kiro's credits (`metering_usage`) are its billing unit,
not tokens: no token count is written (the turns' `input_token_count`/`output_token_count` are 0 in
every session seen, and are not read). A session with no records (metadata only, or an empty log) is
a map with no events, and the report says so.
"""
from __future__ import annotations

import re
from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import epoch_ms, is_model_name, label
from redact.formats.ids import session_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.kiro.keys import (
    BLOCK_DATA, BLOCK_KIND, BLOCKS, CALL_ID, CALL_INPUT, CALL_NAME, CONTENT, CONVERSATION, CREATED, CWD, DATA,
    END_AT, END_REASON, EXIT_STATUS, EXPORT_METADATA, ITEM_DATA, ITEM_KIND, KIND, LOG_ENTRIES, MESSAGE_ID,
    MESSAGE_IDS, META, MODEL_ID, MODEL_INFO, READ_OPERATIONS, READ_PATH, RECORDS, RESULT_CALL, RESULT_CONTENT,
    RESULT_STATUS, RTS, SESSION_ID, STATE, STDOUT, TIMESTAMP, TURNS,
)
from redact.formats.kiro.native_table import ALIASES, STATUS
from redact.formats.kiro.table import is_metadata
from redact.report import RedactionReport

AGENT_TOOL = "kiro"
NO_RECORDS = "the session holds no records (metadata only, or an empty log): its map has no events"
_EXIT = re.compile(r"exit status: (-?\d{1,4})")
_STOPS = {"UserTurnEnd": "end_turn"}


def exit_code(value: object) -> int | None:
    m = _EXIT.fullmatch(value) if isinstance(value, str) else None
    return int(m.group(1)) if m else None


class KiroReader(CallPairs):
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.t: float | None = None
        self.model: str | None = None
        self.turn_end: dict[str, tuple[float | None, str | None]] = {}  # last message id -> (time, stop)
        self.last: LlmResponse | None = None
        self.records = 0

    def metadata(self, meta: dict[str, Any]) -> str | None:
        cwd = meta.get(CWD)
        if isinstance(cwd, str) and cwd:
            self.s.cwd = cwd
            self.s.roots = chatlog.root_of(cwd, project=True)
        self.t = epoch_ms(meta.get(CREATED))
        if self.t is not None:
            self.s.saw(self.t)
        state = as_object(meta.get(STATE))
        model = as_object(as_object(state.get(RTS)).get(MODEL_INFO)).get(MODEL_ID)
        self.model = model if is_model_name(model) else None
        turns = as_object(state.get(CONVERSATION)).get(TURNS)
        for turn in turns if isinstance(turns, list) else []:
            ids = as_object(turn).get(MESSAGE_IDS)
            if isinstance(ids, list) and ids and isinstance(ids[-1], str):
                reason = turn.get(END_REASON)
                self.turn_end[ids[-1]] = (epoch_ms(turn.get(END_AT)),
                                          _STOPS.get(reason) if isinstance(reason, str) else None)
        found = meta.get(SESSION_ID)
        return found if isinstance(found, str) else None

    def entry(self, record: dict[str, Any]) -> None:
        kind = record.get(KIND)
        if not isinstance(kind, str) or RECORDS.get(kind) != "mapped":
            self.skip(label("record", kind if isinstance(kind, str) else None))
            return
        data = as_object(record.get(DATA))
        t = chatlog.epoch_number(as_object(data.get(META)).get(TIMESTAMP))
        mid = data.get(MESSAGE_ID)
        end, stop = self.turn_end.get(mid, (None, None)) if isinstance(mid, str) else (None, None)
        for found in (t, end):
            if found is not None and (self.t is None or found >= self.t):
                self.t = found
        if self.t is None:
            self.skip(label("record", kind) + ":<no time>")
            return
        self.records += 1
        raw = data.get(CONTENT)
        blocks = [b for b in raw if isinstance(b, dict)] if isinstance(raw, list) else []
        for b in blocks:
            bkind = b.get(BLOCK_KIND)
            if not isinstance(bkind, str) or BLOCKS.get(bkind) != "mapped":
                self.skip(label("block", bkind if isinstance(bkind, str) else None))
        if kind == "Prompt":
            self.prompt(blocks, self.t)
        elif kind == "AssistantMessage":
            self.assistant(blocks, self.t, stop)
        else:
            for b in blocks:
                if b.get(BLOCK_KIND) == "toolResult":
                    self.result(as_object(b.get(BLOCK_DATA)), self.t)

    def prompt(self, blocks: list[dict[str, Any]], t: float) -> None:
        texts = [b for b in blocks if b.get(BLOCK_KIND) in ("text", "image")]
        turn = UserTurn(t, MAIN, sum(len(b[BLOCK_DATA]) for b in texts if isinstance(b.get(BLOCK_DATA), str)))
        turn.images = sum(1 for b in texts if b.get(BLOCK_KIND) == "image")
        self.s.facts.append(turn)

    def assistant(self, blocks: list[dict[str, Any]], t: float, stop: str | None) -> None:
        llm = LlmResponse(t, MAIN, self.model)
        self.s.facts.append(llm)
        for b in blocks:
            kind = b.get(BLOCK_KIND)
            if kind == "text" and isinstance(b.get(BLOCK_DATA), str):
                llm.text_chars += len(b[BLOCK_DATA])
            elif kind == "thinking":  # presence only: the block is never opened
                llm.thinking = True
            elif kind == "toolUse":
                use = as_object(b.get(BLOCK_DATA))
                args = chatlog.first_operation_path(use.get(CALL_INPUT), READ_OPERATIONS, READ_PATH)
                nameless = "block:toolUse:<no id or name>"
                self.open_call(llm, use.get(CALL_ID), use.get(CALL_NAME), args, t, aliases=ALIASES,
                               nameless=nameless, again=nameless)
        llm.stop = stop or ("tool_use" if llm.tool_calls else None)

    def result(self, data: dict[str, Any], t: float) -> None:
        call_id = data.get(RESULT_CALL)
        c = self.calls.get(call_id) if isinstance(call_id, str) else None
        if c is None or c.call_id in self.done:
            self.skip("block:toolResult:<no call>" if c is None else "<duplicate>")
            return
        status = data.get(RESULT_STATUS)
        if not isinstance(status, str) or status not in STATUS:
            self.skip(label("status", status if isinstance(status, str) else None))
            return
        self.done.add(c.call_id)
        out, code, size = None, None, 0
        items = data.get(RESULT_CONTENT)
        for item in items if isinstance(items, list) else []:
            item = as_object(item)
            value = item.get(ITEM_DATA)
            if item.get(ITEM_KIND) == "text" and isinstance(value, str):
                out, size = value, size + len(value)
            elif item.get(ITEM_KIND) == "json" and isinstance(value, dict):
                code = exit_code(value.get(EXIT_STATUS))
                stdout = value.get(STDOUT)
                if isinstance(stdout, str):
                    out = stdout
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=STATUS[status], output=out, exit_code=code))


def _document(raw: bytes, where: str) -> Any:
    """The one JSON document `raw` is, or None when it is JSON Lines (a store `.jsonl`)."""
    import orjson

    body = raw.lstrip()
    if not body.startswith(b"{"):
        return None
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        head, sep, _ = body.partition(b"\n")
        try:
            orjson.loads(head)
        except orjson.JSONDecodeError:
            from redact.errors import BadInput

            raise BadInput("not a JSON document", where=where) from None
        return None


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    reader = KiroReader(report)
    doc = _document(raw, where) if raw.strip() else None
    found: str | None = None
    if isinstance(doc, dict) and LOG_ENTRIES in doc:
        meta = doc.get(EXPORT_METADATA)
        found = reader.metadata(meta) if isinstance(meta, dict) and is_metadata(meta) else None
        entries = doc.get(LOG_ENTRIES)
        for record in entries if isinstance(entries, list) else []:
            if isinstance(record, dict):
                reader.entry(record)
            else:
                reader.skip("<not a record>")
    elif isinstance(doc, dict) and is_metadata(doc):
        found = reader.metadata(doc)
    elif isinstance(doc, dict):
        reader.entry(doc)
    elif raw.strip():
        stats = LineStats()
        for _, record in iter_objects(raw, where, skip_bad_lines=skip_bad_lines, stats=stats):
            reader.entry(record)
    if not reader.records:
        report.warn(NO_RECORDS)
    reader.s.native_id = session_id(found, raw, file_stem)
    return reader.s
