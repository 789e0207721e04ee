"""One Crush session (the JSON Lines export of `store.py`) -> facts.

A user message is a prompt (text length, images); an assistant message is one llm event (model,
stop reason, latency, thinking, text length, its tool calls), unless all it holds is a `finish` of
an error reason (the call failed, nothing came back: an llm error event only); a `tool` message holds the results,
paired with their calls by id. The message the session row names as its `summary_message_id` (Crush's
summarize, by command or when the context fills) is also a compaction event. Crush records tokens per session only (the `sessions` row's
prompt_tokens and completion_tokens): the session's last model response carries them whole, so the
map's totals are the session's; they are never spread over the calls. Paths are placed under the project folder holding
`.crush/` when the store sits there; otherwise absolute paths go to their bucket.
"""
from __future__ import annotations

from typing import Any, BinaryIO

from redact.build.facts import MAIN, Compaction, ErrorFact, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import is_model_name, label, parse_json_string, positive_int, safe_name
from redact.formats.crush.keys import (
    AT, CALL_ID, CALL_INPUT, CALL_NAME, COMPLETION_TOKENS, CREATED, DATA, FINISHED, KIND, MESSAGE_ID, MIME, MIME_GO,
    MODEL, PARENT, PART_TYPE, PART_TYPES, PARTS, PROJECT, PROMPT_TOKENS, REASON, RESULT_CALL, RESULT_CONTENT,
    RESULT_ERROR, ROLE, SESSION_ID, SUMMARY, TEXT,
)
from redact.formats.crush.native_table import FINISH_ERRORS
from redact.formats.crush.table import ALIASES
from redact.report import RedactionReport

AGENT_TOOL = "crush"


class CrushReader(chatlog.StoreReader, chatlog.CallPairs):
    AGENT_TOOL, KIND_KEY, RECORDS = AGENT_TOOL, KIND, ("message",)

    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report)
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.tokens = (0, 0)  # the session row's prompt and completion tokens
        self.last_llm: LlmResponse | None = None
        self.summary: str | None = None  # the id of the message that summarized the session

    def time(self, value: object) -> float | None:
        return self.seen(chatlog.epoch_number(value))

    def session(self, r: dict[str, Any]) -> None:
        self.session_row(r.get(SESSION_ID), r.get(PROJECT), r.get(PARENT))
        self.time(r.get(CREATED))
        self.tokens = (positive_int(r.get(PROMPT_TOKENS)), positive_int(r.get(COMPLETION_TOKENS)))
        summary = r.get(SUMMARY)
        self.summary = summary if isinstance(summary, str) and summary else None

    def message(self, r: dict[str, Any]) -> None:
        role = r.get(ROLE)
        t = self.time(r.get(AT))
        found = r.get(PARTS)
        parts: list[Any] = found if isinstance(found, list) else []
        if role not in ("user", "assistant", "tool") or t is None:
            self.skip(label("message", role if isinstance(role, str) else None))
            return
        known = []
        for part in parts:
            kind = part.get(PART_TYPE) if isinstance(part, dict) else None
            if isinstance(kind, str) and PART_TYPES.get(kind) == "mapped":
                known.append((kind, as_object(part.get(DATA))))
            else:
                self.skip(label("part", kind if isinstance(kind, str) else None))
        if self.summary is not None and r.get(MESSAGE_ID) == self.summary:
            # Crush's summarize: the model's summary of the session so far, which replaces it
            self.s.facts.append(Compaction(t, MAIN, None))
        if role == "user":
            turn = UserTurn(t, MAIN, 0)
            for kind, data in known:
                if kind == "text" and isinstance(data.get(TEXT), str):
                    turn.chars += len(data[TEXT])
                elif kind in ("image_url", "binary") and (kind == "image_url" or str(
                        data.get(MIME) or data.get(MIME_GO) or "").startswith("image/")):
                    turn.images += 1
            self.s.facts.append(turn)
        elif role == "assistant":
            self.assistant(r, t, known)
        else:
            for kind, data in known:
                if kind == "tool_result":
                    self.result(data, t)

    def assistant(self, r: dict[str, Any], t: float, known: list[tuple[str, dict[str, Any]]]) -> None:
        end = chatlog.epoch_number(r.get(FINISHED))
        if known and all(kind == "finish" and safe_name(data.get(REASON)) in FINISH_ERRORS for kind, data in known):
            # the model call failed (an API error): nothing came back, so no model response
            reason = safe_name(known[-1][1].get(REASON))
            self.s.facts.append(ErrorFact(end or t, MAIN, "llm", FINISH_ERRORS[str(reason)]))
            return
        model = r.get(MODEL) if is_model_name(r.get(MODEL)) else None
        fact = LlmResponse(t, MAIN, model)
        if end is not None and end >= t:
            fact.latency = end - t
        self.s.facts.append(fact)
        self.last_llm = fact
        for kind, data in known:
            if kind == "text" and isinstance(data.get(TEXT), str):
                fact.text_chars += len(data[TEXT])
            elif kind == "reasoning":
                fact.thinking = True
            elif kind == "tool_call":
                self.call(data, t, fact)
            elif kind == "finish":
                reason = safe_name(data.get(REASON))
                fact.stop = reason
                if reason in FINISH_ERRORS:
                    self.s.facts.append(ErrorFact(end or t, MAIN, "llm", FINISH_ERRORS[reason]))

    def call(self, data: dict[str, Any], t: float, llm: LlmResponse) -> None:
        call_id, name = data.get(CALL_ID), data.get(CALL_NAME)
        if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name \
                or call_id in self.calls:
            self.skip("<duplicate>" if isinstance(call_id, str) and call_id in self.calls
                      else "part:tool_call:<no id or name>")
            return
        args = parse_json_string(data.get(CALL_INPUT))
        c = chatlog.call(name, args if isinstance(args, dict) else {}, call_id, t, MAIN, aliases=ALIASES)
        self.calls[call_id] = c
        llm.tool_calls += 1
        self.s.facts.append(c)

    def result(self, data: dict[str, Any], t: float) -> None:
        c = self.answered(data.get(RESULT_CALL), unmatched="part:tool_result:<no call>")
        if c is None:
            return
        error = data.get(RESULT_ERROR) is True
        content = data.get(RESULT_CONTENT)
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=error, output=content,
                                           error_text=content if error else None))


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = CrushReader(report)
    reader.read(data, where, skip_bad_lines)
    if reader.last_llm is not None:
        reader.last_llm.inp, reader.last_llm.out = reader.tokens
    elif any(reader.tokens):
        reader.skip("session:tokens:<no model response>")
    return reader.finish(data, file_stem)
