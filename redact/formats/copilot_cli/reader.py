"""GitHub Copilot CLI event logs (`~/.copilot/session-state/<id>/events.jsonl`, legacy `<id>.jsonl`)
-> facts.

The tables are in `table.py`, the tools in `tools.py`. What the reader derives, and how:

- **Prompts**: `user.message` events (length, image attachments, URL count).
- **Model responses**: each `assistant.message` is one llm event. Copilot records only the
  response's `outputTokens` per request; `reasoningText`/`reasoningOpaque` set thinking;
  `toolRequests` its calls. Its model is the `model` the completions of its calls name, else the
  last `session.model_change`. A legacy log writes a response that has text and calls as two
  messages a few ms apart (the text, then the calls with no text): the pair is one llm event.
- **Input and cache tokens**: `session.shutdown` ends a run (a launch, or a resume) with each
  model's totals (`modelMetrics.<model>.usage`); its inputTokens cover the whole prompt, cache
  reads and writes included. The run's last response of that model carries them whole (fresh input
  as `in`, cache reads as `cr`, writes as `cw`): the map's totals are the log's, never spread.
- **Tool calls**: `tool.execution_start` is the call, `tool.execution_complete` its result; a tool
  request whose start was never logged is a call without a result.
- **Subagents**: events with `parentToolCallId` run in the lane of that `task` call.
- **Errors**: `session.error` (model calls: llm; others: orchestration), failed hooks, `abort`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, BinaryIO

from redact.build.facts import (
    MAIN, Compaction, ErrorFact, Fact, Lane, LlmResponse, SessionFacts, ToolCall, UserTurn,
)
from redact.formats.common import (
    count_urls, epoch_ms, session_id, is_model_name, label, positive_int, text_chars,
)
from redact.formats.copilot_cli import tools
from redact.formats.copilot_cli.keys import (
    AGENT_NAME, ARGUMENTS, AT, ATTACHMENT_TYPE, ATTACHMENTS, CALL_ID, CONTENT, CONTEXT, CWD, DATA, ERROR_TYPE,
    EVENT_TYPES, GIT_ROOT, HOOK_SUCCESS, HOOK_TYPE, HOST_TYPE, KIND, LANE, MCP_SERVER, MCP_TOOL, MODEL, MODEL_METRICS,
    NEW_MODEL,
    OUTPUT_TOKENS, PRE_COMPACTION, REASONING_OPAQUE, REASONING_TEXT, REPOSITORY, REQUEST_NAME, SESSION_ERROR,
    SESSION_ID, START_TIME, TOOL_NAME, TOOL_REQUESTS,
)
from redact.formats.copilot_cli.native_table import HOOK_EVENTS, METRICS_TOKENS, METRICS_USAGE
from redact.formats.ids import lane_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.wording import api_error_class
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "copilot"
_REPO = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
_CWD = re.compile(r"^cwd: *(.{1,4096}?) *$", re.MULTILINE)
#: the most time between a legacy response's text message and its calls' message (one response)
SPLIT_MS = 50.0


def _name(kind: str) -> str:
    """A record name for the report: `session.warning` as `session_warning` (dots are not in the
    report's name grammar), any other name by `label`."""
    return label(kind.replace(".", "_"))


class CopilotReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.native: str | None = None
        self.cwd: str | None = None
        self.git_root: str | None = None
        self.model: dict[str, str | None] = {MAIN: None}
        self.calls: dict[str, ToolCall] = {}
        self.results: set[str] = set()
        self.asked: dict[str, tuple[LlmResponse, dict[str, Any]]] = {}  # call id -> response, request
        self.lanes: dict[str, str] = {}  # parentToolCallId -> lane
        self.fallback: list[tuple[LlmResponse, str | None]] = []
        self.run: list[LlmResponse] = []  # the responses since the run began
        self.runs: list[tuple[list[LlmResponse], dict[str, Any]]] = []  # each ended run, its modelMetrics
        self.text_only: LlmResponse | None = None  # the previous record: a response with text, no calls

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def lane(self, data: dict[str, Any]) -> str:
        parent = data.get(LANE)
        if not isinstance(parent, str) or not parent:
            return MAIN
        lane = self.lanes.get(parent)
        if lane is None:
            lane = lane_id(parent)
            self.lanes[parent] = lane
            launch = self.calls.get(parent)
            self.s.lanes.setdefault(lane, Lane(lane, "subagent", launch_call=parent,
                                               subagent_type=launch.subagent_type if launch else None))
        return lane

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool) -> None:
        for _, r in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            kind = r.get(KIND)
            d = r.get(DATA)
            if not isinstance(kind, str) or not isinstance(d, dict):
                self.skip("<no type>")
                continue
            t = epoch_ms(r.get(AT))
            if t is None:
                self.skip(_name(kind) + ":<no time>")
                continue
            if self.s.first_seen is None:
                self.s.first_seen = t
            self.s.saw_late(t)
            handler = _HANDLERS.get(kind)
            if kind != "assistant.message":
                self.text_only = None
            if handler is None:
                self.skip(_name(kind))
                continue
            handler(self, d, t)

    # -- session -----------------------------------------------------------------------------------
    def start(self, d: dict[str, Any], t: float) -> None:
        sid = d.get(SESSION_ID)
        if isinstance(sid, str) and sid and self.native is None:
            self.native = sid
        start = epoch_ms(d.get(START_TIME))
        if start is not None and start < (self.s.first_seen or start + 1):
            self.s.first_seen = start
        self.context(d.get(CONTEXT))

    def context(self, ctx: object) -> None:
        if not isinstance(ctx, dict):
            return
        cwd, root = ctx.get(CWD), ctx.get(GIT_ROOT)
        if self.cwd is None and isinstance(cwd, str) and cwd:
            self.cwd = cwd
        if self.git_root is None and isinstance(root, str) and root:
            self.git_root = root
        repo = ctx.get(REPOSITORY)
        if self.s.remote is None and ctx.get(HOST_TYPE) == "github" and isinstance(repo, str) and \
                _REPO.fullmatch(repo):
            self.s.remote = "https://github.com/" + repo

    def resume(self, d: dict[str, Any], t: float) -> None:
        self.context(d.get(CONTEXT))

    def model_change(self, d: dict[str, Any], t: float) -> None:
        new = d.get(NEW_MODEL)
        if is_model_name(new):
            self.model[MAIN] = new

    # -- turns -------------------------------------------------------------------------------------
    def user(self, d: dict[str, Any], t: float) -> None:
        content = d.get(CONTENT)
        text = content if isinstance(content, str) else ""
        attachments = d.get(ATTACHMENTS)
        images = sum(1 for a in attachments if isinstance(a, dict) and a.get(ATTACHMENT_TYPE) == "image") \
            if isinstance(attachments, list) else 0
        if text or images:
            self.add(UserTurn(t, MAIN, len(text), images, count_urls(text)))

    def assistant(self, d: dict[str, Any], t: float) -> None:
        lane = self.lane(d)
        # the model: the one the completions of its calls name, else the lane's (or the session's) last
        resp = LlmResponse(t, lane, self.model.get(lane))
        self.fallback.append((resp, self.model.get(lane) or self.model[MAIN]))
        resp.out = positive_int(d.get(OUTPUT_TOKENS))
        resp.thinking = bool(d.get(REASONING_TEXT) or d.get(REASONING_OPAQUE))
        resp.text_chars = text_chars(d.get(CONTENT))
        requests = d.get(TOOL_REQUESTS)
        requests = [q for q in requests if isinstance(q, dict)] if isinstance(requests, list) else []
        first, self.text_only = self.text_only, None
        if first is not None and requests and not resp.text_chars and first.agent == lane and \
                0 <= t - first.t <= SPLIT_MS:
            self.fallback.pop()  # the calls of the response whose text the previous record held
            first.out += resp.out
            first.thinking = first.thinking or resp.thinking
            first.tool_calls += len(requests)
            first.stop = "tool_use"
            for q in requests:
                call_id = q.get(CALL_ID)
                if isinstance(call_id, str) and call_id:
                    self.asked.setdefault(call_id, (first, q))
            return
        resp.tool_calls = len(requests)
        resp.stop = "tool_use" if requests else "end_turn"  # not recorded: inferred
        self.add(resp)
        self.run.append(resp)
        if not requests and resp.text_chars:
            self.text_only = resp
        for q in requests:
            call_id = q.get(CALL_ID)
            if isinstance(call_id, str) and call_id:
                self.asked.setdefault(call_id, (resp, q))

    # -- tools -------------------------------------------------------------------------------------
    def tool_start(self, d: dict[str, Any], t: float) -> None:
        call_id = d.get(CALL_ID)
        if not isinstance(call_id, str) or not call_id or call_id in self.calls:
            self.skip("<call without id>" if not isinstance(call_id, str) or not call_id else "<duplicate>")
            return
        call = tools.make_call(d.get(TOOL_NAME), d.get(ARGUMENTS), call_id, t, self.lane(d), d.get(MCP_SERVER),
                               d.get(MCP_TOOL))
        self.calls[call_id] = call
        self.add(call)

    def tool_complete(self, d: dict[str, Any], t: float) -> None:
        call_id = d.get(CALL_ID)
        call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None or call.call_id in self.results:
            self.skip("<result without call>" if call is None else "<duplicate>")
            return
        model = d.get(MODEL)
        if is_model_name(model):
            asked = self.asked.get(call.call_id)
            if asked is not None and asked[0].model is None:
                asked[0].model = model
            self.model[call.agent] = model
        self.results.add(call.call_id)
        self.add(tools.make_result(d, call, t))

    def subagent_started(self, d: dict[str, Any], t: float) -> None:
        call_id = d.get(CALL_ID)
        if not isinstance(call_id, str) or not call_id:
            return
        lane = self.lane({LANE: call_id})
        name = d.get(AGENT_NAME)
        if isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", name):
            self.s.lanes[lane].subagent_type = name
            call = self.calls.get(call_id)
            if call is not None and call.subagent_type is None:
                call.subagent_type = name

    # -- errors and compaction ---------------------------------------------------------------------
    def session_error(self, d: dict[str, Any], t: float) -> None:
        message = d.get(SESSION_ERROR)
        cls = api_error_class(message if isinstance(message, str) else "")
        if d.get(ERROR_TYPE) == "model_call":
            self.add(ErrorFact(t, MAIN, "llm", cls))
        else:
            self.add(ErrorFact(t, MAIN, "orchestration", cls))

    def hook_end(self, d: dict[str, Any], t: float) -> None:
        if d.get(HOOK_SUCCESS) is not False:
            self.skip("hook_end")
            return
        kind = d.get(HOOK_TYPE)
        event = HOOK_EVENTS.get(kind) if isinstance(kind, str) else None
        self.add(ErrorFact(t, MAIN, "hook", "hook_error", hook=event, hook_event=event))

    def abort(self, d: dict[str, Any], t: float) -> None:
        self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))

    def shutdown(self, d: dict[str, Any], t: float) -> None:
        metrics = d.get(MODEL_METRICS)
        if isinstance(metrics, dict):
            self.runs.append((self.run, metrics))
        self.run = []

    def run_tokens(self) -> None:
        """Each ended run's input and cache tokens, per model, on its last response of that model."""
        for run, metrics in self.runs:
            for model, entry in metrics.items():
                usage = entry.get(METRICS_USAGE) if isinstance(entry, dict) else None
                if not isinstance(usage, dict):
                    continue
                whole, cr, cw = (positive_int(usage.get(name)) for name in METRICS_TOKENS)
                last = next((r for r in reversed(run) if r.model == model), None)
                if last is None:
                    if whole or cr or cw:
                        self.skip("session_shutdown:<tokens of a model without responses>")
                    continue
                last.inp += max(whole - cr - cw, 0)
                last.cr += cr
                last.cw += cw

    def compaction(self, d: dict[str, Any], t: float) -> None:
        pre = positive_int(d.get(PRE_COMPACTION)) or None
        self.add(Compaction(t, MAIN, None, pre, None, None))

    # -- end ---------------------------------------------------------------------------------------
    def finish(self, where: str, fallback: str | None, workspace_cwd: str | None,
               data: bytes | BinaryIO) -> SessionFacts:
        for resp, model in self.fallback:
            if resp.model is None:
                resp.model = model
        self.run_tokens()
        for call_id, (resp, request) in self.asked.items():
            if call_id not in self.calls:  # asked for, never started: a call without a result
                call = tools.make_call(request.get(REQUEST_NAME), request.get(ARGUMENTS), call_id, resp.t, resp.agent)
                self.calls[call_id] = call
                self.add(call)
        self.s.facts.sort(key=lambda f: f.t)  # stable: a late call stays after its response
        s = self.s
        s.native_id = session_id(self.native, data, fallback)
        s.cwd = self.cwd or workspace_cwd
        # a repository only on evidence (redact/formats/roots.py): the git root the log names is evidence
        settle(s, (self.git_root or s.cwd,), git=self.git_root is not None)
        self.stats.warn_skipped(self.report)
        return s


_HANDLERS: dict[str, Any] = {
    "session.start": CopilotReader.start,
    "session.resume": CopilotReader.resume,
    "session.model_change": CopilotReader.model_change,
    "user.message": CopilotReader.user,
    "assistant.message": CopilotReader.assistant,
    "tool.execution_start": CopilotReader.tool_start,
    "tool.execution_complete": CopilotReader.tool_complete,
    "subagent.started": CopilotReader.subagent_started,
    "session.error": CopilotReader.session_error,
    "hook.end": CopilotReader.hook_end,
    "abort": CopilotReader.abort,
    "session.compaction_complete": CopilotReader.compaction,
    "session.shutdown": CopilotReader.shutdown,
}
assert set(_HANDLERS) == {k for k, v in EVENT_TYPES.items() if v == "mapped"}


def _workspace_cwd(companions: list[Any] | None) -> str | None:
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        if path.name != "workspace.yaml":
            continue
        try:
            text = path.read_text("utf-8", errors="replace")[:65536]
        except OSError:
            continue
        m = _CWD.search(text)
        if m:
            value = m.group(1).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            return value.replace("\\\\", "\\") if value.startswith('"') else value or None
    return None


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = CopilotReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(where, file_stem if file_stem != "events" else None, _workspace_cwd(companions), data)
