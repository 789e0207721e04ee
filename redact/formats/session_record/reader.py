"""Agent session-record streams (seed 002) -> facts.

The table is in `table.py`. What the reader derives, and how:

- **Prompts**: a `message` of role user written by a human (`author: human`, or no author with
  `origin: prompt`); a harness-injected message is not a prompt.
- **Model calls**: one `llm` event per `inference` record (never synthesized from message
  boundaries); assistant messages and tool calls that carry its `inferenceId` give it `textChars`,
  `thinking` and `toolCalls`. Usage comes from the inference records, or, when none carries usage,
  from the session's `usage_summary` (put on the last inference, or one event of its own when there
  is none): never both.
- **Tool calls** pair with `tool_result` by `callId`. A call without a result is dangling: its outcome
  is unknown and the map says so (`err`, `no_result`), never success.
- **Edits**: `file_change` records caused by a call give that call its targets (paths relative to a
  workspace root); a human's change is not the agent's and is skipped.
- **Commits** come from `vcs` records only when they carry evidence, and are attached to the call
  that caused them; with the `coding` profile claimed, tool output is not read for commits.
"""
from __future__ import annotations

from functools import cache
from typing import Any, BinaryIO

from redact.build import outputs
from redact.build.facts import (
    MAIN, Commit, Compaction, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats import toolnames
from redact.formats.claude_code.tools import error_class
from redact.formats.common import (
    as_float, as_int, byte_len, count_urls, epoch_ms, is_model_name, label, native_id, positive_int,
    safe_name,
)
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.session_record.native_table import CALL_KINDS, FILE_OPS, RECORD_TYPES, RESULT_STATUS
from redact.formats.session_record.table import COMMIT_EVIDENCE
from redact.report import RedactionReport
from redact.roots import choose_roots, evidence_in, repo_name

FORMAT = "session-record"
_SHA = frozenset("0123456789abcdef")
_INTERRUPTED = frozenset({"interrupted", "cancelled", "canceled", "aborted"})


@cache
def _agent_tools() -> frozenset[str]:
    from redact.policy.load import shipped_allowlists

    found = shipped_allowlists().get("agent_tool")
    return frozenset(found.values) if found is not None else frozenset()


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
            kind = part.get("type")
            text = part.get("text")
            if kind in ("reasoning", "thinking"):
                reasoning = True
            elif kind in ("image", "input_image"):
                images += 1
            elif isinstance(text, str):
                chars += len(text)
                urls += count_urls(text)
    return chars, images, urls, reasoning


class SessionRecordReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool="other", native_id="")
        self.stats = LineStats()
        self.native: str | None = None
        self.roots: dict[str, str] = {}
        self.root_git: dict[str, bool] = {}  # each root path: whether its header names a vcs
        self.first_remote: str | None = None
        self.last_t: float | None = None
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
        self.header = False

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool = False) -> None:
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            self.record(record)

    def record(self, r: dict[str, Any]) -> None:
        kind = r.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.skip(label(kind) if isinstance(kind, str) else "<no type>")
            return
        t = epoch_ms(r.get("ts"))
        if t is None:
            t = self.last_t
        else:
            self.last_t = t
            if self.s.first_seen is None:
                self.s.first_seen = t
        if t is None and kind != "session":
            self.skip(label(str(kind)) + ":<no time>")
            return
        handler(self, r, t)

    # -- header ------------------------------------------------------------------------------------
    def session(self, r: dict[str, Any], t: float | None) -> None:
        if self.header:
            self.skip("session:repeat")
            return
        self.header = True
        sid = r.get("sessionId")
        if isinstance(sid, str) and sid:
            self.native = sid
        agent = r.get("agent")
        name = agent.get("name") if isinstance(agent, dict) else None
        if isinstance(name, str) and name in _agent_tools():
            self.s.agent_tool = name
        start = epoch_ms(r.get("startedAt"))
        if start is not None:
            self.s.first_seen = start if self.s.first_seen is None else min(start, self.s.first_seen)
            if self.last_t is None:
                self.last_t = start
        lineage = r.get("lineage")
        if isinstance(lineage, dict):
            parent = lineage.get("parent")
            if lineage.get("root") is True:
                self.s.role = "root"
            elif parent is not None:
                self.s.role = "subagent"
                pid = parent.get("sessionId") if isinstance(parent, dict) else parent
                if isinstance(pid, str) and pid:
                    self.s.parent_native_id = native_id(pid)
            else:
                self.s.role = "unknown"
        else:
            self.s.role = "unknown"  # an absent lineage means unknown, not root (seed 002)
        profiles = r.get("profiles")
        self.coding = isinstance(profiles, list) and "coding" in profiles
        workspace = r.get("workspace")
        roots = workspace.get("roots") if isinstance(workspace, dict) else None
        first_remote: str | None = None
        for i, root in enumerate(roots if isinstance(roots, list) else []):
            if not isinstance(root, dict) or not isinstance(root.get("path"), str) or not root["path"]:
                continue
            rid = root.get("id")
            self.roots[rid if isinstance(rid, str) else f"#{i}"] = root["path"]
            vcs = root.get("vcs")
            self.root_git[root["path"]] = isinstance(vcs, dict) and bool(vcs)
            remote = vcs.get("remote") if isinstance(vcs, dict) else None
            if first_remote is None and isinstance(remote, str) and remote:
                first_remote = remote
        self.first_remote = first_remote

    def settle_roots(self) -> None:
        """The header's roots that are repositories on evidence (`redact.roots`): a root's `vcs`,
        or what the session's facts show."""
        git_roots = evidence_in(self.s)
        kept: list[str] = []
        for path, git in self.root_git.items():
            for root in choose_roots((path,), git=git, git_roots=git_roots):
                if root not in kept:
                    kept.append(root)
        self.s.roots = tuple(kept)
        if kept:
            self.s.cwd = kept[0]
            self.s.repo_name = repo_name(self.s.roots)
            self.s.remote = self.first_remote

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
        role, author, origin = r.get("role"), r.get("author"), r.get("origin")
        chars, images, urls, reasoning = _content(r.get("content"))
        if role == "user":
            human = author == "human" or (author is None and origin in (None, "prompt"))
            if human and (chars or images):
                self.add(UserTurn(t, MAIN, chars, images, urls))
            return
        if role == "assistant":
            inf = r.get("inferenceId")
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
        model = r.get("model")
        mid = model.get("id") if isinstance(model, dict) else model
        fact = LlmResponse(t, MAIN, mid if is_model_name(mid) else None)
        usage = r.get("usage")
        if isinstance(usage, dict):
            tokens = _usage(usage)
            fact.inp, fact.cr, fact.cw, fact.out = tokens
            self.metered = self.metered or any(tokens)
        latency = r.get("latency")
        ms = as_float(latency.get("durationMs")) if isinstance(latency, dict) else None
        fact.latency = ms if ms is not None and ms >= 0 else None
        stop = r.get("stopReason")
        fact.stop = stop if safe_name(stop) else None
        self.add(fact)
        inf = r.get("inferenceId")
        if isinstance(inf, str) and inf:
            self.inferences.setdefault(inf, fact)
            for chars, thinking, calls in self.early.pop(inf, []):
                self.to_inference(inf, chars, thinking, calls)

    def usage_summary(self, r: dict[str, Any], t: float) -> None:
        usage = r.get("usage")
        if r.get("scope") not in (None, "session") or not isinstance(usage, dict):
            self.skip("usage_summary:<not session>")
            return
        self.summary = (t, _usage(usage))  # cumulative: the last one holds the whole session

    # -- tools -------------------------------------------------------------------------------------
    def tool_call(self, r: dict[str, Any], t: float) -> None:
        call_id, name = r.get("callId"), r.get("name")
        if not isinstance(call_id, str) or not call_id or call_id in self.calls:
            self.skip("<duplicate>" if isinstance(call_id, str) and call_id else "<call without id>")
            return
        name = name if isinstance(name, str) and name else "unknown"
        kind = r.get("kind")
        hint = CALL_KINDS.get(kind) if isinstance(kind, str) else None
        call = toolnames.make_call(name, r.get("input"), call_id, t, MAIN, kind_hint=hint)
        if kind == "delete" and call.kind == "edit":
            call.op = "delete"
        self.calls[call_id] = call
        self.add(call)
        inf = r.get("inferenceId")
        if isinstance(inf, str):
            self.to_inference(inf, 0, False, 1)

    def tool_result(self, r: dict[str, Any], t: float) -> None:
        call_id = r.get("callId")
        call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None or call.call_id in self.results:
            self.skip("<tool_result without call>" if call is None else "<duplicate>")
            return
        content = r.get("content")
        text = "\n".join(p["text"] for p in (content if isinstance(content, list) else [])
                         if isinstance(p, dict) and isinstance(p.get("text"), str))
        status = r.get("status")
        failed, cls = RESULT_STATUS.get(status, (False, None)) if isinstance(status, str) else (False, None)
        res = ToolResult(t, call.call_id, failed, out_bytes=byte_len(text))
        exec_ = r.get("exec")
        if isinstance(exec_, dict):
            code = exec_.get("exitCode")
            res.exit_code = as_int(code)
            command = exec_.get("command")
            if call.kind == "exec" and isinstance(command, str):
                call.command, call.argv = command, None
            elif call.kind == "exec" and isinstance(command, list) and \
                    all(isinstance(w, str) for w in command):
                call.argv = tuple(command)
        dur = as_float(r.get("durationMs"))
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
        cause = r.get("cause")
        cause = cause if isinstance(cause, dict) else {}
        call_id = cause.get("callId")
        if not isinstance(call_id, str):
            self.skip("file_change:human" if cause.get("actor") == "human" else "file_change:<no cause>")
            return
        if r.get("status") not in ("applied", None):
            self.skip(label("file_change", r.get("status")))
            return
        paths: list[str] = []
        ops: list[str | None] = []
        changes = r.get("changes")
        for change in changes if isinstance(changes, list) else []:
            if not isinstance(change, dict):
                continue
            raw = self.place(change.get("root"), change.get("path"))
            if raw is None:
                continue
            op_name = change.get("op")
            op = FILE_OPS.get(op_name) if isinstance(op_name, str) else None
            old = self.place(change.get("root"), change.get("from"))
            if op == "rename-to" and old is not None:
                paths.append(old)
                ops.append("rename-from")
            paths.append(raw)
            ops.append(op)
        if paths:
            self.pending_changes.append((call_id, tuple(paths), tuple(ops)))

    def vcs(self, r: dict[str, Any], t: float) -> None:
        sha = r.get("commit")
        cause = r.get("cause")
        call_id = cause.get("callId") if isinstance(cause, dict) else None
        if r.get("action") != "commit":
            self.skip(label("vcs", r.get("action") if isinstance(r.get("action"), str) else None))
            return
        evidence = r.get("evidence")
        if not isinstance(evidence, str) or evidence not in COMMIT_EVIDENCE or not isinstance(sha, str) or \
                not 7 <= len(sha) <= 64 or not set(sha) <= _SHA or not isinstance(call_id, str):
            self.skip("vcs:commit-without-evidence")
            return
        self.pending_commits.append((call_id, Commit(sha=sha)))

    def state(self, r: dict[str, Any], t: float) -> None:
        state = r.get("state")
        if isinstance(state, str) and state in _INTERRUPTED:
            self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))
        else:
            self.skip("state")

    def compaction(self, r: dict[str, Any], t: float) -> None:
        trigger = r.get("trigger")
        self.add(Compaction(t, MAIN, trigger if trigger in ("auto", "manual") else None))

    # -- end ---------------------------------------------------------------------------------------
    def finish(self, where: str, fallback_id: str | None) -> SessionFacts:
        s = self.s
        for call_id, paths, ops in self.pending_changes:
            call = self.calls.get(call_id)
            if call is None or call.kind != "edit":
                self.skip("file_change:<not an edit call>")
                continue
            if call_id not in self.changed:  # the record states the effect: it replaces the input's path
                self.changed.add(call_id)
                call.paths, call.path_ops = (), ()
            call.paths += paths
            call.path_ops += ops
        for call_id, commit in self.pending_commits:
            res = self.results.get(call_id)
            if res is None or res.is_error:
                self.skip("vcs:commit-without-result")
                continue
            res.outputs.append(commit)
        for inf in self.early:
            self.skip("message:<inference not recorded>")
        llm = [f for f in s.facts if isinstance(f, LlmResponse)]
        if self.summary is not None:
            if self.metered:
                self.skip("usage_summary:<per-call usage used>")
            elif llm:
                llm[-1].inp, llm[-1].cr, llm[-1].cw, llm[-1].out = self.summary[1]
            else:  # one event for the whole session, at its first event (the summary's own time
                # is when it was reported, and an event there would make a stall of the wait)
                first = min((f.t for f in s.facts if not isinstance(f, ToolResult)), default=self.summary[0])
                fact = LlmResponse(first, MAIN, None)
                fact.inp, fact.cr, fact.cw, fact.out = self.summary[1]
                s.facts.append(fact)
        for fact in llm:
            if fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"
        s.native_id = native_id(self.native or fallback_id or where)
        self.settle_roots()
        if not self.header:
            self.report.warn("the stream has no session header; its roots and id are unknown")
        self.stats.warn_skipped(self.report)
        return s


def _usage(usage: dict[str, Any]) -> tuple[int, int, int, int]:
    """(fresh input, cache read, cache write, output) of a usage object."""
    inp = usage.get("input")
    out = usage.get("output")
    inp = inp if isinstance(inp, dict) else {}
    out = out if isinstance(out, dict) else {}
    return (positive_int(inp.get("uncached")), positive_int(inp.get("cacheRead")),
            positive_int(inp.get("cacheWrite")), positive_int(out.get("total")))


_HANDLERS: dict[str, Any] = {
    "session": SessionRecordReader.session,
    "message": SessionRecordReader.message,
    "inference": SessionRecordReader.inference,
    "tool_call": SessionRecordReader.tool_call,
    "tool_result": SessionRecordReader.tool_result,
    "file_change": SessionRecordReader.file_change,
    "vcs": SessionRecordReader.vcs,
    "state": SessionRecordReader.state,
    "usage_summary": SessionRecordReader.usage_summary,
    "compaction": SessionRecordReader.compaction,
}
assert set(_HANDLERS) == {k for k, v in RECORD_TYPES.items() if v == "mapped"}


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = SessionRecordReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(where, file_stem)
