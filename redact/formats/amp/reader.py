"""An Amp thread (`T-<uuid>.json`) -> facts.

A user message's text blocks are a prompt (its images counted); its `tool_result` blocks are results.
An assistant message is one llm event: the model and tokens of its `usage`, its stop reason,
thinking, text length and tool calls (the shared tool table after Amp's aliases: `Bash` is a shell
command through the verb engine...). A user message's time is its `meta.sentAt`; an assistant
message's, the usage ledger's inference event that produced it. The ledger's other model calls (the
thread's title generation, a summarization, an oracle) appear in no message: each is an llm event
of its own on the main lane, at its time, with its model and tokens (a call aside: it switches no
model). Paths are placed under the
thread's first workspace tree.
"""
from __future__ import annotations

from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.amp.keys import (
    BLOCK_TYPE, BLOCKS, CACHE_READ, CACHE_WRITE, CALL_ID, CALL_INPUT, CALL_NAME, CONTENT, CREATED, ENV, EVENT_AT,
    EVENT_IN, EVENT_MODEL, EVENT_OUT, EVENT_TOKENS, EVENTS,
    EXIT_CODE, IN, INITIAL, LEDGER, MESSAGE_ID, MESSAGES, META, MODEL, OPERATION, OUT, OUTPUT, RESULT_CALL, ROLE, RUN,
    RUN_ERROR, RUN_RESULT, RUN_STATUS, SENT_AT, STATE, STOP, TEXT, THREAD_ID, TO_MESSAGE, TREE_URI, TREES, USAGE,
)
from redact.formats.amp.native_table import ALIASES, STATUS
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import (
    as_int, epoch_ms, session_id, is_model_name, json_doc, label, positive_int, safe_name,
)
from redact.report import RedactionReport

AGENT_TOOL = "amp"


def root_of(doc: dict[str, Any]) -> str | None:
    trees = as_object(as_object(doc.get(ENV)).get(INITIAL)).get(TREES)
    uri = as_object(trees[0]).get(TREE_URI) if isinstance(trees, list) and trees else None
    if isinstance(uri, str) and uri.startswith("file:///"):
        return uri[len("file://"):]
    return None


class AmpReader(CallPairs):
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.t: float | None = None

    def read(self, doc: dict[str, Any]) -> None:
        root = root_of(doc)
        self.s.roots = chatlog.root_of(root)
        self.s.cwd = root
        self.t = chatlog.epoch_number(doc.get(CREATED))
        self.s.first_seen = self.t
        times: dict[int, float] = {}
        ledger = as_object(doc.get(LEDGER)).get(EVENTS)
        for event in ledger if isinstance(ledger, list) else []:
            to, t = as_int(as_object(event).get(TO_MESSAGE)), epoch_ms(as_object(event).get(EVENT_AT))
            operation = as_object(event).get(OPERATION)
            if to is not None and t is not None and operation == "inference":
                times.setdefault(to, t)
            elif t is not None and isinstance(operation, str):
                self.auxiliary(as_object(event), t)
        messages = doc.get(MESSAGES)
        for m in messages if isinstance(messages, list) else []:
            if not isinstance(m, dict):
                self.skip("<not a message>")
                continue
            mid = as_int(m.get(MESSAGE_ID))
            t = chatlog.epoch_number(as_object(m.get(META)).get(SENT_AT)) or (times.get(mid) if mid is not None else None)
            if t is not None:
                self.t = t
            if self.t is None:
                self.skip("message:<no time>")
                continue
            role = m.get(ROLE)
            blocks = [b for b in m.get(CONTENT) or [] if isinstance(b, dict)] \
                if isinstance(m.get(CONTENT), list) else []
            for b in blocks:
                kind = b.get(BLOCK_TYPE)
                if not isinstance(kind, str) or BLOCKS.get(kind) != "mapped":
                    self.skip(label("block", kind if isinstance(kind, str) else None))
            if role == "user":
                self.user(blocks, self.t)
            elif role == "assistant":
                self.assistant(m, blocks, self.t)
            else:
                self.skip(label("message", role if isinstance(role, str) else None))

    def auxiliary(self, event: dict[str, Any], t: float) -> None:
        """A model call no message shows (the thread's title generation...): an llm event of its own."""
        model = event.get(EVENT_MODEL)
        tokens = as_object(event.get(EVENT_TOKENS))
        self.s.facts.append(LlmResponse(t, MAIN, model if is_model_name(model) else None,
                                        inp=positive_int(tokens.get(EVENT_IN)), out=positive_int(tokens.get(EVENT_OUT)),
                                        stop="end_turn", aside=True))

    def user(self, blocks: list[dict[str, Any]], t: float) -> None:
        texts = [b for b in blocks if b.get(BLOCK_TYPE) in ("text", "image")]
        if texts:
            turn = UserTurn(t, MAIN, sum(len(b[TEXT]) for b in texts if isinstance(b.get(TEXT), str)))
            turn.images = sum(1 for b in texts if b.get(BLOCK_TYPE) == "image")
            self.s.facts.append(turn)
        for b in blocks:
            if b.get(BLOCK_TYPE) == "tool_result":
                self.result(b, t)

    def assistant(self, m: dict[str, Any], blocks: list[dict[str, Any]], t: float) -> None:
        usage = as_object(m.get(USAGE))
        model = usage.get(MODEL) if is_model_name(usage.get(MODEL)) else None
        llm = LlmResponse(t, MAIN, model, inp=positive_int(usage.get(IN)),
                          out=positive_int(usage.get(OUT)),
                          cw=positive_int(usage.get(CACHE_WRITE)),
                          cr=positive_int(usage.get(CACHE_READ)))
        llm.stop = safe_name(as_object(m.get(STATE)).get(STOP))
        self.s.facts.append(llm)
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if kind == "text" and isinstance(b.get(TEXT), str):
                llm.text_chars += len(b[TEXT])
            elif kind in ("thinking", "redacted_thinking"):
                llm.thinking = True
            elif kind == "tool_use":
                nameless = "block:tool_use:<no id or name>"
                self.open_call(llm, b.get(CALL_ID), b.get(CALL_NAME), b.get(CALL_INPUT), t, aliases=ALIASES,
                               nameless=nameless, again=nameless)

    def result(self, b: dict[str, Any], t: float) -> None:
        call_id = b.get(RESULT_CALL)
        c = self.calls.get(call_id) if isinstance(call_id, str) else None
        if c is None or c.call_id in self.done:
            self.skip("block:tool_result:<no call>" if c is None else "<duplicate>")
            return
        run = as_object(b.get(RUN))
        status = run.get(RUN_STATUS)
        if not isinstance(status, str) or status not in STATUS:  # still running when saved: no result
            self.skip(label("run", status if isinstance(status, str) else None))
            return
        self.done.add(c.call_id)
        error, cls = STATUS[status]
        out = run.get(RUN_RESULT)
        code = as_int(as_object(out).get(EXIT_CODE)) if isinstance(out, dict) else None
        text = out if isinstance(out, str) else as_object(out).get(OUTPUT)
        res = chatlog.result(c, max(t, c.t), error=error, output=text, exit_code=code,
                             error_text=run.get(RUN_ERROR) if isinstance(run.get(RUN_ERROR), str) else None)
        if cls is not None:
            res.err_class = cls
        self.s.facts.append(res)


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    doc = json_doc(raw, where) if raw.strip() else {}
    reader = AmpReader(report)
    reader.read(doc if isinstance(doc, dict) else {})
    tid = doc.get(THREAD_ID) if isinstance(doc, dict) else None
    reader.s.native_id = session_id(tid[2:] if isinstance(tid, str) and tid.startswith("T-") else None, data, file_stem)
    return reader.s
