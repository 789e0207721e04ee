"""A Factory Droid session (`<uuid>.jsonl`, with `<uuid>.settings.json` beside it) -> facts.

The `session_start` line names the session and its working directory (the repository root on
evidence, redact/formats/roots.py). A user `message` is a prompt (text length, images) unless the harness
marked it `llm_only` (context it injected: counted, not a prompt); its `tool_result` blocks are the
results of the calls. An assistant message is one llm event: text length, thinking, its `tool_use`
calls through the shared tool table after Droid's aliases (`Execute` is a shell command through the
verb engine; `Create` makes a new file, a create once it succeeded). Droid writes no tokens per
message; the model is the message's, else the one of the settings file beside the log.

A log holding its `session_start` line alone (Droid writes it when the session opens; the corpus has
one) is a session with no events, and the report says so. Its start is the header's `timestamp`
when it has one; Droid's header usually has none, and then it is the log's modification time on
disk (the file was last written when its one line was), which the report names; only a header read
from a stream, with neither, is left without a time (the epoch stand-in the report names). A time
is never made up from nothing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

import orjson

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import LATEST_MS, epoch_ms, is_model_name, label
from redact.formats.factory_droid.keys import (
    AT, BLOCK_TYPE, BLOCKS, CALL_ID, CALL_INPUT, CALL_NAME, CONTENT, CWD, KIND, MESSAGE, MODEL, RECORD_TYPES,
    RESULT_CALL, RESULT_CONTENT, RESULT_ERROR, RESULT_TEXT, RESULT_TYPE, ROLE, SESSION_ID, SETTINGS_MODEL, START_AT,
    TEXT, VISIBILITY,
)
from redact.formats.factory_droid.native_table import ALIASES, FOLDER_KEYS
from redact.formats.ids import session_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport

AGENT_TOOL = "factory-droid"
NO_EVENTS = "the session holds only its header (session_start): its map has no events"
FILE_TIME = ("the header records no time: startedAt is the log's modification time on disk "
             "(when its one line was written)")


def settings_model(companions: list[Any] | None) -> str | None:
    """The model named by the session's settings file, when it is a model name."""
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        if not path.name.endswith(".settings.json"):
            continue
        try:
            doc = orjson.loads(path.read_bytes()[:1 << 20])
        except (OSError, orjson.JSONDecodeError):
            continue
        model = as_object(doc).get(SETTINGS_MODEL)
        if is_model_name(model):
            return str(model)
    return None


def result_text(content: object) -> str | None:
    """The text of a tool result: a string, or its `text` blocks joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [as_object(b).get(RESULT_TEXT) for b in content if as_object(b).get(RESULT_TYPE) == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return None


class DroidReader(CallPairs):
    def __init__(self, report: RedactionReport, model: str | None) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.model = model
        self.sid: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.t: float | None = None
        self.header_at: float | None = None

    def read(self, data: bytes | BinaryIO, where: str, skip_bad_lines: bool) -> None:
        for _, r in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            kind = r.get(KIND)
            if kind == "session_start" and self.sid is None:
                self.start(r)
            elif kind == "message":
                self.message(r)
            else:
                self.skip(label(kind) if isinstance(kind, str) and kind not in RECORD_TYPES else
                          "session_start:<again>" if kind == "session_start" else "<no record type>")

    def start(self, r: dict[str, Any]) -> None:
        sid, cwd = r.get(SESSION_ID), r.get(CWD)
        self.sid = sid if isinstance(sid, str) and sid else None
        self.header_at = epoch_ms(r.get(START_AT))
        if isinstance(cwd, str) and cwd:
            self.s.cwd = cwd
            self.s.roots = chatlog.root_of(cwd)

    def message(self, r: dict[str, Any]) -> None:
        t = epoch_ms(r.get(AT))
        if t is not None:
            self.t = t
            self.s.saw(t)
        m = as_object(r.get(MESSAGE))
        role, content = m.get(ROLE), m.get(CONTENT)
        if self.t is None or role not in ("user", "assistant"):
            self.skip("message:<no time>" if self.t is None else label("message", role if isinstance(role, str) else None))
            return
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if not isinstance(kind, str) or BLOCKS.get(kind) != "mapped":
                self.skip(label("block", kind if isinstance(kind, str) else None))
        if role == "user":
            self.user(r, content, blocks, self.t)
        else:
            self.assistant(m, content, blocks, self.t)

    def user(self, r: dict[str, Any], content: object, blocks: list[dict[str, Any]], t: float) -> None:
        for b in blocks:
            if b.get(BLOCK_TYPE) == "tool_result":
                self.result(b, t)
        texts = [b for b in blocks if b.get(BLOCK_TYPE) in ("text", "image")]
        if not texts and not isinstance(content, str):
            return
        if r.get(VISIBILITY) == "llm_only":
            self.skip("message:llm_only")
            return
        turn = UserTurn(t, MAIN, len(content) if isinstance(content, str) else
                        sum(len(b[TEXT]) for b in texts if isinstance(b.get(TEXT), str)))
        turn.images = sum(1 for b in texts if b.get(BLOCK_TYPE) == "image")
        self.s.facts.append(turn)

    def assistant(self, m: dict[str, Any], content: object, blocks: list[dict[str, Any]], t: float) -> None:
        model = m.get(MODEL) if is_model_name(m.get(MODEL)) else self.model
        llm = LlmResponse(t, MAIN, model)
        self.s.facts.append(llm)
        if isinstance(content, str):
            llm.text_chars += len(content)
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if kind == "text" and isinstance(b.get(TEXT), str):
                llm.text_chars += len(b[TEXT])
            elif kind in ("thinking", "redacted_thinking"):
                llm.thinking = True
            elif kind == "tool_use":
                self.call(b, t, llm)

    def call(self, b: dict[str, Any], t: float, llm: LlmResponse) -> None:
        found = b.get(CALL_INPUT)
        args: dict[str, Any] = dict(found) if isinstance(found, dict) else {}
        for key in FOLDER_KEYS:  # a search's folder is its target
            if isinstance(args.get(key), str) and "path" not in args:
                args["path"] = args[key]
        nameless = "block:tool_use:<no id or name>"
        self.open_call(llm, b.get(CALL_ID), b.get(CALL_NAME), args, t, aliases=ALIASES, nameless=nameless,
                       again=nameless)

    def result(self, b: dict[str, Any], t: float) -> None:
        c = self.answered(b.get(RESULT_CALL), unmatched="block:tool_result:<no call>")
        if c is None:
            return
        error = b.get(RESULT_ERROR) is True
        text = result_text(b.get(RESULT_CONTENT))
        # Droid's `Create` makes a new file (its `Edit` changes one): a create once it succeeded
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=error, output=text,
                                           error_text=text if error else None,
                                           created=c.name == "Create" if c.kind == "edit" else None))


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = DroidReader(report, settings_model(companions))
    reader.read(data, where, skip_bad_lines)
    reader.s.native_id = session_id(reader.sid, data, file_stem)
    reader.stats.warn_skipped(report)
    if not reader.s.facts and reader.sid is not None:
        report.warn(NO_EVENTS)
        if reader.s.first_seen is None:
            start = reader.header_at if reader.header_at is not None else \
                file_time(where, len(data) if isinstance(data, bytes) else None)
            if start is not None:
                reader.s.saw(start)
                if reader.header_at is None:
                    report.warn(FILE_TIME)
    return reader.s


def file_time(where: str, size: int | None) -> float | None:
    """The modification time of the log at `where` as epoch ms, when `where` is a file on disk that
    holds the input (its size is the input's: a name given with other bytes is not that file); else
    None."""
    import os

    try:
        found = os.stat(where)
    except (OSError, ValueError):
        return None
    if not os.path.isfile(where) or (size is not None and found.st_size != size):
        return None
    ms = found.st_mtime * 1000.0
    return ms if 0.0 < ms < LATEST_MS else None
