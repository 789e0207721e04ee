"""A Pi coding-agent session (`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`) -> facts.

The first line is the header (`type: session`: the session id, the working directory, in v1 the
first model). Every later line is an entry; v2 and v3 entries carry `id`/`parentId`, a tree in which
a branch (`/tree`, `/fork` in place) starts from an earlier entry. Every entry of every branch is
something that happened, at its own time, so the reader reads them all in file order (a branch is
not replayed twice, and an abandoned branch is not dropped).

- **Prompts.** A `user` message: its length, URL count and images.
- **Model responses.** An `assistant` message is one llm event: its `model` (else the model of the
  last `model_change` or the header), tokens (`usage`: input, output, cacheRead, cacheWrite), the stop
  reason, thinking, text length and tool calls (the shared tool table after Pi's aliases). Its
  latency is the entry's time less the message's own `timestamp` (when the request started).
  `stopReason: error` is an llm error event (class from `errorMessage`), `aborted` an interruption;
  a failed request that produced nothing is only that error, not a model response, and the tool
  calls of a failed or aborted response are not calls (Pi runs none of them; they are counted).
- **Tool results.** A `toolResult` message: `isError`, the byte count of its text, the bash tool's
  exit code (`Command exited with code N`), and the commits and PRs a shell's output confirms.
- **Compactions.** A `compaction` entry, with `tokensBefore`.
- Two whole records on one line (a write race Pi has shown) are both read, and the report says so.
"""
from __future__ import annotations

import re
from typing import Any, BinaryIO

from redact.build.facts import MAIN, Compaction, ErrorFact, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import (
    count_urls, epoch_ms, is_model_name, label, positive_int, session_id,
)
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.pi.keys import (
    AT, BLOCK_TYPE, BLOCKS, CACHE_READ, CACHE_WRITE, CALL_ARGS, CALL_ID, CALL_NAME, CONTENT, CWD, ENTRY_TYPES,
    ERROR_MESSAGE, FIRST_MODEL, IN, IS_ERROR, KIND, MESSAGE, MODEL, NEW_MODEL, OUT, PARTS, RESULT_CALL, ROLE,
    ROLES, SENT, SESSION_ID, STOP, TEXT, TOKENS_BEFORE, USAGE,
)
from redact.formats.pi.native_table import ALIASES, EXIT_LINE, STOPS
from redact.formats.wording import api_error_class
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "pi"
_EXIT = re.compile(EXIT_LINE + r"\s*$")
_DAY_MS = 86_400_000.0


def texts_of(content: object) -> tuple[list[str], int]:
    """(the texts, the number of images) of a message's content: a string, or text and image parts."""
    if isinstance(content, str):
        return [content], 0
    texts: list[str] = []
    images = 0
    for part in content if isinstance(content, list) else []:
        kind = part.get(BLOCK_TYPE) if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get(TEXT), str):
            texts.append(part[TEXT])
        elif kind == "image":
            images += 1
    return texts, images


class PiReader(CallPairs):
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

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool) -> None:
        for _, entry in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats, glued=True):
            kind = entry.get(KIND)
            if not isinstance(kind, str) or ENTRY_TYPES.get(kind) != "mapped":
                self.skip(label(kind) if isinstance(kind, str) else "<no type>")
                continue
            t = epoch_ms(entry.get(AT))
            if kind == "session":
                self.header(entry, t)
                continue
            if t is None:
                t = self.t
            if t is None:
                self.skip(label(kind, "<no time>"))
                continue
            self.t = t
            self.s.saw(t)
            if kind == "message":
                self.message(as_object(entry.get(MESSAGE)), t)
            elif kind == "model_change":
                model = entry.get(NEW_MODEL)
                self.model = model if is_model_name(model) else self.model
            elif kind == "compaction":
                before = positive_int(entry.get(TOKENS_BEFORE))
                self.s.facts.append(Compaction(t, MAIN, pre_tokens=before or None))

    def header(self, entry: dict[str, Any], t: float | None) -> None:
        if self.native is not None:
            self.skip("session:<again>")
            return
        sid = entry.get(SESSION_ID)
        self.native = sid if isinstance(sid, str) and sid else None
        cwd = entry.get(CWD)
        self.cwd = cwd if isinstance(cwd, str) and cwd else None
        model = entry.get(FIRST_MODEL)
        self.model = model if is_model_name(model) else None
        if t is not None:
            self.s.saw(t)

    def message(self, m: dict[str, Any], t: float) -> None:
        role = m.get(ROLE)
        if not isinstance(role, str) or ROLES.get(role) != "mapped":
            self.skip(label("message", role if isinstance(role, str) else None))
            return
        if role == "user":
            texts, images = texts_of(m.get(CONTENT))
            chars = sum(len(x) for x in texts)
            if chars or images:
                self.s.facts.append(UserTurn(t, MAIN, chars, images, sum(count_urls(x) for x in texts)))
        elif role == "assistant":
            self.assistant(m, t)
        else:
            self.result(m, t)

    def assistant(self, m: dict[str, Any], t: float) -> None:
        blocks = [b for b in m.get(CONTENT) or [] if isinstance(b, dict)] if isinstance(m.get(CONTENT), list) else []
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if not isinstance(kind, str) or BLOCKS.get(kind) != "mapped":
                self.skip(label("block", kind if isinstance(kind, str) else None))
        usage = as_object(m.get(USAGE))
        stop = m.get(STOP)
        stop = stop if isinstance(stop, str) and stop in STOPS else None
        inp, cw, cr, out = (positive_int(usage.get(k)) for k in (IN, CACHE_WRITE, CACHE_READ, OUT))
        failed = stop in ("error", "aborted")
        if failed:
            message = m.get(ERROR_MESSAGE)
            self.s.facts.append(ErrorFact(t, MAIN, "llm", api_error_class(message)) if stop == "error"
                                else ErrorFact(t, MAIN, "orchestration", "interrupted"))
            if not blocks and not (inp or cw or cr or out):
                return  # the request produced nothing: only its failure happened
        model = m.get(MODEL)
        llm = LlmResponse(t, MAIN, model if is_model_name(model) else self.model, inp=inp, cw=cw, cr=cr, out=out)
        llm.stop = STOPS[stop] if stop is not None else None
        sent = chatlog.epoch_number(m.get(SENT))
        if sent is not None and 0 <= t - sent < _DAY_MS:
            # the message's own time is when the request was sent; its record is written when the
            # response is done: the request runs from one to the other, never past the record, and
            # starts no earlier than the record before it (records are written a few ms late)
            before = max((f.t for f in self.s.facts[-1:]), default=sent)
            start = min(max(sent, before), t)
            llm.t, llm.latency = start, t - start
        self.s.facts.append(llm)
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if kind == "text" and isinstance(b.get(TEXT), str):
                llm.text_chars += len(b[TEXT])
            elif kind == "thinking":
                llm.thinking = True
            elif kind == "toolCall":
                if failed:  # Pi runs no tool of a response that failed or was aborted
                    self.skip("block:toolCall:<response failed>")
                    continue
                self.open_call(llm, b.get(CALL_ID), b.get(CALL_NAME), b.get(CALL_ARGS), t, aliases=ALIASES,
                               nameless="block:toolCall:<no id or name>")

    def result(self, m: dict[str, Any], t: float) -> None:
        c = self.answered(m.get(RESULT_CALL), unmatched="message:toolResult:<no call>")
        if c is None:
            return
        content = m.get(CONTENT)
        for part in content if isinstance(content, list) else []:
            kind = part.get(BLOCK_TYPE) if isinstance(part, dict) else None
            if not isinstance(kind, str) or PARTS.get(kind) != "mapped":
                self.skip(label("part", kind if isinstance(kind, str) else None))
        text = "\n".join(texts_of(content)[0])
        error = m.get(IS_ERROR) is True
        code = None
        if c.kind == "exec":
            found = _EXIT.search(text[-200:])
            code = int(found.group(1)) if found else None
        res = chatlog.result(c, max(t, c.t), error=error, output=text, exit_code=code, error_text=text)
        if res.is_error and c.kind == "edit" and "could not find" in text[:400].lower():
            res.err_class = "patch_failed"
        self.s.facts.append(res)

    def finish(self, data: bytes | BinaryIO, file_stem: str | None) -> SessionFacts:
        s = self.s
        s.native_id = session_id(self.native, data, file_stem)
        s.cwd = self.cwd
        settle(s, (self.cwd,))  # a repository only on evidence (redact/formats/roots.py)
        self.stats.warn_skipped(self.report)
        return s


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = PiReader(report)
    raw = data if isinstance(data, bytes) else data.read()
    reader.read(raw, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(raw, file_stem)
