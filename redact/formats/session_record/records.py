"""Agent session-record streams (seed 002): what each mapped record type other than the `session`
header adds to the session (the rules: `reader.py`'s docstring).

`RecordReader` holds the handlers and the state they share; `reader.py`'s `SessionRecordReader`
adds the header, the dispatch by record type and the end of the stream, and is the class callers use.
"""
from __future__ import annotations

from typing import Any

from redact.build import outputs
from redact.build.facts import (
    MAIN, Commit, Compaction, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats import toolnames
from redact.formats.common import (
    LogClock, as_float, as_int, byte_len, count_urls, is_model_name, label, positive_int,
    safe_name,
)
from redact.formats.session_record.keys import (
    AUTHOR, CACHE_READ, CACHE_WRITE, CALL_ID, CALL_INFERENCE, CALL_INPUT, CALL_KIND, CALL_NAME, CAUSE, CAUSE_ACTOR,
    CAUSE_CALL, CHANGE_FROM, CHANGE_OP, CHANGE_PATH, CHANGE_ROOT, CHANGE_STATUS, CHANGES, CONTENT, DURATION_MS,
    EXEC, EXEC_COMMAND, EXIT_CODE, INFERENCE_ID, LATENCY, MESSAGE_INFERENCE, MODEL, MODEL_ID, ORIGIN, OUTPUT_TOTAL,
    PART_TEXT, PART_TYPE, RESULT_CALL, RESULT_CONTENT, RESULT_DURATION, RESULT_STATUS_KEY, RESULT_TEXT, ROLE,
    STATE, STOP_REASON, SUMMARY_SCOPE, SUMMARY_USAGE, TRIGGER, UNCACHED, USAGE, USAGE_INPUT, USAGE_OUTPUT,
    VCS_ACTION, VCS_CAUSE, VCS_CAUSE_CALL, VCS_COMMIT, VCS_EVIDENCE,
)
from redact.formats.session_record.native_table import (
    CALL_KINDS, COMMIT_EVIDENCE, FILE_OPS, INTERRUPTED_STATES, RESULT_STATUS,
)
from redact.formats.wording import error_class
from redact.report import RedactionReport

_SHA = frozenset("0123456789abcdef")


def _content(content: object) -> tuple[int, int, int, bool]:
    """(text chars, images, urls, has reasoning) of a message's content parts."""
    chars = images = urls = 0
    reasoning = False
    parts = content if isinstance(content, list) else [content]
    for part in parts:
        if isinstance(part, str):
            chars += len(part)
            urls += count_urls(part)
        elif isinstance(part, dict):
            kind = part.get(PART_TYPE)
            text = part.get(PART_TEXT)
            if kind in ("reasoning", "thinking"):
                reasoning = True
            elif kind in ("image", "input_image"):
                images += 1
            elif isinstance(text, str):
                chars += len(text)
                urls += count_urls(text)
    return chars, images, urls, reasoning


def _usage(usage: dict[str, Any]) -> tuple[int, int, int, int]:
    """(fresh input, cache read, cache write, output) of a usage object."""
    inp = usage.get(USAGE_INPUT)
    out = usage.get(USAGE_OUTPUT)
    inp = inp if isinstance(inp, dict) else {}
    out = out if isinstance(out, dict) else {}
    return (positive_int(inp.get(UNCACHED)), positive_int(inp.get(CACHE_READ)),
            positive_int(inp.get(CACHE_WRITE)), positive_int(out.get(OUTPUT_TOTAL)))


class RecordReader:
    """The record handlers of one stream, and the state they share."""

    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool="other", native_id="")
        self.roots: dict[str, str] = {}
        self.clock = LogClock(self.s)
        self.calls: dict[str, ToolCall] = {}
        self.results: dict[str, ToolResult] = {}
        self.inferences: dict[str, LlmResponse] = {}
        self.early: dict[str, list[tuple[int, bool, int]]] = {}  # inference id -> (chars, thinking, calls)
        self.metered = False
        self.summary: tuple[float, tuple[int, int, int, int]] | None = None
        self.coding = False
        self.changed: set[str] = set()
        self.pending_changes: list[tuple[str, tuple[str, ...], tuple[str | None, ...]]] = []
        self.pending_commits: list[tuple[str, Commit]] = []

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def place(self, root: object, path: object) -> str | None:
        """The raw path of a `{root, path}` location (root id + path relative to it)."""
        if not isinstance(path, str) or not path:
            return None
        base = self.roots.get(root) if isinstance(root, str) else None
        if base is None or path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
            return path
        return base.rstrip("/\\") + "/" + path

    # -- conversation ------------------------------------------------------------------------------
    def message(self, r: dict[str, Any], t: float) -> None:
        role, author, origin = r.get(ROLE), r.get(AUTHOR), r.get(ORIGIN)
        chars, images, urls, reasoning = _content(r.get(CONTENT))
        if role == "user":
            human = author == "human" or (author is None and origin in (None, "prompt"))
            if human and (chars or images):
                self.add(UserTurn(t, MAIN, chars, images, urls))
            return
        if role == "assistant":
            inf = r.get(MESSAGE_INFERENCE)
            if isinstance(inf, str):
                self.to_inference(inf, chars, reasoning, 0)

    def to_inference(self, inf: str, chars: int, thinking: bool, calls: int) -> None:
        fact = self.inferences.get(inf)
        if fact is None:
            self.early.setdefault(inf, []).append((chars, thinking, calls))
            return
        fact.text_chars += chars
        fact.thinking = fact.thinking or thinking
        fact.tool_calls += calls

    def inference(self, r: dict[str, Any], t: float) -> None:
        model = r.get(MODEL)
        mid = model.get(MODEL_ID) if isinstance(model, dict) else model
        fact = LlmResponse(t, MAIN, mid if is_model_name(mid) else None)
        usage = r.get(USAGE)
        if isinstance(usage, dict):
            tokens = _usage(usage)
            fact.inp, fact.cr, fact.cw, fact.out = tokens
            self.metered = self.metered or any(tokens)
        latency = r.get(LATENCY)
        ms = as_float(latency.get(DURATION_MS)) if isinstance(latency, dict) else None
        fact.latency = ms if ms is not None and ms >= 0 else None
        stop = r.get(STOP_REASON)
        fact.stop = stop if safe_name(stop) else None
        self.add(fact)
        inf = r.get(INFERENCE_ID)
        if isinstance(inf, str) and inf:
            self.inferences.setdefault(inf, fact)
            for chars, thinking, calls in self.early.pop(inf, []):
                self.to_inference(inf, chars, thinking, calls)

    def usage_summary(self, r: dict[str, Any], t: float) -> None:
        usage = r.get(SUMMARY_USAGE)
        if r.get(SUMMARY_SCOPE) not in (None, "session") or not isinstance(usage, dict):
            self.skip("usage_summary:<not session>")
            return
        self.summary = (t, _usage(usage))  # cumulative: the last one holds the whole session

    # -- tools -------------------------------------------------------------------------------------
    def tool_call(self, r: dict[str, Any], t: float) -> None:
        call_id, name = r.get(CALL_ID), r.get(CALL_NAME)
        if not isinstance(call_id, str) or not call_id or call_id in self.calls:
            self.skip("<duplicate>" if isinstance(call_id, str) and call_id else "<call without id>")
            return
        name = name if isinstance(name, str) and name else "unknown"
        kind = r.get(CALL_KIND)
        hint = CALL_KINDS.get(kind) if isinstance(kind, str) else None
        call = toolnames.make_call(name, r.get(CALL_INPUT), call_id, t, MAIN, kind_hint=hint)
        if kind == "delete" and call.kind == "edit":
            call.op = "delete"
        self.calls[call_id] = call
        self.add(call)
        inf = r.get(CALL_INFERENCE)
        if isinstance(inf, str):
            self.to_inference(inf, 0, False, 1)

    def tool_result(self, r: dict[str, Any], t: float) -> None:
        call_id = r.get(RESULT_CALL)
        call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None or call.call_id in self.results:
            self.skip("<tool_result without call>" if call is None else "<duplicate>")
            return
        content = r.get(RESULT_CONTENT)
        text = "\n".join(p[RESULT_TEXT] for p in (content if isinstance(content, list) else [])
                         if isinstance(p, dict) and isinstance(p.get(RESULT_TEXT), str))
        status = r.get(RESULT_STATUS_KEY)
        failed, cls = RESULT_STATUS.get(status, (False, None)) if isinstance(status, str) else (False, None)
        res = ToolResult(t, call.call_id, failed, out_bytes=byte_len(text))
        exec_ = r.get(EXEC)
        if isinstance(exec_, dict):
            code = exec_.get(EXIT_CODE)
            res.exit_code = as_int(code)
            command = exec_.get(EXEC_COMMAND)
            if call.kind == "exec" and isinstance(command, str):
                call.command, call.argv = command, None
            elif call.kind == "exec" and isinstance(command, list) and \
                    all(isinstance(w, str) for w in command):
                call.argv = tuple(command)
        dur = as_float(r.get(RESULT_DURATION))
        res.dur = dur if dur is not None and dur >= 0 else None
        if failed:
            if cls is None:
                cls = "exit_code" if res.exit_code not in (None, 0) else error_class(text, call.name)
            res.err_class = cls
        if call.kind == "exec":
            found = outputs.shell_outputs(call.command or " ".join(call.argv or ()), text, res.is_error)
            res.outputs = [o for o in found if not (self.coding and isinstance(o, Commit))]
        elif call.kind == "mcp":
            res.outputs = outputs.mcp_outputs(call.tool or "", text, res.is_error)
        self.results[call.call_id] = res
        self.add(res)

    def file_change(self, r: dict[str, Any], t: float) -> None:
        cause = r.get(CAUSE)
        cause = cause if isinstance(cause, dict) else {}
        call_id = cause.get(CAUSE_CALL)
        if not isinstance(call_id, str):
            self.skip("file_change:human" if cause.get(CAUSE_ACTOR) == "human" else "file_change:<no cause>")
            return
        if r.get(CHANGE_STATUS) not in ("applied", None):
            self.skip(label("file_change", r.get(CHANGE_STATUS)))
            return
        paths: list[str] = []
        ops: list[str | None] = []
        changes = r.get(CHANGES)
        for change in changes if isinstance(changes, list) else []:
            if not isinstance(change, dict):
                continue
            raw = self.place(change.get(CHANGE_ROOT), change.get(CHANGE_PATH))
            if raw is None:
                continue
            op_name = change.get(CHANGE_OP)
            op = FILE_OPS.get(op_name) if isinstance(op_name, str) else None
            old = self.place(change.get(CHANGE_ROOT), change.get(CHANGE_FROM))
            if op == "rename-to" and old is not None:
                paths.append(old)
                ops.append("rename-from")
            paths.append(raw)
            ops.append(op)
        if paths:
            self.pending_changes.append((call_id, tuple(paths), tuple(ops)))

    def vcs(self, r: dict[str, Any], t: float) -> None:
        sha = r.get(VCS_COMMIT)
        cause = r.get(VCS_CAUSE)
        call_id = cause.get(VCS_CAUSE_CALL) if isinstance(cause, dict) else None
        if r.get(VCS_ACTION) != "commit":
            self.skip(label("vcs", r.get(VCS_ACTION) if isinstance(r.get(VCS_ACTION), str) else None))
            return
        evidence = r.get(VCS_EVIDENCE)
        if not isinstance(evidence, str) or evidence not in COMMIT_EVIDENCE or not isinstance(sha, str) or \
                not 7 <= len(sha) <= 64 or not set(sha) <= _SHA or not isinstance(call_id, str):
            self.skip("vcs:commit-without-evidence")
            return
        self.pending_commits.append((call_id, Commit(sha=sha)))

    def state(self, r: dict[str, Any], t: float) -> None:
        state = r.get(STATE)
        if isinstance(state, str) and state in INTERRUPTED_STATES:
            self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))
        else:
            self.skip("state")

    def compaction(self, r: dict[str, Any], t: float) -> None:
        trigger = r.get(TRIGGER)
        self.add(Compaction(t, MAIN, trigger if trigger in ("auto", "manual") else None))
