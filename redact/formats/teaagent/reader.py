"""teaagent run audit logs (`.teaagent/runs/<run_id>.jsonl`, seed 003) -> facts.

The table is in `table.py`; the hash chain is verified while reading (`chain.py`)
and a broken chain is a warning in the report, never a crash. What the reader derives:

- the run's task is the one user turn (shape only);
- `model_request` / `model_response` pairs are llm events (input tokens from the request, output
  tokens and stop reason from the response); the cumulative `cost_checkpoint` and `run_end` totals
  are not used (never both);
- tool calls pair with `tool_result` / `tool_error` / `approval_denied` by `call_id` (at audit
  level L0 there is none: a result then pairs with the oldest open call);
- paths in tool arguments are workspace-relative: they are placed under the workspace root (which
  the log does not name, so the map's repository has no name).
"""
from __future__ import annotations

from collections import deque
from typing import Any, BinaryIO

from redact.build import outputs
from redact.build.facts import (
    MAIN, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats import toolnames
from redact.formats.common import (
    LogClock, as_float, as_int, byte_len, epoch_ms, session_id, is_model_name, label, positive_int,
    safe_name,
)
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.teaagent.chain import ChainCheck
from redact.formats.teaagent.keys import (
    ARGUMENTS, CALL_ID, CALLS_REQUESTED, CREATED_AT, ELAPSED_MS, END_STATUS, ERROR_MESSAGE, ERROR_TYPE, EVENT_TYPE,
    EXIT_CODE, INPUT_TOKENS, OUTPUT_KEYS, OUTPUT_TOKENS, PAYLOAD, REQUEST_MODEL, RESULT, RETURNCODE, RUN_ID,
    SETTLED_CALL, START_MODEL, STOP_REASON, SUCCESS, TASK, TOOL_NAME,
)
from redact.formats.teaagent.native_table import ERROR_TYPES, EVENT_TYPES, RUN_END
from redact.formats.teaagent.table import PLACEHOLDERS
from redact.formats.wording import error_class
from redact.report import RedactionReport

FORMAT = "teaagent"
AGENT_TOOL = "teaagent"
#: Stands for the workspace root, which the log does not name (never written: only paths relative to
#: it reach the map).
WORKSPACE = "/teaagent-workspace"


def _clean(value: object) -> object:
    """Arguments without the placeholders an audit level writes in place of values (the tool table
    reads top-level arguments only, so only they are cleaned)."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if not (isinstance(v, str) and v in PLACEHOLDERS)}
    return value


class TeaagentReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="", roots=(WORKSPACE,), cwd=WORKSPACE)
        self.stats = LineStats()
        self.chain = ChainCheck()
        self.run_id: str | None = None
        self.clock = LogClock(self.s)
        self.model: str | None = None
        self.calls: dict[str, ToolCall] = {}
        self.open: deque[str] = deque()  # calls without a result, oldest first
        self.results: dict[str, ToolResult] = {}
        self.request: LlmResponse | None = None
        self.anonymous = 0

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool = False) -> None:
        for lineno, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            self.chain.feed(lineno, record)
            self.record(record)

    def record(self, r: dict[str, Any]) -> None:
        kind = r.get(EVENT_TYPE)
        run = r.get(RUN_ID)
        if self.run_id is None and isinstance(run, str) and run:
            self.run_id = run
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.skip(label(kind) if isinstance(kind, str) else "<no event_type>")
            return
        t = self.clock.at(epoch_ms(r.get(CREATED_AT)))
        if t is None:
            self.skip(label(str(kind)) + ":<no time>")
            return
        payload = r.get(PAYLOAD)
        handler(self, payload if isinstance(payload, dict) else {}, t)

    # -- run ---------------------------------------------------------------------------------------
    def run_start(self, p: dict[str, Any], t: float) -> None:
        if is_model_name(p.get(START_MODEL)):
            self.model = p[START_MODEL]
        task = p.get(TASK)
        chars = len(task) if isinstance(task, str) and task not in PLACEHOLDERS else 0
        self.add(UserTurn(t, MAIN, chars))

    def run_end(self, p: dict[str, Any], t: float) -> None:
        status = p.get(END_STATUS)
        cls = RUN_END.get(status) if isinstance(status, str) else None
        if cls is not None:
            self.add(ErrorFact(t, MAIN, "orchestration", cls))

    # -- model -------------------------------------------------------------------------------------
    def model_request(self, p: dict[str, Any], t: float) -> None:
        model = p.get(REQUEST_MODEL) if is_model_name(p.get(REQUEST_MODEL)) else self.model
        self.request = LlmResponse(t, MAIN, model, inp=positive_int(p.get(INPUT_TOKENS)), latency=0.0)
        self.add(self.request)

    def model_response(self, p: dict[str, Any], t: float) -> None:
        fact = self.request
        if fact is None:
            fact = LlmResponse(t, MAIN, self.model)
            self.add(fact)
        else:
            fact.latency = max(t - fact.t, 0.0)
        self.request = None
        fact.out = positive_int(p.get(OUTPUT_TOKENS))
        stop = p.get(STOP_REASON)
        fact.stop = stop if safe_name(stop) else None
        fact.tool_calls = positive_int(p.get(CALLS_REQUESTED))

    # -- tools -------------------------------------------------------------------------------------
    def call_of(self, p: dict[str, Any]) -> ToolCall | None:
        call_id = p.get(SETTLED_CALL)
        if isinstance(call_id, str) and call_id:
            return self.calls.get(call_id)
        return self.calls.get(self.open[0]) if self.open else None

    def tool_call(self, p: dict[str, Any], t: float) -> None:
        call_id = p.get(CALL_ID)
        if not isinstance(call_id, str) or not call_id:
            self.anonymous += 1
            call_id = f"#{self.anonymous}"
        if call_id in self.calls:
            self.skip("<duplicate>")
            return
        name = p.get(TOOL_NAME)
        name = name if isinstance(name, str) and name else "unknown"
        call = toolnames.make_call(name, _clean(p.get(ARGUMENTS)), call_id, t, MAIN)
        if call.kind in ("read", "edit"):
            call.paths = tuple(path if path.startswith(("/", "~", "\\")) or path[1:2] == ":"
                               else WORKSPACE + "/" + path for path in call.paths)
        self.calls[call_id] = call
        self.open.append(call_id)
        self.add(call)

    def settle(self, call: ToolCall, res: ToolResult) -> None:
        self.results[call.call_id] = res
        if call.call_id in self.open:
            self.open.remove(call.call_id)
        self.add(res)

    def tool_result(self, p: dict[str, Any], t: float) -> None:
        call = self.call_of(p)
        if call is None or call.call_id in self.results:
            self.skip("<tool_result without call>" if call is None else "<duplicate>")
            return
        result = p.get(RESULT)
        result = result if isinstance(result, dict) else {}
        texts = [v for k in OUTPUT_KEYS if isinstance(v := result.get(k), str) and v not in PLACEHOLDERS]
        res = ToolResult(t, call.call_id, result.get(SUCCESS) is False, out_bytes=sum(map(byte_len, texts)))
        code = as_int(result.get(EXIT_CODE, result.get(RETURNCODE)))
        if call.kind == "exec" and code is not None:
            res.exit_code = code
            if code != 0:
                res.is_error = True
        if res.is_error:
            res.err_class = "exit_code" if res.exit_code not in (None, 0) else "other"
        ms = as_float(p.get(ELAPSED_MS))
        res.dur = ms if ms is not None and ms >= 0 else None
        if call.kind == "exec":
            res.outputs = outputs.shell_outputs(call.command or "", "\n".join(texts), res.is_error)
        self.settle(call, res)

    def tool_error(self, p: dict[str, Any], t: float) -> None:
        call = self.call_of(p)
        if call is None or call.call_id in self.results:
            self.skip("<tool_error without call>" if call is None else "<duplicate>")
            return
        kind = p.get(ERROR_TYPE)
        cls = ERROR_TYPES.get(kind.lower()) if isinstance(kind, str) else None
        if cls is None:
            message = p.get(ERROR_MESSAGE)
            cls = error_class(message, call.name) if isinstance(message, str) else "other"
        self.settle(call, ToolResult(t, call.call_id, True, err_class=cls))

    def approval_request(self, p: dict[str, Any], t: float) -> None:
        call = self.call_of(p)
        if call is not None:
            call.waits_on_user = True  # its duration includes the user's decision

    def approval_granted(self, p: dict[str, Any], t: float) -> None:
        return

    def approval_denied(self, p: dict[str, Any], t: float) -> None:
        call = self.call_of(p)
        if call is not None and call.call_id not in self.results:
            call.waits_on_user = True
            self.settle(call, ToolResult(t, call.call_id, True, err_class="permission_denied"))

    # -- end ---------------------------------------------------------------------------------------
    def finish(self, where: str, stem: str | None, data: bytes | BinaryIO) -> SessionFacts:
        s = self.s
        for fact in s.facts:
            if isinstance(fact, LlmResponse) and fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"
        s.native_id = session_id(self.run_id, data, stem)
        self.chain.report_to(self.report)
        self.stats.warn_skipped(self.report)
        return s


#: The handler of each event type the table maps (`EVENT_TYPES`, read off the tree): the method of that
#: name (a mapped type without one fails the import).
_HANDLERS: dict[str, Any] = {kind: getattr(TeaagentReader, kind) for kind, how in EVENT_TYPES.items() if how == "mapped"}


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = TeaagentReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(where, file_stem, data)
