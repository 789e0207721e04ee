"""Facts -> internal events, and the file table.

`Ev` is the builder's working form of one map event: absolute time, a sort key, the kind, the lane,
the output fields, and pointers to other events (resolved to seq numbers once the order is final).
`EventMaker` walks a session's facts in order and produces them, pairing each tool call with its
result. Paths are placed here, once, with `redact.apply.paths.locate`; nothing but a repo-relative path or
a bucket label leaves this module.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from redact.build import outputs, prices
from redact.build.facts import (
    Commit, Compaction, ErrorFact, LlmResponse, PrAction, SessionFacts, SkillWrite, Ticket,
    ToolCall, ToolResult, UserTurn,
)
from redact.build.filetable import FileTable

CALL_KINDS = frozenset({"read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web",
                        "tool"})
FILE_KINDS = frozenset({"read", "search", "edit", "exec", "verify"})
MAX_TARGETS = 50  # targets kept on one event (a search can list thousands of files)
_STOPS = frozenset({"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal",
                    "model_context_window_exceeded"})
_TOOL_ERR = frozenset({
    "exit_code", "timeout", "not_found", "validation", "needs_approval", "permission_denied", "blocked",
    "browser", "patch_failed", "stale_file", "model_unavailable", "rate_limit", "api_error",
    "interrupted", "no_result", "subagent_failed", "subagent_killed", "other",
})

Hasher = Callable[[str], str]
#: A path whose last segment has an extension (`src/a.py`, `.env.local`): a file, not a folder.
_FILE_LIKE = re.compile(r"[^/\\]\.[A-Za-z0-9_-]{1,12}$|^\.[^/\\.]+\.[A-Za-z0-9_-]{1,12}$")


def num(x: float) -> float | int:
    """A time or duration for output: milliseconds, integral when it is (3 decimals at most)."""
    i = int(x)
    if i == x:
        return i
    r = round(x, 3)
    return int(r) if r == int(r) else r


@dataclass(slots=True, eq=False)
class Ev:
    t: float  # absolute epoch ms until the builder makes it relative
    key: tuple[float, int, int]  # sort key: (t, fact index, sub-order)
    kind: str
    agent: str
    f: dict[str, Any] = field(default_factory=dict)  # output fields besides the common ones
    err: bool = False
    err_class: str | None = None
    model: str | None = None
    dur: float | None = None  # tool duration or model latency, for delays and lane ends
    refs: dict[str, "Ev"] = field(default_factory=dict)  # retryOf, ref -> seq at the end
    targets: list[tuple[str, str, str | None]] = field(default_factory=list)  # (rel|"@label", touch, op)
    sig: tuple[Any, ...] | None = None  # what a retry must repeat
    call_id: str | None = None
    waits_on_user: bool = False
    seq: int = -1
    task: int | None = None
    attempt: int | None = None


class EventMaker:
    def __init__(self, session: SessionFacts, hasher: Hasher | None, vocab: Any = None) -> None:
        self.session = session
        self.hasher = hasher
        self.vocab = vocab
        self.files = FileTable(session.roots, session.cwd, tuple(r.roots for r in session.more_repos),
                               session.rootless_repo)
        self.events: list[Ev] = []
        self.calls: dict[str, Ev] = {}
        self.lane_model: dict[str, str] = {}
        self.child_of_call: dict[str, str] = {
            lane.launch_call: lane.id for lane in session.lanes.values() if lane.launch_call
        }
        self.prs: list[tuple[PrAction, Ev]] = []
        self._verbs: dict[str | tuple[str, ...], Any] = {}
        self._pending_errors: list[tuple[ErrorFact, Ev]] = []
        self._sub: dict[int, int] = {}

    # -- helpers -----------------------------------------------------------------------------------
    def verb(self, command: str | tuple[str, ...]) -> Any:
        """The verb of a command line, or of an argv array (`bash -lc SCRIPT` is seen through)."""
        found = self._verbs.get(command)
        if found is None:
            from redact.verbs import extract, extract_argv

            if isinstance(command, tuple):
                found = extract_argv(command, hasher=self.hasher, vocab=self.vocab)
            else:
                found = extract(command, hasher=self.hasher, vocab=self.vocab)
            self._verbs[command] = found
        return found

    def operands(self, command: str | tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        from redact.verbs import operands

        found: tuple[tuple[str, str], ...] = operands(command, vocab=self.vocab)
        return found

    def add(self, ev: Ev) -> Ev:
        self.events.append(ev)
        return ev

    # -- the walk ----------------------------------------------------------------------------------
    def run(self) -> list[Ev]:
        facts = self.session.facts
        results: dict[str, ToolResult] = {}
        for fact in facts:
            if isinstance(fact, ToolResult) and fact.call_id not in results:
                results[fact.call_id] = fact
        for i, fact in enumerate(facts):
            if isinstance(fact, ToolCall):
                if fact.call_id not in self.calls:
                    self.tool(i, fact, results.get(fact.call_id))
            elif isinstance(fact, LlmResponse):
                self.llm(i, fact)
            elif isinstance(fact, UserTurn):
                if not fact.withdrawn:
                    self.add(Ev(fact.t, (fact.t, i, 1), "user", fact.agent,
                                {"chars": fact.chars, "images": fact.images, "urls": fact.urls}))
            elif isinstance(fact, ErrorFact):
                self.error(i, fact)
            elif isinstance(fact, Compaction):
                self.compaction(i, fact)
        for fact, ev in self._pending_errors:
            if fact.ref_call and fact.ref_call in self.calls:
                ev.refs["ref"] = self.calls[fact.ref_call]
        return self.events

    def _model(self, agent: str) -> str | None:
        return self.lane_model.get(agent)

    def llm(self, i: int, fact: LlmResponse) -> None:
        model = fact.model
        if model and not fact.aside:
            before = self.lane_model.get(fact.agent)
            if before is not None and before != model:
                self.add(Ev(fact.t, (fact.t, i, 0), "model_switch", fact.agent,
                            {"from": before, "to": model}, model=model))
            self.lane_model[fact.agent] = model
        f: dict[str, Any] = {"in": fact.inp, "cw": fact.cw, "cr": fact.cr, "out": fact.out}
        usd = prices.cost(model, fact.inp, fact.cw, fact.cr, fact.out)
        if usd is not None:
            f["cost"] = usd
        if fact.latency is not None:
            f["latency"] = num(max(fact.latency, 0.0))
        if fact.stop:
            f["stop"] = fact.stop if fact.stop in _STOPS else "other"
        f["thinking"] = fact.thinking
        f["toolCalls"] = fact.tool_calls
        f["textChars"] = fact.text_chars
        self.add(Ev(fact.t, (fact.t, i, 1), "llm", fact.agent, f, model=model,
                    dur=fact.latency if fact.latency is not None else None))

    def error(self, i: int, fact: ErrorFact) -> None:
        f: dict[str, Any] = {"source": fact.source, "errClass": fact.err_class}
        if fact.hook:
            f["hook"] = fact.hook
        if fact.hook_event:
            f["hookEvent"] = fact.hook_event
        if fact.src_uuid:
            f["srcUuid"] = fact.src_uuid
        if fact.retry is not None:
            f["retry"] = fact.retry
        ev = self.add(Ev(fact.t, (fact.t, i, 1), "error", fact.agent, f, err=True,
                         err_class=fact.err_class, model=self._model(fact.agent)))
        self._pending_errors.append((fact, ev))

    def compaction(self, i: int, fact: Compaction) -> None:
        f: dict[str, Any] = {}
        if fact.trigger:
            f["trigger"] = fact.trigger
        if fact.pre_tokens is not None:
            f["preTokens"] = fact.pre_tokens
        if fact.post_tokens is not None:
            f["postTokens"] = fact.post_tokens
        if fact.ms is not None:
            f["ms"] = num(fact.ms)
        self.add(Ev(fact.t, (fact.t, i, 1), "compaction", fact.agent, f, model=self._model(fact.agent)))

    # -- tool calls --------------------------------------------------------------------------------
    def tool(self, i: int, call: ToolCall, result: ToolResult | None) -> None:
        kind: str = call.kind
        f: dict[str, Any] = {}
        ev = Ev(call.t, (call.t, i, 1), kind, call.agent, f, model=self._model(call.agent),
                call_id=call.call_id, waits_on_user=call.waits_on_user)
        self.calls[call.call_id] = ev
        vcs: dict[str, Any] | None = None
        if kind == "exec":
            command: str | tuple[str, ...] = call.argv if call.argv is not None else (call.command or "")
            if call.shell == "powershell" and isinstance(command, str):
                command = ("powershell", "-Command", command)
            res = self.verb(command)
            f["tool"] = call.name
            f["verb"] = res.verb
            f["cat"] = res.cat
            if res.verify:
                ev.kind = kind = "verify"
            elif res.touch:
                ev.kind = kind = res.touch
                f["cat"] = "file"
                self._shell_targets(ev, self.operands(command), call.cwd)
            if res.vcs:
                vcs = dict(res.vcs)
            ev.sig = (call.name, res.verb)
        elif kind in ("read", "search", "edit"):
            f["tool"] = call.name
            f["cat"] = "file"
            touch = {"read": "read", "search": "hit", "edit": "edit"}[kind]
            op = (result.op if result is not None and result.op else None) or call.op
            for n, raw in enumerate(call.paths):
                if kind == "search":
                    continue  # a search's scope is a folder, not a file it touched
                path_op = call.path_ops[n] if n < len(call.path_ops) else None
                ev.targets.append((self.files.place(raw), touch,
                                   (path_op or op) if kind == "edit" else None))
        elif kind == "mcp":
            f["server"] = call.server
            f["tool"] = call.tool
            f["cat"] = "mcp"
            ev.sig = ("mcp", call.server, call.tool)
        elif kind == "skill":
            if call.skill:
                f["skill"] = call.skill
            f["cat"] = "skill"
            ev.sig = ("skill", call.skill)
        elif kind == "subagent":
            if call.subagent_type:
                f["subagentType"] = call.subagent_type
            child = (result.child if result is not None else None) or self.child_of_call.get(call.call_id)
            if child and child in self.session.lanes:
                f["child"] = child
            if call.subagent_model:
                ev.model = call.subagent_model  # the builder prefers the model the lane really used
            f["cat"] = "subagent"
            ev.sig = ("subagent", call.subagent_type)
        elif kind == "web":
            f["host"] = call.host or "search"
            f["cat"] = "web"
            ev.sig = ("web", call.host)
        else:
            f["tool"] = call.name
            f["cat"] = "tool"
            ev.sig = ("tool", call.name)
        if ev.sig is None:
            first = ev.targets[0][0] if ev.targets else None
            ev.sig = (call.name, first)
        self._result(i, ev, call, result, vcs)
        self.add(ev)

    def _shell_targets(self, ev: Ev, found: tuple[tuple[str, str], ...], base: str | None) -> None:
        """Targets of a read-only shell line (redact.verbs.files): the files it reads, and those a
        search names. A search's folder (`rg x src`, `ls lib`) is its scope, not a file it touched,
        as for the Grep tool: only an operand whose name has an extension is a hit."""
        seen: set[str] = set()
        for touch, raw in found:
            if touch == "search" and not _FILE_LIKE.search(raw):
                continue
            place = self.files.place(raw, base)
            if place in seen:
                continue
            seen.add(place)
            ev.targets.append((place, "read" if touch == "read" else "hit", None))
            if len(ev.targets) >= MAX_TARGETS:
                break

    def _result(self, i: int, ev: Ev, call: ToolCall, result: ToolResult | None,
                vcs: dict[str, Any] | None) -> None:
        f = ev.f
        if result is None:
            ev.err, ev.err_class = True, "no_result"
            if vcs is not None:
                f["vcs"] = vcs
            return
        ev.err = result.is_error
        if result.is_error:
            ev.err_class = result.err_class if result.err_class in _TOOL_ERR else "other"
        if result.exit_code is not None:
            f["exitCode"] = result.exit_code
        if result.out_bytes is not None:
            f["outBytes"] = result.out_bytes
        dur = result.dur if result.dur is not None else result.t - call.t if result.timed else -1.0
        if dur >= 0:  # a result the log gives no time of its own has no duration
            ev.dur = dur
            f["dur"] = num(dur)
        if ev.kind == "search":
            seen: set[str] = set()
            for raw in result.hits:
                place = self.files.place(raw)
                if place in seen:
                    continue
                seen.add(place)
                ev.targets.append((place, "hit", None))
                if len(ev.targets) >= MAX_TARGETS:
                    break
        if ev.kind == "edit" and not result.is_error:
            for raw in call.paths:
                write = outputs.skill_write(raw, result.op or call.op)
                if write is not None:
                    self._output(i, ev, result, write)
        for out in result.outputs:
            if isinstance(out, PrAction) and out.action == "create":
                vcs = dict(vcs or {"provider": out.provider})
                vcs["action"] = "pr_create"
                if out.number is not None:
                    vcs["number"] = out.number
                if out.repo:
                    vcs["repo"] = out.repo
            self._output(i, ev, result, out)
        if vcs is not None:
            if vcs.get("action") == "pr_create_attempt" and result.is_error:
                vcs["action"] = "pr_create_failed"
            f["vcs"] = vcs

    def _output(self, i: int, ev: Ev, result: ToolResult, out: Any) -> None:
        t = max(result.t, ev.t)
        sub = self._sub.get(i, 2)  # several outputs of one result keep their order
        self._sub[i] = sub + 1
        key = (t, i, sub)
        if isinstance(out, Commit):
            f: dict[str, Any] = {"sha": out.sha}
            if out.repo:
                f["repo"] = out.repo
            for name, value in (("files", out.files), ("ins", out.ins), ("del", out.dels)):
                if value is not None:
                    f[name] = value
            self.add(Ev(t, key, "commit", ev.agent, f, model=ev.model))
        elif isinstance(out, PrAction):
            if out.action == "create":
                self.prs.append((out, ev))
                return
            f = {}
            if out.repo:
                f["repo"] = out.repo
            if out.number is not None:
                f["number"] = out.number
            if out.url:
                f["url"] = out.url
            kind = {"merge": "pr_merge", "close": "pr_close", "comment": "pr_comment"}[out.action]
            self.add(Ev(t, key, kind, ev.agent, f, model=ev.model))
            self.prs.append((out, ev))
        elif isinstance(out, Ticket):
            self.add(Ev(t, key, "ticket", ev.agent,
                        {"tracker": out.tracker, "action": out.action, "id": out.id}, model=ev.model))
        elif isinstance(out, SkillWrite):
            self.add(Ev(t, key, "skill_write", ev.agent, {"name": out.name, "action": out.action},
                        model=ev.model))


def is_call(ev: Ev) -> bool:
    return ev.kind in CALL_KINDS


__all__ = ["CALL_KINDS", "Ev", "EventMaker", "FileTable", "is_call", "num"]
