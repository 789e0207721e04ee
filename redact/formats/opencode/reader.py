"""One opencode session (the JSON Lines export of `store.py` or `tree.py`) -> facts.

- the `session` row gives the id, the working directory (the repository root) and, for a subagent
  session, its parent;
- a user message is a prompt: its text parts' length (parts opencode wrote itself, `synthetic`, are
  not the user's), its image attachments; a user message all of whose parts are opencode's own (the
  note "The following tool was executed by the user" before a command the user ran) is no prompt;
- an assistant message is one llm event: model, tokens (`output` + `reasoning` as out), finish
  reason, latency, thinking, text length, its tool parts as tool calls; an `error` on it is an llm
  error event;
- a tool part is a call (the shared tool table: `bash` -> exec through the verb engine, `read`,
  `edit`, `write`, `grep`, `glob`, `task`, `webfetch`...) and, once completed or failed, its result.
"""
from __future__ import annotations

from typing import Any, BinaryIO

import orjson

from redact.build.facts import MAIN, Compaction, ErrorFact, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import (
    as_int, is_model_name, label, positive_int, safe_name,
)
from redact.formats.opencode.keys import (
    AT, AUTO, CACHE, CACHE_READ, CACHE_WRITE, CALL_ID, COMPLETED, CREATED, DIRECTORY, END, ERROR, ERROR_NAME, EXISTS,
    EXIT, FINISH, IGNORED, INPUT, KIND, MESSAGE_AT, MESSAGE_DATA, MESSAGE_ID, META, MIME, MODEL, OUTPUT, PARENT,
    PART_DATA, PART_MESSAGE, PART_TYPE, PART_TYPES, ROLE, SESSION_ID, START, STATE, STATE_ERROR, STATE_TIMES,
    STATUS, SYNTHETIC, TEXT, TIMES, TOKENS, TOKENS_IN, TOKENS_OUT, TOKENS_REASONING, TOOL,
)
from redact.formats.opencode.native_table import ERRORS
from redact.formats.opencode.tree import is_session_doc, session_line
from redact.report import RedactionReport

AGENT_TOOL = "opencode"
_IMAGE = "image/"


class OpencodeReader(chatlog.StoreReader):
    AGENT_TOOL, KIND_KEY, RECORDS = AGENT_TOOL, KIND, ("message", "part")

    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report)
        self.messages: dict[str, tuple[str, Any]] = {}  # message id -> (role, its fact)
        self.calls: set[str] = set()
        self.written: dict[str, bool] = {}  # a user message with parts -> whether one is the user's

    def time(self, *values: object) -> float | None:
        """The first of `values` that is a time."""
        return self.seen(next((t for t in map(chatlog.epoch_number, values) if t is not None), None))

    def session(self, r: dict[str, Any]) -> None:
        self.session_row(r.get(SESSION_ID), r.get(DIRECTORY), r.get(PARENT))
        self.time(r.get(CREATED))

    def message(self, r: dict[str, Any]) -> None:
        mid, data = r.get(MESSAGE_ID), as_object(r.get(MESSAGE_DATA))
        role = data.get(ROLE)
        if not isinstance(mid, str) or role not in ("user", "assistant"):
            self.skip(label("message", role if isinstance(role, str) else None))
            return
        times = as_object(data.get(TIMES))
        t = self.time(times.get(AT), r.get(MESSAGE_AT))
        if t is None:
            self.skip("message:<no time>")
            return
        if role == "user":
            turn = UserTurn(t, MAIN, 0)
            self.s.facts.append(turn)
            self.messages[mid] = ("user", turn)
            return
        model = data.get(MODEL) if is_model_name(data.get(MODEL)) else None
        tokens = as_object(data.get(TOKENS))
        cache = as_object(tokens.get(CACHE))
        fact = LlmResponse(t, MAIN, model, inp=positive_int(tokens.get(TOKENS_IN)),
                           out=positive_int(tokens.get(TOKENS_OUT)) + positive_int(tokens.get(TOKENS_REASONING)),
                           cr=positive_int(cache.get(CACHE_READ)), cw=positive_int(cache.get(CACHE_WRITE)))
        fact.stop = safe_name(data.get(FINISH))
        done = chatlog.epoch_number(times.get(COMPLETED))
        if done is not None and done >= t:
            fact.latency = done - t
        self.s.facts.append(fact)
        self.messages[mid] = ("assistant", fact)
        error = as_object(data.get(ERROR))
        name = error.get(ERROR_NAME)
        if isinstance(name, str):
            self.s.facts.append(ErrorFact(done or t, MAIN, "llm", ERRORS.get(name, "api_error")))

    def part(self, r: dict[str, Any]) -> None:
        data = as_object(r.get(PART_DATA))
        kind = data.get(PART_TYPE)
        how = PART_TYPES.get(kind) if isinstance(kind, str) else None
        mid = r.get(PART_MESSAGE)
        owner = self.messages.get(mid) if isinstance(mid, str) else None
        if how != "mapped" or owner is None:
            self.skip(label("part", kind if isinstance(kind, str) else None) if owner else "part:<no message>")
            return
        role, fact = owner
        if role == "user":
            own = kind != "text" or not (data.get(SYNTHETIC) or data.get(IGNORED))
            self.written[str(mid)] = self.written.get(str(mid), False) or own
        if kind == "text":
            text = data.get(TEXT)
            if isinstance(text, str) and not data.get(SYNTHETIC) and not data.get(IGNORED):
                if role == "user":
                    fact.chars += len(text)
                else:
                    fact.text_chars += len(text)
        elif kind == "reasoning":
            if role == "assistant":
                fact.thinking = True
        elif kind == "file":
            mime = data.get(MIME)
            if role == "user" and isinstance(mime, str) and mime.startswith(_IMAGE):
                fact.images += 1
        elif kind == "compaction":
            auto = data.get(AUTO)
            self.s.facts.append(Compaction(fact.t, MAIN, "auto" if auto is True else "manual" if auto is False else None))
        elif kind == "retry":
            self.s.facts.append(ErrorFact(fact.t, MAIN, "llm", "api_error", retry=True))
        elif kind == "tool":
            self.tool(data, fact if role == "assistant" else None, fact.t)

    def tool(self, data: dict[str, Any], llm: LlmResponse | None, t0: float) -> None:
        name, call_id = data.get(TOOL), data.get(CALL_ID)
        state = as_object(data.get(STATE))
        if not isinstance(name, str) or not name or not isinstance(call_id, str) or call_id in self.calls:
            self.skip("<duplicate>" if isinstance(call_id, str) and call_id in self.calls
                      else "part:tool:<no tool or call id>")
            return
        self.calls.add(call_id)
        times = as_object(state.get(STATE_TIMES))
        start = chatlog.epoch_number(times.get(START)) or t0
        c: ToolCall = chatlog.call(name, state.get(INPUT), call_id, start, MAIN)
        if name == "question":
            c.waits_on_user = True
        self.s.facts.append(c)
        if llm is not None:
            llm.tool_calls += 1
        status = state.get(STATUS)
        if status not in ("completed", "error"):
            return
        end = chatlog.epoch_number(times.get(END))
        meta = as_object(state.get(META))
        exists = meta.get(EXISTS)
        self.s.facts.append(chatlog.result(
            c, end if end is not None and end >= start else start, error=status == "error",
            output=state.get(OUTPUT), exit_code=as_int(meta.get(EXIT)) if c.kind == "exec" else None,
            error_text=state.get(STATE_ERROR), created=(exists is False) if isinstance(exists, bool) else None))

    def finish(self, data: bytes | BinaryIO, stem: str | None) -> SessionFacts:
        notes = {id(self.messages[mid][1]) for mid, own in self.written.items() if not own}
        self.s.facts = [f for f in self.s.facts if id(f) not in notes]
        return super().finish(data, stem)


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    if isinstance(data, bytes) and data.lstrip()[:1] == b"{" and b"\n" in data.strip():
        # a session file of the pre-1.x tree given on its own (its messages are not with it)
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError:
            doc = None
        if is_session_doc(doc):
            data = orjson.dumps(session_line(doc)) + b"\n"
    reader = OpencodeReader(report)
    reader.read(data, where, skip_bad_lines)
    return reader.finish(data, file_stem)
