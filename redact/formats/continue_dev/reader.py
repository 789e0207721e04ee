"""A Continue session (`<uuid>.json`) -> facts.

A user message is a prompt; an assistant message is one llm event (the model and tokens of its
`usage`, when the client wrote one: out is what total_tokens counts beyond the prompt, so a thinking
model's thoughts count; its text length; its tool calls through the shared tool table
after Continue's aliases). A tool call's state, once `done`, `errored` or `canceled`, is its result.
Continue writes one time per session, and only in its index `sessions.json` (a companion:
`dateCreated`, the session's creation): every event is at that time, in the order of the history
(the duration is unknown, and the report says so). A history item carrying a `conversationSummary`
is where the conversation was compacted: a compaction event. Without the index the log has no time at all:
the map's start is the epoch, a stand-in the report names, never a time. Paths are placed under
`workspaceDirectory`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote

import orjson

from redact.build.facts import MAIN, Compaction, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import (
    session_id, is_model_name, json_doc, label, parse_json_string, positive_int, text_chars,
)
from redact.formats.continue_dev.keys import (
    CALL_ARGS, CALL_ID, CALL_NAME, COMPLETION_TOKENS, CONTENT, FUNCTION, HISTORY, INDEX_CREATED, INDEX_SESSION_ID,
    MESSAGE, MODEL, OUTPUT,
    OUTPUT_CONTENT, PARSED_ARGS, PROMPT_TOKENS, ROLE, TOTAL_TOKENS, SESSION_ID, SUMMARY, STATE_CALL_ID, STATE_STATUS, STATES, TOOL_CALLS,
    USAGE, WORKSPACE,
)
from redact.formats.continue_dev.native_table import ALIASES, STATUS
from redact.formats.continue_dev.table import INDEX_NAME
from redact.report import RedactionReport

AGENT_TOOL = "continue"
#: The tool that only ever creates a file (Continue's own: "only use this when a file doesn't exist").
CREATES = "create_new_file"
NO_TIME = 0.0
_INDEX_LIMIT = 16 << 20  # the index lists every session's title: a few KiB each at most
ONE_TIME = ("Continue records one time per session (sessions.json dateCreated): every event is at the "
            "session's start, in the order of its history; the duration is unknown")
NO_TIMES = ("Continue records no time in a session file and its index (sessions.json) was not found: "
            "startedAt is the epoch, a stand-in, not a time; events are in the order of the history")


def created_at(companions: list[Any] | None, sid: object) -> float | None:
    """The session's `dateCreated` from the index among `companions`, as epoch ms; None when absent."""
    if not isinstance(sid, str):
        return None
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        if path.name != INDEX_NAME and not path.name.endswith("_" + INDEX_NAME):
            continue
        try:
            from redact.io.read import read_input

            doc = orjson.loads(read_input(path, limit=_INDEX_LIMIT))
        except (orjson.JSONDecodeError, OSError, ValueError):
            continue
        for entry in doc if isinstance(doc, list) else []:
            if isinstance(entry, dict) and entry.get(INDEX_SESSION_ID) == sid:
                value = entry.get(INDEX_CREATED)
                if isinstance(value, str) and value.isdigit() and len(value) <= 16:
                    value = int(value)
                return chatlog.epoch_number(value)
    return None


def root_of(doc: dict[str, Any]) -> str | None:
    """The workspace folder: a path, or a `file://` URI decoded (`file:///c%3A/Users/x` -> `c:/Users/x`)."""
    value = doc.get(WORKSPACE)
    if not isinstance(value, str) or not value:
        return None
    if value.startswith("file://"):
        path = unquote(value[len("file://"):])
        return path[1:] if path[2:3] == ":" and path[:1] == "/" else path
    return value if "://" not in value else None


class ContinueReader:
    def __init__(self, report: RedactionReport, start: float | None = None) -> None:
        self.report = report
        self.t = NO_TIME if start is None else start
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="", first_seen=self.t)
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, doc: dict[str, Any]) -> None:
        root = root_of(doc)
        self.s.roots = chatlog.root_of(root, project=True)  # the workspace the user opened
        self.s.cwd = root
        history = doc.get(HISTORY)
        for item in history if isinstance(history, list) else []:
            if isinstance(as_object(item).get(SUMMARY), str) and as_object(item)[SUMMARY]:
                self.s.facts.append(Compaction(self.t, MAIN, None))  # the conversation summed up here
            m = as_object(as_object(item).get(MESSAGE))
            role = m.get(ROLE)
            if role == "user":
                self.s.facts.append(UserTurn(self.t, MAIN, text_chars(m.get(CONTENT))))
            elif role == "assistant":
                self.assistant(m, as_object(item))
            else:
                self.skip(label("message", role if isinstance(role, str) else None))

    def assistant(self, m: dict[str, Any], item: dict[str, Any]) -> None:
        usage = as_object(m.get(USAGE))
        model = usage.get(MODEL) if is_model_name(usage.get(MODEL)) else None
        prompt = positive_int(usage.get(PROMPT_TOKENS))
        # a thinking model's thoughts are in total_tokens only (Gemini: prompt + completion + thoughts)
        out = max(positive_int(usage.get(COMPLETION_TOKENS)), positive_int(usage.get(TOTAL_TOKENS)) - prompt)
        llm = LlmResponse(self.t, MAIN, model, inp=prompt, out=out, text_chars=text_chars(m.get(CONTENT)))
        self.s.facts.append(llm)
        found = item.get(STATES)
        states = {s[STATE_CALL_ID]: s for s in found if isinstance(s, dict) and isinstance(s.get(STATE_CALL_ID), str)} \
            if isinstance(found, list) else {}
        calls = m.get(TOOL_CALLS)
        for tc in calls if isinstance(calls, list) else []:
            tc = as_object(tc)
            call_id, fn = tc.get(CALL_ID), as_object(tc.get(FUNCTION))
            name = fn.get(CALL_NAME)
            if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name \
                    or call_id in self.calls:
                self.skip("toolCall:<no id or name>")
                continue
            state = as_object(states.get(call_id))
            args = state.get(PARSED_ARGS) if isinstance(state.get(PARSED_ARGS), dict) \
                else parse_json_string(fn.get(CALL_ARGS))
            c = chatlog.call(name, args if isinstance(args, dict) else {}, call_id, self.t, MAIN, aliases=ALIASES)
            self.calls[call_id] = c
            llm.tool_calls += 1
            self.s.facts.append(c)
            self.result(c, state, creates=name == CREATES)
        llm.stop = "tool_use" if llm.tool_calls else "end_turn"

    def result(self, c: ToolCall, state: dict[str, Any], *, creates: bool = False) -> None:
        status = state.get(STATE_STATUS)
        if not isinstance(status, str) or status not in STATUS:
            return  # still generating or calling when the session was saved: no result
        error, cls = STATUS[status]
        output = state.get(OUTPUT)
        text = "".join(o.get(OUTPUT_CONTENT, "") for o in output
                       if isinstance(o, dict) and isinstance(o.get(OUTPUT_CONTENT), str)) \
            if isinstance(output, list) else None
        # create_new_file makes a file that was not there: once it succeeded, a create
        res = chatlog.result(c, self.t, error=error, output=text, error_text=text if error else None,
                             created=True if creates and not error else None)
        if cls is not None:
            res.err_class = cls
        self.s.facts.append(res)


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    doc = json_doc(raw, where) if raw.strip() else {}
    doc = doc if isinstance(doc, dict) else {}
    start = created_at(companions, doc.get(SESSION_ID))
    report.warn(NO_TIMES if start is None else ONE_TIME)
    reader = ContinueReader(report, start)
    reader.read(doc)
    sid = doc.get(SESSION_ID)
    reader.s.native_id = session_id(sid, data, file_stem)
    return reader.s
