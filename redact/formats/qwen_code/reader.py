"""Qwen Code sessions -> facts, in both layouts (`table.py`).

The chat record it inherited from Gemini CLI (`tmp/<hash>/chats/session-*.json`) is read by the
shared chat-record reader (`redact/formats/gemini_record.py`) with Qwen Code's model type (`qwen`)
and tools. Its own JSON Lines layout (`projects/<slug>/chats/<uuid>.jsonl`), record by record:

- **Prompts.** A `user` record: its text parts' length and URL count, its images (`inlineData`).
- **Model responses.** An `assistant` record is one llm event: `model`, `usageMetadata` (the prompt
  count includes the cached part: fresh input is `promptTokenCount - cachedContentTokenCount`;
  `out` is `candidatesTokenCount + thoughtsTokenCount`), thinking (a part with `thought: true`), the
  length of its other text parts and its `functionCall` parts (the tool table). Its latency is the
  `duration_ms` of the `qwen-code.api_response` telemetry record it follows (its `parentUuid`); the
  record is written when the response is done, so the request starts that long before it (never
  before the event it followed) and ends at the record's time. The
  stop reason is not recorded: it is inferred from the calls.
- **Tool results.** A `tool_result` record's `functionResponse` parts: output size, the shell's exit
  code (`Exit Code: N`) and the commits and PRs it confirms; `toolCallResult.status` `error` is an
  error (its `errorType` the errClass when known, else the wording), `cancelled` an interruption;
  a `write_file` whose output begins `Successfully created and wrote to new file` created its file.
- **Errors, compactions.** A `qwen-code.api_error` telemetry record is an llm error event; a
  `chat_compression` record a compaction with the tokens before and after. Slash commands and the
  other telemetry are skipped and counted.
- The working directory is the repository root when the records name a git branch (else only on
  evidence, redact/formats/roots.py).
"""
from __future__ import annotations

from typing import Any, BinaryIO

from redact.build.facts import MAIN, Compaction, ErrorFact, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats.chatlog import as_object
from redact.formats.common import count_urls, epoch_ms, is_model_name, json_document, label, positive_int, session_id
from redact.formats.gemini_record import Dialect, RecordReader, make_call, make_result
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.qwen_code.keys import (
    AFTER, AT, BEFORE, BRANCH, CACHED_TOKENS, CALL_ARGS, CALL_ID, CALL_NAME, CALL_RESULT, COMPRESSION_INFO, CWD,
    DURATION, ERROR, ERROR_TYPE, EVENT_ERROR, EVENT_NAME, FUNCTION_CALL, FUNCTION_RESPONSE, INLINE, KIND, MESSAGE,
    MODEL, OUT_TOKENS, OUTPUT, PARENT, PARTS, PAYLOAD, PROMPT_TOKENS, RECORD, RECORD_TYPES, RESPONSE, RESPONSE_ID,
    RESULT_STATUS, SESSION_ID, SKILL, SUBAGENT_TYPE, SUBTYPE, SUBTYPES, TEXT, THOUGHT, THOUGHT_TOKENS, UI_EVENT, USAGE,
    UUID,
)
from redact.formats.qwen_code.native_table import ERROR_TYPES, MODEL_TYPE, TOOLS, WAITS_ON_USER
from redact.formats.qwen_code.table import MCP_NAME, sniff_doc
from redact.formats.wording import api_error_class
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "qwen-code"
DIALECT = Dialect(AGENT_TOOL, MODEL_TYPE, TOOLS, WAITS_ON_USER, MCP_NAME,
                  web_search=frozenset({"google_web_search", "web_search"}))


def document_of(data: bytes) -> dict[str, Any] | None:
    """The chat-record layout (one JSON document) held in `data`, or None (JSON Lines)."""
    return json_document(data, sniff_doc)


def _parts(record: dict[str, Any]) -> list[dict[str, Any]]:
    parts = as_object(record.get(MESSAGE)).get(PARTS)
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


#: how write_file's output says the file it wrote did not exist before (as Gemini CLI's does)
CREATED = "Successfully created and wrote to new file: "


class QwenReader(RecordReader):
    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report, RECORD, DIALECT)
        self.stats = LineStats()
        self.cwd: str | None = None
        self.git = False
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.latency: dict[str, float] = {}  # telemetry uuid -> its api_response duration_ms

    def lines(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool) -> None:
        for _, r in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            kind = r.get(KIND)
            if not isinstance(kind, str) or RECORD_TYPES.get(kind) != "mapped":
                self.skip(label(kind) if isinstance(kind, str) else "<no type>")
                continue
            if self.native is None and isinstance(r.get(SESSION_ID), str) and r[SESSION_ID]:
                self.native = r[SESSION_ID]
            if self.cwd is None and isinstance(r.get(CWD), str) and r[CWD]:
                self.cwd = r[CWD]
            self.git = self.git or isinstance(r.get(BRANCH), str) and bool(r[BRANCH])
            t = epoch_ms(r.get(AT))
            if t is None:
                self.skip(label(kind, "<no time>"))
                continue
            self.s.saw(t)
            getattr(self, "line_" + kind)(r, t)

    def line_user(self, r: dict[str, Any], t: float) -> None:
        parts = _parts(r)
        texts = [p[TEXT] for p in parts if isinstance(p.get(TEXT), str) and p.get(THOUGHT) is not True]
        images = sum(1 for p in parts if INLINE in p)
        chars = sum(len(x) for x in texts)
        if chars or images:
            self.add(UserTurn(t, MAIN, chars, images, sum(count_urls(x) for x in texts)))

    def line_assistant(self, r: dict[str, Any], t: float) -> None:
        model = r.get(MODEL)
        parent = r.get(PARENT)
        latency = self.latency.get(parent) if isinstance(parent, str) else None
        # the record is written when the response is done: the request began `latency` before it
        # (never before the event it followed), and it ends at the record's time, not after it
        start = t if latency is None else max(t - latency, self.s.facts[-1].t if self.s.facts else t - latency)
        resp = LlmResponse(start, MAIN, model if is_model_name(model) else None)
        usage = as_object(r.get(USAGE))
        prompt, cached = positive_int(usage.get(PROMPT_TOKENS)), positive_int(usage.get(CACHED_TOKENS))
        cached = min(cached, prompt)
        resp.inp, resp.cr = prompt - cached, cached
        resp.out = positive_int(usage.get(OUT_TOKENS)) + positive_int(usage.get(THOUGHT_TOKENS))
        resp.latency = None if latency is None else t - start
        self.add(resp)
        for p in _parts(r):
            if p.get(THOUGHT) is True:
                resp.thinking = True
            elif isinstance(p.get(TEXT), str):
                resp.text_chars += len(p[TEXT])
            call = p.get(FUNCTION_CALL)
            if isinstance(call, dict) and self.function_call(call, t):
                resp.tool_calls += 1
        resp.stop = "tool_use" if resp.tool_calls else "end_turn"  # not recorded: inferred

    def function_call(self, fc: dict[str, Any], t: float) -> bool:
        call_id, name = fc.get(CALL_ID), fc.get(CALL_NAME)
        if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name:
            self.skip("part:functionCall:<no id or name>")
            return False
        if call_id in self.calls:
            self.skip("<duplicate>")
            return False
        args = as_object(fc.get(CALL_ARGS))
        call = make_call(self.k, self.d, name, args, call_id, t)
        if call.kind == "subagent":
            sub = args.get(SUBAGENT_TYPE)
            call.subagent_type = sub if isinstance(sub, str) and 0 < len(sub) <= 100 and " " not in sub else None
        elif call.kind == "skill":
            skill = args.get(SKILL)
            call.skill = skill if isinstance(skill, str) and 0 < len(skill) <= 100 and " " not in skill else None
        self.calls[call_id] = call
        self.add(call)
        return True

    def line_tool_result(self, r: dict[str, Any], t: float) -> None:
        result = as_object(r.get(CALL_RESULT))
        status, error_type = result.get(RESULT_STATUS), result.get(ERROR_TYPE)
        for p in _parts(r):
            fr = p.get(FUNCTION_RESPONSE)
            if not isinstance(fr, dict):
                continue
            call_id = fr.get(RESPONSE_ID)
            call = self.calls.get(call_id) if isinstance(call_id, str) else None
            if call is None or call.call_id in self.done:
                self.skip("part:functionResponse:<no call>" if call is None else "<duplicate>")
                continue
            self.done.add(call.call_id)
            response = as_object(fr.get(RESPONSE))
            found_output, found_error = response.get(OUTPUT), response.get(ERROR)
            output = found_output if isinstance(found_output, str) else ""
            error = found_error if isinstance(found_error, str) else ""
            known = ERROR_TYPES.get(error_type) if isinstance(error_type, str) else None
            res = make_result(call, max(t, call.t), status=status if isinstance(status, str) else None,
                              output=output, error=error, error_class_of=known)
            if call.kind == "edit" and not res.is_error and output.startswith(CREATED):
                call.op = res.op = "create"  # write_file says when the file it wrote is new
            self.add(res)

    def line_system(self, r: dict[str, Any], t: float) -> None:
        sub = r.get(SUBTYPE)
        if not isinstance(sub, str) or SUBTYPES.get(sub) != "mapped":
            self.skip(label("system", sub if isinstance(sub, str) else None))
            return
        payload = as_object(r.get(PAYLOAD))
        if sub == "chat_compression":
            info = as_object(payload.get(COMPRESSION_INFO))
            before, after = positive_int(info.get(BEFORE)), positive_int(info.get(AFTER))
            self.add(Compaction(t, MAIN, pre_tokens=before or None, post_tokens=after or None))
            return
        event = as_object(payload.get(UI_EVENT))
        name = event.get(EVENT_NAME)
        if name == "qwen-code.api_response":
            ms = event.get(DURATION)
            uuid = r.get(UUID)
            if isinstance(uuid, str) and isinstance(ms, (int, float)) and not isinstance(ms, bool) and 0 <= ms < 86_400_000:
                self.latency[uuid] = float(ms)
        elif name == "qwen-code.api_error":
            self.add(ErrorFact(t, MAIN, "llm", api_error_class(event.get(EVENT_ERROR))))
        else:
            self.skip(label("system", "ui_telemetry"))

    def finish(self, data: bytes | BinaryIO, file_stem: str | None) -> SessionFacts:
        s = self.s
        s.native_id = session_id(self.native, data, file_stem)
        if self.cwd is not None:
            s.cwd = self.cwd
            settle(s, (self.cwd,), git=self.git)
        elif self.dirs:
            s.cwd = self.dirs[0]
            settle(s, (self.dirs[0],), git=True)  # the project folder the chat record names
        self.stats.warn_skipped(self.report)
        return s


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    reader = QwenReader(report)
    doc = document_of(raw)
    if doc is not None:
        reader.document(doc)
        reader.facts()
    else:
        reader.lines(raw, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(raw, file_stem)
