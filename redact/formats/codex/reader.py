"""Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, and the older layouts) -> facts.

The tables are in `table.py` (record types, tools, field classes); the tools in `tools.py`, the
calls' pairing in `calls.py`, the end events, errors and usage helpers in `events.py`, the model
requests and their token counts in `responses.py`, the older layouts in `layouts.py`. What the reader derives, and how:

- **User turns.** `event_msg` `user_message` records are the prompts when the rollout has any;
  older rollouts have none, and then a `response_item` user message is a prompt unless the harness
  wrote it (`<environment_context>`, `# AGENTS.md instructions ...`, `<turn_aborted>`, ...).
- **Model requests.** One `llm` event per model response: the response items between two inputs
  (a user message or a tool output) are one response; its reasoning sets `thinking`, its messages
  `textChars`, its calls `toolCalls`. An `event_msg` `token_count` gives one request's usage
  (`last_token_usage`): current clients write it after the response's items (it closes the open
  response), clients 0.3x before them (it waits for the next response). A token count that repeats
  the previous total is the same usage reported again and is ignored; one that no response takes is
  a request whose items were not written (an llm event of its own). So each token is counted once.
- **Tool calls** pair with their outputs by `call_id`; `exec_command_end`, `patch_apply_end`,
  `mcp_tool_call_end` and `collab_agent_spawn_end` refine the call or its result.
- **Compaction**: a `compacted` record and the `context_compacted` event next to it are one event.

Timestamps are never made up: a record of the older layouts without a time of its own takes the
last known time (so order is kept and durations are unknown, not zero).
"""
from __future__ import annotations

import re
from typing import Any, BinaryIO

from redact.build.facts import (
    MAIN, Compaction, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats.codex import calls, events, layouts, responses
from redact.formats.codex.keys import (
    CONTENT, DOC_ITEMS, DOC_SESSION, END_CALL_ID, EVENT_TYPE, HEADER_GIT, HEADER_ID, HEADER_TIME, IMAGES, ITEM_TYPE,
    KIND, LOCAL_IMAGES, MESSAGE, META_CWD, META_GIT, META_ID, META_TIME, PARENT_THREAD, PART_TEXT, PART_TYPE,
    PAYLOAD, RECORD_TYPE, REMOTE, ROLE, SOURCE, SUBAGENT, THREAD_SPAWN, TIME, TURN_CWD, TURN_MODEL,
)
from redact.formats.codex.native_table import EVENT_MSG_TYPES as EVENT_MSGS
from redact.formats.codex.native_table import RECORD_TYPES
from redact.formats.codex.native_table import RESPONSE_ITEM_TYPES as RESPONSE_ITEMS
from redact.formats.codex.table import sniff_doc
from redact.formats.common import (
    LogClock, count_urls, epoch_ms, session_id, is_model_name, label, native_id, text_chars,
)
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport
from redact.formats.roots import settle

FORMAT = "codex"
AGENT_TOOL = "codex"

_INJECTED = re.compile(r"^\s*(?:<[a-z_][a-z0-9_ -]{0,60}>|# AGENTS\.md instructions\b|<INSTRUCTIONS>)")
_ENV_CWD = re.compile(r"<cwd>([^<>\n]{1,4096})</cwd>|^Current working directory: ([^\n]{1,4096})$",
                      re.MULTILINE)


def env_cwd(text: str) -> str | None:
    """The working directory an `<environment_context>` message names (`<cwd>...</cwd>`, or the
    older `Current working directory: ...` line); None when `text` is no such message. The one rule:
    `--to native` (native.py) finds the session's root with it too."""
    if not text.lstrip().startswith("<environment_context>"):
        return None
    m = _ENV_CWD.search(text[:8192])
    return (m.group(1) or m.group(2)).strip() if m else None


_INPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})
_CALL_ITEMS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})


class CodexReader:
    """Reads one rollout (any layout) into `SessionFacts`."""

    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.native: str | None = None
        self.meta_seen = False
        self.git = False  # session_meta carries git info: the working directory is in git
        self.clock = LogClock(self.s)
        self.timed = False  # whether the current record has a time of its own
        self.model: str | None = None
        self.cwd: str | None = None  # the working directory of the current turn
        self.env_cwd: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.results: dict[str, ToolResult] = {}
        self.late: dict[str, tuple[int | None, float | None, bool | None]] = {}  # call id -> end event
        self.sessions: dict[str, str] = {}  # unified-exec session id -> the exec_command call id
        self.polls: dict[str, str] = {}  # write_stdin call id -> the session id it polls
        self.search_ids = 0  # tool_search_call items without a call id
        self.open_searches: list[str] = []  # tool searches waiting for their output
        self.response: LlmResponse | None = None  # the response being read
        self.input_t: float | None = None  # when the model was last given input
        self.unmetered: LlmResponse | None = None  # the open response, until a token count meters it
        self.pending: list[tuple[tuple[int, int, int], float | None]] = []  # usage before its items
        self.pending_models: list[str | None] = []
        self.latency_fixed = False
        self.last_total: object = None
        self.last_context: int | None = None
        self.event_prompts = False  # the rollout has user_message events: they are the prompts
        self.item_turns: list[UserTurn] = []
        self.compaction_at: int | None = None  # len(facts) right after the last compaction fact
        self.web_ids = 0

    # -- plumbing ----------------------------------------------------------------------------------
    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def time(self, value: object) -> float | None:
        """The time of the current record (its `timestamp`, or a header's)."""
        t = epoch_ms(value)
        self.timed = t is not None
        return self.clock.at(t)

    # -- input -------------------------------------------------------------------------------------
    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool = False) -> None:
        if isinstance(data, (bytes, bytearray)):
            doc = layouts.document_of(bytes(data))
        else:  # a regular file: look at its start, then stream it line by line from the beginning
            head = data.read(layouts.HEAD)
            data.seek(0)
            doc = layouts.document_of(head + data.read()) if layouts.may_be_document(head) else None
            data.seek(0)
        if doc is not None:
            self.document(doc)
            return
        first = True
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            if first and KIND not in record and RECORD_TYPE not in record:
                self.legacy_header(record)
            else:
                self.record(record)
            first = False

    def document(self, doc: Any) -> None:
        """The single-JSON rollout: `session`, then chat-completions shaped `items`."""
        if not sniff_doc(doc):
            self.skip("<not a rollout>")
            return
        self.legacy_header(doc[DOC_SESSION])
        for item in doc[DOC_ITEMS]:
            self.timed = False
            if not isinstance(item, dict):
                continue
            for converted in layouts.chat_items(item):
                self.item(converted, self.clock.last)

    def legacy_header(self, header: dict[str, Any]) -> None:
        t = self.time(header.get(HEADER_TIME))
        self.session_meta({META_ID: header.get(HEADER_ID), META_TIME: header.get(HEADER_TIME),
                           META_GIT: header.get(HEADER_GIT)}, t)

    def record(self, r: dict[str, Any]) -> None:
        kind = r.get(KIND)
        if PAYLOAD in r and isinstance(kind, str):
            t = self.time(r.get(TIME))
            payload = r.get(PAYLOAD)
            handler = _TOP.get(kind)
            if handler is None or not isinstance(payload, dict):
                self.skip(label(kind))
                return
            if t is None:
                self.skip(label(kind) + ":<no time>")
                return
            handler(self, payload, t)
            return
        if RECORD_TYPE in r:
            rt = r.get(RECORD_TYPE)
            self.skip(label("record_type", rt if isinstance(rt, str) else None))
            return
        self.timed = False
        if isinstance(kind, str) and kind in RESPONSE_ITEMS and self.clock.last is not None:
            self.item(r, self.clock.last)  # the August-2025 layout: an item without an envelope
            return
        self.skip(label(kind) if isinstance(kind, str) else "<no type>")

    # -- session and turns -------------------------------------------------------------------------
    def session_meta(self, p: dict[str, Any], t: float | None) -> None:
        if self.meta_seen:
            return  # a forked or resumed rollout repeats its parent's meta: the first one is ours
        self.meta_seen = True
        sid = p.get(META_ID)
        if isinstance(sid, str) and sid:
            self.native = sid
        start = epoch_ms(p.get(META_TIME))
        if start is not None:
            self.s.saw(start)
        cwd = p.get(META_CWD)
        if isinstance(cwd, str) and cwd:
            self.s.cwd = self.cwd = cwd
        git = p.get(META_GIT)
        self.git = isinstance(git, dict) and any(isinstance(v, str) and v for v in git.values())
        remote = git.get(REMOTE) if isinstance(git, dict) else None
        if isinstance(remote, str) and remote:
            self.s.remote = remote
        source = p.get(SOURCE)
        if isinstance(source, dict) and isinstance(source.get(SUBAGENT), (dict, str)):
            sub = source[SUBAGENT]
            spawn = sub.get(THREAD_SPAWN) if isinstance(sub, dict) else None
            if isinstance(spawn, dict):
                self.s.role = "subagent"
                parent = spawn.get(PARENT_THREAD)
                if isinstance(parent, str) and parent:
                    self.s.parent_native_id = native_id(parent)
            else:
                self.s.role = "helper"

    def turn_context(self, p: dict[str, Any], t: float) -> None:
        model = p.get(TURN_MODEL)
        if is_model_name(model):
            self.model = model
        cwd = p.get(TURN_CWD)
        if isinstance(cwd, str) and cwd:
            self.cwd = cwd
            if self.s.cwd is None:
                self.s.cwd = cwd

    def gave_input(self, t: float) -> None:
        self.response = None
        self.input_t = t

    def user_item(self, p: dict[str, Any], t: float) -> None:
        content = p.get(CONTENT)
        parts = content if isinstance(content, list) else [content]
        images = sum(1 for c in parts if isinstance(c, dict) and c.get(PART_TYPE) in ("input_image", "image"))
        texts = [c[PART_TEXT] for c in parts if isinstance(c, dict) and isinstance(c.get(PART_TEXT), str)]
        first: str = texts[0] if texts else content if isinstance(content, str) else ""
        self.gave_input(t)
        if _INJECTED.match(first):
            if self.env_cwd is None:
                self.env_cwd = env_cwd(first)
                if self.cwd is None:
                    self.cwd = self.env_cwd
            return
        chars = text_chars(content)
        if not chars and not images:
            return
        turn = UserTurn(t, MAIN, chars, images, sum(count_urls(c.get(PART_TEXT, "")) for c in parts
                                                   if isinstance(c, dict) and isinstance(c.get(PART_TEXT), str)))
        turn.withdrawn = self.event_prompts
        self.item_turns.append(turn)
        self.add(turn)

    def user_message(self, p: dict[str, Any], t: float) -> None:
        if not self.event_prompts:
            self.event_prompts = True
            for turn in self.item_turns:
                turn.withdrawn = True
        message = p.get(MESSAGE)
        text = message if isinstance(message, str) else ""
        images = sum(len(v) for v in (p.get(IMAGES), p.get(LOCAL_IMAGES)) if isinstance(v, list))
        self.gave_input(t)
        if text or images:
            self.add(UserTurn(t, MAIN, len(text), images, count_urls(text)))

    # -- model responses ---------------------------------------------------------------------------
    def open_response(self, t: float) -> LlmResponse:
        return responses.open_response(self, t)

    # -- response items ----------------------------------------------------------------------------
    def response_item(self, p: dict[str, Any], t: float) -> None:
        self.item(p, t)

    def item(self, p: dict[str, Any], t: float | None) -> None:
        if t is None:
            return
        kind = p.get(ITEM_TYPE)
        if kind == "message":
            role = p.get(ROLE)
            if role == "user":
                self.user_item(p, t)
            elif role == "assistant":
                self.open_response(t).text_chars += text_chars(p.get(CONTENT))
            else:
                self.skip(label("message", role if isinstance(role, str) else None))
        elif kind == "reasoning":
            self.open_response(t).thinking = True
        elif isinstance(kind, str) and kind in _CALL_ITEMS:
            calls.call(self, p, t)
        elif isinstance(kind, str) and kind in _INPUT_ITEMS:
            calls.output(self, p, t)
        elif kind == "web_search_call":
            calls.web(self, p, t)
        elif kind == "tool_search_call":
            calls.tool_search(self, p, t)
        elif kind == "tool_search_output":
            calls.tool_search_output(self, p, t)
        elif kind in ("compaction", "compaction_summary"):
            self.compaction(t)
        else:
            self.skip(label("response_item", kind if isinstance(kind, str) else None))

    # -- events ------------------------------------------------------------------------------------
    def event_msg(self, p: dict[str, Any], t: float) -> None:
        kind = p.get(EVENT_TYPE)
        handler = _EVENTS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.skip(label("event_msg", kind if isinstance(kind, str) else None))
            return
        handler(self, p, t)

    def call_of(self, p: dict[str, Any]) -> ToolCall | None:
        call_id = p.get(END_CALL_ID)
        return self.calls.get(call_id) if isinstance(call_id, str) else None

    def compaction(self, t: float, *_: Any) -> None:
        if self.compaction_at is not None and self.compaction_at == len(self.s.facts):
            return  # the other record of the same compaction
        self.add(Compaction(t, MAIN, None, self.last_context, None, None))
        self.compaction_at = len(self.s.facts)
        self.gave_input(t)

    # -- end ---------------------------------------------------------------------------------------
    def finish(self, where: str, stem: str | None, data: bytes | BinaryIO) -> SessionFacts:
        s = self.s
        for fact in s.facts:
            if isinstance(fact, LlmResponse) and fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"  # not recorded: inferred
        for (usage, at), model in zip(self.pending, self.pending_models):
            if at is None and self.clock.last is None:
                continue
            resp = LlmResponse(at if at is not None else self.clock.last or 0.0, MAIN, model)  # no items written
            events.meter(resp, usage)
            s.facts.append(resp)
        s.native_id = session_id(self.native, data, stem)
        if s.cwd is None:
            s.cwd = self.env_cwd
        remote = s.remote
        settle(s, (s.cwd,), git=self.git)
        if not s.roots and s.cwd is None and remote:
            # no working directory anywhere (the August-2025 layout without an environment
            # context), but the header names the repository: relative paths are inside it
            s.rootless_repo = True
            s.remote = remote
            s.repo_name = _remote_name(remote)
        self.stats.warn_skipped(self.report)
        return s


def _remote_name(remote: str) -> str | None:
    """The repository's name from its remote (`git@host:acme/api.git` -> `api`)."""
    tail = re.split(r"[/:\\]", remote.rstrip("/"))[-1]
    tail = tail[:-4] if tail.endswith(".git") else tail
    return tail or None


_TOP: dict[str, Any] = {
    "session_meta": CodexReader.session_meta,
    "turn_context": CodexReader.turn_context,
    "response_item": CodexReader.response_item,
    "event_msg": CodexReader.event_msg,
    "compacted": events.compacted,
}
_EVENTS: dict[str, Any] = {
    "user_message": CodexReader.user_message,
    "token_count": responses.token_count,
    **events.HANDLERS,
}
assert set(_TOP) == set(RECORD_TYPES)
assert set(_EVENTS) == {k for k, v in EVENT_MSGS.items() if v == "mapped"}


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    """Read one rollout (bytes, or a binary file streamed line by line) into facts."""
    reader = CodexReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(where, file_stem, data)


def list_sessions(folder: Any) -> list[Any]:
    """Every rollout under a Codex sessions folder (`~/.codex/sessions`), oldest first: the JSON
    Lines rollouts and the August-2025 single-JSON ones (`rollout-<date>-<uuid>.json`)."""
    found = [p for pattern in ("rollout-*.jsonl", "rollout-*.json") for p in folder.rglob(pattern)]
    return sorted(p for p in found if p.is_file())
