"""Agent Replay traces (a Run and its Steps, seed 004) -> facts.

The table is in `table.py`. What the reader derives:

- the Run's task is the one user turn (shape only);
- each `llm_call` step is an llm event (model, token usage, latency, the output's length);
- each `tool_call` step is a tool event through the shared tool table (`toolnames.py`), with its
  result at once (a step is written when it is done): `error` -> err, `usage.latency_ms` -> dur;
  `retrieval`, `memory_read` and `memory_write` steps are tool events named by their type (their
  own names are the developer's text);
- nesting (`parent_step_id`): a `tool_call` step with child steps ran an agent of its own, so it is a
  subagent event and its descendants are that subagent's lane (the map nests one level: deeper
  steps stay in the lane); children of other steps stay in their parent's lane.
"""
from __future__ import annotations

import re
from typing import Any, BinaryIO

import orjson

from redact.build.facts import (
    MAIN, ErrorFact, Fact, Lane, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats import toolnames
from redact.formats.agent_replay.keys import (
    AT, CALLS, CR_KEYS, CW_KEYS, ENDED, ERROR, IN_KEYS, LATENCY_KEYS, LLM_INPUT, LLM_METADATA, LLM_OUTPUT,
    MODEL, OUT_KEYS, OUTPUT, PARENT, RUN, RUN_ID, STARTED, STATUS, STEP_ID, STEP_TYPE, STEPS, TASK, TEXT_KEYS,
    TOOL_INPUT, TOOL_NAME, USAGE, USAGE_MODEL,
)
from redact.formats.agent_replay.table import _run_like, _step_like, sniff_doc
from redact.formats.common import (
    as_float, byte_len, epoch_ms, fallback_id, is_model_name, label, native_id, positive_int,
)
from redact.formats.ids import lane_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.wording import error_class
from redact.report import RedactionReport

FORMAT = "agent-replay"
AGENT_TOOL = "agent-replay"
_RUN_ID = re.compile(r"run_([0-9a-f]{12})")


def _usage(usage: object, keys: tuple[str, ...]) -> int:
    if not isinstance(usage, dict):
        return 0
    for key in keys:
        if key in usage:
            return positive_int(usage.get(key))
    return 0


def _latency(usage: object) -> float | None:
    if not isinstance(usage, dict):
        return None
    for key in LATENCY_KEYS:
        ms = as_float(usage.get(key))
        if ms is not None and ms >= 0:
            return ms
    return None


def _out_bytes(output: object) -> int | None:
    if output is None:
        return None
    if isinstance(output, str):
        return byte_len(output)
    try:
        return len(orjson.dumps(output))
    except (TypeError, orjson.JSONEncodeError):
        return None


def _text_chars(output: object, depth: int = 0) -> int:
    """Length of a model's output message: a string, or the text of a message object (looked for
    a few levels down only)."""
    if isinstance(output, str):
        return len(output)
    if depth > 4:
        return 0
    if isinstance(output, dict):
        for key in TEXT_KEYS:
            value = output.get(key)
            if isinstance(value, str):
                return len(value)
            if isinstance(value, (dict, list)):
                return _text_chars(value, depth + 1)
    if isinstance(output, list):
        return sum(_text_chars(item, depth + 1) for item in output[:1000])
    return 0


def _tool_calls(output: object) -> int:
    calls = output.get(CALLS) if isinstance(output, dict) else None
    return len(calls) if isinstance(calls, list) else 0


def _model(step: dict[str, Any]) -> str | None:
    for holder, key in ((step.get(LLM_INPUT), MODEL), (step.get(LLM_METADATA), MODEL), (step.get(USAGE), USAGE_MODEL)):
        if isinstance(holder, dict) and is_model_name(holder.get(key)):
            return holder[key]  # type: ignore[no-any-return]
    return None


def _llm_error_class(text: str) -> str:
    low = text[:300].lower()
    if "rate limit" in low or "429" in low:
        return "rate_limit"
    if "overloaded" in low or "529" in low:
        return "overloaded"
    if "401" in low or "unauthorized" in low or "api key" in low:
        return "auth"
    if re.search(r"\b5\d\d\b", low):
        return "server_error"
    return "api_error"


class AgentReplayReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.last_t: float | None = None
        self.steps: dict[str, dict[str, Any]] = {}
        self.lanes: dict[str, str] = {}
        self.launchers: set[str] = set()  # tool_call steps that ran an agent of their own
        self.failed_step = False

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def parents(self) -> dict[str, str | None]:
        """Each step's parent step, with the links of a cycle cut (its steps are then top-level)."""
        parent: dict[str, str | None] = {}
        for sid, step in self.steps.items():
            up = step.get(PARENT)
            parent[sid] = up if isinstance(up, str) and up in self.steps and up != sid else None
        done: set[str] = set()
        for sid in parent:
            path: list[str] = []
            on_path: set[str] = set()
            cur: str | None = sid
            while cur is not None and cur not in done and cur not in on_path:
                path.append(cur)
                on_path.add(cur)
                cur = parent[cur]
            if cur is not None and cur in on_path:
                for member in path[path.index(cur):]:
                    parent[member] = None
            done.update(path)
        return parent

    def assign_lanes(self) -> None:
        """A step's lane: main at the top; under a top-level tool_call, that call's subagent lane;
        under anything else, its parent's lane (the map nests one level)."""
        parent = self.parents()
        for sid in parent:
            chain: list[str] = []
            cur: str | None = sid
            while cur is not None and cur not in self.lanes:
                chain.append(cur)
                cur = parent[cur]
            for step_id in reversed(chain):
                up = parent[step_id]
                if up is None:
                    self.lanes[step_id] = MAIN
                elif self.steps[up].get(STEP_TYPE) == "tool_call" and self.lanes[up] == MAIN:
                    lane = lane_id(up)
                    self.launchers.add(up)
                    self.s.lanes.setdefault(lane, Lane(lane, "subagent", launch_call=up))
                    self.lanes[step_id] = lane
                else:
                    self.lanes[step_id] = self.lanes[up]

    def read(self, run: dict[str, Any] | None, steps: list[Any]) -> None:
        start = epoch_ms(run.get(STARTED)) if run is not None else None
        if run is not None:
            rid = run.get(RUN_ID)
            if isinstance(rid, str) and rid:
                m = _RUN_ID.fullmatch(rid)
                self.s.native_id = m.group(1) if m else native_id(rid)
        self.s.first_seen = start
        self.last_t = start
        ordered: list[tuple[float, int, dict[str, Any]]] = []
        for i, step in enumerate(steps):
            if not _step_like(step):
                kind = step.get(STEP_TYPE) if isinstance(step, dict) else None
                self.skip(label("step", kind if isinstance(kind, str) else None))
                continue
            if step[STEP_ID] in self.steps:
                self.skip("<duplicate>")
                continue
            self.steps[step[STEP_ID]] = step
            t = epoch_ms(step.get(AT))
            if t is None:
                t = self.last_t
            else:
                self.last_t = t if self.last_t is None else max(self.last_t, t)
            if t is None:
                self.skip(label("step", step[STEP_TYPE]) + ":<no time>")
                continue
            ordered.append((t, i, step))
        if self.s.first_seen is None and ordered:
            self.s.first_seen = min(t for t, _, _ in ordered)
        self.assign_lanes()
        if run is not None:
            task = run.get(TASK)
            t0 = start if start is not None else self.s.first_seen
            if t0 is not None and (isinstance(task, str) and task or not ordered):
                self.add(UserTurn(t0, MAIN, len(task) if isinstance(task, str) else 0))
        ordered.sort(key=lambda item: (item[0], item[1]))
        for t, _, step in ordered:
            self.step(step, t)
        if run is not None and run.get(STATUS) == "failed" and not self.failed_step:
            end = epoch_ms(run.get(ENDED))
            self.add(ErrorFact(end if end is not None else (self.last_t or 0.0), MAIN, "orchestration",
                               "api_error"))

    def step(self, step: dict[str, Any], t: float) -> None:
        kind = step[STEP_TYPE]
        step_id = step[STEP_ID]
        lane = self.lanes.get(step_id, MAIN)
        usage = step.get(USAGE)
        error = step.get(ERROR)
        failed = error is not None and error is not False and error != ""
        self.failed_step = self.failed_step or failed
        if kind == "llm_call":
            fact = LlmResponse(t, lane, _model(step), inp=_usage(usage, IN_KEYS), cw=_usage(usage, CW_KEYS),
                               cr=_usage(usage, CR_KEYS), out=_usage(usage, OUT_KEYS), latency=_latency(usage),
                               text_chars=_text_chars(step.get(LLM_OUTPUT)),
                               tool_calls=_tool_calls(step.get(LLM_OUTPUT)))
            if not failed:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"  # not recorded: inferred
            self.add(fact)
            if failed:
                self.add(ErrorFact(t, lane, "llm", _llm_error_class(error if isinstance(error, str) else "")))
            return
        if kind == "tool_call":
            name = step.get(TOOL_NAME)
            call = toolnames.make_call(name if isinstance(name, str) and name else "unknown",
                                       step.get(TOOL_INPUT), step_id, t, lane)
            if step_id in self.launchers:
                call.kind, call.paths, call.command, call.argv = "subagent", (), None, None
        else:
            call = ToolCall(t, lane, step_id, kind, "tool")
        self.add(call)
        res = ToolResult(t, step_id, failed, out_bytes=_out_bytes(step.get(OUTPUT)), dur=_latency(usage))
        if failed:
            res.err_class = error_class(error if isinstance(error, str) else "", call.name)
            if call.kind == "subagent":
                res.err_class = "subagent_failed"
        self.add(res)


def _layout(data: bytes | BinaryIO, where: str, report: RedactionReport, skip_bad_lines: bool,
            stats: LineStats) -> tuple[dict[str, Any] | None, list[Any]]:
    raw = data if isinstance(data, (bytes, bytearray)) else data.read()
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        doc = None
    if sniff_doc(doc):
        assert isinstance(doc, dict)
        return (doc[RUN] if isinstance(doc.get(RUN), dict) else doc), list(doc[STEPS])
    run: dict[str, Any] | None = None
    steps: list[Any] = []
    for _, record in iter_objects(bytes(raw), where, skip_bad_lines=skip_bad_lines, stats=stats):
        if run is None and _run_like(record):
            run = record
        elif _step_like(record):
            steps.append(record)
        else:
            kind = record.get(STEP_TYPE)
            report.skipped_records[label("line", kind if isinstance(kind, str) else None)] += 1
    return run, steps


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    stats = LineStats()
    run, steps = _layout(data, where, report, skip_bad_lines, stats)
    reader = AgentReplayReader(report)
    reader.read(run, steps)
    if not reader.s.native_id:
        reader.s.native_id = fallback_id(data, file_stem)
    stats.warn_skipped(report)
    return reader.s
