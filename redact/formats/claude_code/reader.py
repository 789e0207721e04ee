"""Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`) -> facts.

One session is its main transcript plus its subagent transcripts (`<session>/subagents/agent-*.jsonl`,
or the older flat `agent-*.jsonl` beside it); `files.py` finds them. The format's one table is
`native_table.py` (these names are re-exported here):

- `RECORD_TYPES`: which record types are mapped (read for facts) and which are skipped (counted by
  type in the report, never read). Unknown types are skipped and counted too.
- the class of every field, and what this reader keeps of it: the native table (`native_table.py`),
  with `TOOL_KINDS`/`PATH_INPUTS`, the tool table. The reader reads only fields that table
  classifies (tests/formats/test_tables.py runs it over the fixtures with every read logged) and
  reduces each on the spot: text to its length, a command to a verb (in the builder), a path to a
  repo-relative path or a bucket label (in the builder), a tool input or output to the facts in
  `tools.py`.
  `source_strings` walks a record the other way round, yielding every string that may carry
  content, for the scanner's taint layer and for tests.

Quirks handled: one API response is written as several records (one per content block) that share
`message.id`; resumed sessions (client 0.2.x) repeat earlier records with the same `uuid`; a
"side question" transcript repeats the main conversation; subagent messages may arrive only inside
`progress` records (`agent_progress`) when the subagent has no transcript of its own.
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import Any, BinaryIO

from redact.build.facts import (
    MAIN, Compaction, ErrorFact, Fact, Lane, LlmResponse, SessionFacts, ToolCall, UserTurn,
)
from redact.formats.claude_code import tools
from redact.formats.claude_code.native_table import HOOK_ATTACHMENTS, HOOK_EVENTS, RECORD_TYPES, SYSTEM_SUBTYPES
from redact.formats.claude_code.table import label, source_strings
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport

FORMAT = "claude-code"
AGENT_TOOL = "claude-code"

_HOOK_BLOCKED = re.compile(r"^(\w{1,40}) operation blocked by hook")
_LOCAL_OUTPUT = ("<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>")
_NOT_PROMPTS = ("<task-notification>", "<bash-input>", "<bash-stdout>", "<bash-stderr>",
                "<user-prompt-submit-hook>")
_COMMAND = ("<command-name>", "<command-message>")
_INTERRUPTED = "[Request interrupted by user"
# The summary a compaction hands the next conversation; 1.0.x writes it without `isCompactSummary`.
_CONTINUATION = "This session is being continued from a previous conversation"
_UUIDISH = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{7,64}")


_LATEST_MS = 7_258_118_400_000.0  # 2200-01-01, the bound redact/formats/common.py uses too


def epoch_ms(value: object) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        dt = datetime.fromisoformat(value)
    except ValueError:
        return None
    if dt.tzinfo is None:
        return None
    ms = dt.timestamp() * 1000.0
    return ms if 0.0 <= ms < _LATEST_MS else None  # a time a map can write (no year 10000)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class ClaudeCodeReader:
    """Reads the files of one session in order (main transcript first) into `SessionFacts`."""

    def __init__(self, report: RedactionReport, *, agent_files: Iterable[str] = ()) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.agent_files = frozenset(agent_files)  # agent ids that have their own transcript
        self.seen: set[str] = set()
        self.msgs: dict[str, LlmResponse] = {}
        # responses whose latency is final: stated by the record (0.2.x), or one of their tool calls
        # already has a result (the client runs tools while the response still streams)
        self.fixed_latency: set[int] = set()
        self.call_response: dict[str, LlmResponse] = {}
        self.calls: dict[str, ToolCall] = {}
        self.batches: dict[str, list[ToolCall]] = {}  # a Batch call's id -> the calls it ran
        self.grep_mode: dict[str, str | None] = {}
        self.results: set[str] = set()
        # results written before their call (2.1.x sometimes swaps the two records): paired on arrival
        self.early: dict[str, tuple[dict[str, Any], object, float]] = {}
        self.early_end: dict[str, float] = {}  # lane -> the latest early result paired with its call
        self.last_t: dict[str, float] = {}
        self.pending_cmd: dict[str, UserTurn] = {}
        self.side_lane: dict[str, str] = {}  # record uuid -> lane, for sidechains without agentId
        self.child_calls: dict[str, str] = {}  # lane -> the call that launched it
        self.prompt_calls: dict[str, str] = {}  # digest of a Task prompt -> call id (old layouts)
        self.lane_prompts: dict[str, str] = {}  # lane -> digest of its first prompt
        self.session_ids: Counter[str] = Counter()
        self.cwd: str | None = None
        self.cwds: dict[str, None] = {}  # every working directory the records show, in order
        self.original_cwd: str | None = None
        self.git_branch = False  # a record names a git branch: the working directory is in git
        self.standalone: str | None = None  # the agent id when the main file is a subagent's own
        self.first_message = True
        self.stats = LineStats()

    # -- files -------------------------------------------------------------------------------------
    def read(self, data: bytes | BinaryIO, where: str, *, agent_id: str | None = None,
             skip_bad_lines: bool = False) -> None:
        """Read one file. `agent_id` is set for a subagent transcript (all its records are that lane)."""
        lane = self.lane_for_agent(agent_id) if agent_id else None
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            self.record(record, lane, in_main_file=lane is None)

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    # -- lanes -------------------------------------------------------------------------------------
    def lane_for_agent(self, agent_id: str) -> str:
        if self.standalone is not None and agent_id == self.standalone:
            return MAIN
        lid = tools.lane_id(agent_id)
        if lid not in self.s.lanes:  # a helper transcript is a subagent lane that says what it is
            self.s.lanes[lid] = Lane(lid, "subagent", subagent_type=tools.helper_type(agent_id))
        return lid

    def lane_of(self, r: dict[str, Any], forced: str | None, in_main_file: bool) -> str:
        if forced is not None:
            return forced
        if r.get("isSidechain") is not True:
            return MAIN
        agent = r.get("agentId")
        if in_main_file and self.first_message and r.get("type") in ("user", "assistant"):
            self.standalone = agent if isinstance(agent, str) and agent else "?"
            helper = isinstance(agent, str) and agent and tools.helper_type(agent) is not None
            self.s.role = "helper" if helper else "subagent"  # seed: session.role allows helper
            return MAIN
        if isinstance(agent, str) and agent:
            return self.lane_for_agent(agent)
        if self.standalone == "?":
            return MAIN
        uuid, parent = r.get("uuid"), r.get("parentUuid")
        lane = self.side_lane.get(parent) if isinstance(parent, str) else None
        if lane is None:
            lane = tools.lane_id(uuid if isinstance(uuid, str) else str(len(self.side_lane)))
            self.s.lanes.setdefault(lane, Lane(lane, "subagent"))
        if isinstance(uuid, str):
            self.side_lane[uuid] = lane
        return lane

    # -- records -----------------------------------------------------------------------------------
    def record(self, r: dict[str, Any], forced: str | None, *, in_main_file: bool) -> None:
        kind = r.get("type")
        if self.s.first_seen is None:
            self.s.first_seen = epoch_ms(r.get("timestamp"))
        if kind == "progress":  # the most frequent record, and almost always skipped
            self.progress(r)
            return
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.skip(label(kind) if isinstance(kind, str) else "<no type>")
            return
        uuid = r.get("uuid")
        if uuid.__class__ is str:
            if uuid in self.seen:
                self.skip("<duplicate>")
                return
            self.seen.add(uuid)
        lane = self.lane_of(r, forced, in_main_file)
        if kind in ("user", "assistant"):
            self.first_message = False
            sid = r.get("sessionId")
            if isinstance(sid, str) and in_main_file:
                self.session_ids[sid] += 1
            cwd = r.get("cwd")
            if isinstance(cwd, str) and cwd and cwd not in self.cwds:
                self.cwds[cwd] = None
            if lane == MAIN and in_main_file:
                if self.cwd is None and isinstance(r.get("cwd"), str):
                    self.cwd = r["cwd"]
                if self.original_cwd is None and isinstance(r.get("originalCwd"), str):
                    self.original_cwd = r["originalCwd"]
                if not self.git_branch:
                    branch = r.get("gitBranch")
                    self.git_branch = isinstance(branch, str) and branch.strip() != ""
        t = epoch_ms(r.get("timestamp"))
        if t is None:
            t = self.last_t.get(lane)
            if t is None:
                self.skip(label(kind if isinstance(kind, str) else "<no type>") + ":<no time>")
                return
        handler(self, r, lane, t)

    def user(self, r: dict[str, Any], lane: str, t: float) -> None:
        msg = r.get("message")
        content = msg.get("content") if isinstance(msg, dict) else None
        text = ""
        images = 0
        if isinstance(content, list):
            results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
            if results:
                tur = r.get("toolUseResult") if len(results) == 1 else None
                paired = [self.result(block, tur, t) for block in results]
                if any(paired):  # a result that waits for its call does not move the lane's clock
                    self.last_t[lane] = t
                return
            parts = []
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and isinstance(block.get("text"), str):
                    parts.append(block["text"])
                elif block.get("type") == "image":
                    images += 1
            text = "\n".join(parts)
        elif isinstance(content, str):
            text = content
        else:
            return
        self.last_t[lane] = t
        if lane != MAIN and lane not in self.lane_prompts:
            self.lane_prompts[lane] = _digest(text)  # links an old subagent file to its Task call
        if r.get("isMeta") is True or r.get("isCompactSummary") is True or \
                r.get("isVisibleInTranscriptOnly") is True:
            return
        head = text.lstrip()[:64]
        if head.startswith(_INTERRUPTED):
            self.add(ErrorFact(t, lane, "orchestration", "interrupted", src_uuid=_uuid(r)))
            return
        if head.startswith(_LOCAL_OUTPUT):
            pending = self.pending_cmd.pop(lane, None)
            if pending is not None:
                pending.withdrawn = True
            return
        if lane != MAIN or head.startswith(_NOT_PROMPTS) or head.startswith(_CONTINUATION) or \
                (not text and not images):
            return
        pending = self.pending_cmd.pop(lane, None)
        if pending is not None:
            pending.withdrawn = True  # a command that no model response followed
        turn = UserTurn(t, lane, len(text), images, tools.count_urls(text))
        if head.startswith(_COMMAND):
            self.pending_cmd[lane] = turn
        self.add(turn)

    def assistant(self, r: dict[str, Any], lane: str, t: float) -> None:
        msg = r.get("message")
        if not isinstance(msg, dict):
            return
        model = msg.get("model")
        if r.get("isApiErrorMessage") is True or model == "<synthetic>":
            if r.get("isApiErrorMessage") is True or r.get("error"):
                self.add(ErrorFact(t, lane, "llm", tools.api_message_class(r, msg), src_uuid=_uuid(r),
                                   retry=False))
            self.last_t[lane] = t
            return
        self.pending_cmd.pop(lane, None)
        key = msg.get("id") or r.get("requestId") or r.get("uuid")
        key = key if isinstance(key, str) else str(id(r))
        fact = self.msgs.get(key)
        if fact is None:
            stated = r.get("durationMs")
            if isinstance(stated, (int, float)) and not isinstance(stated, bool) and stated > 0:
                start, latency = t - stated, float(stated)
            else:
                start = self.last_t.get(lane, t)
                latency = t - start
            fact = LlmResponse(start, lane, model if isinstance(model, str) and model else None,
                               latency=latency)
            if stated and latency == stated:
                self.fixed_latency.add(id(fact))
            self.msgs[key] = fact
            self.add(fact)
        elif id(fact) not in self.fixed_latency:
            fact.latency = max(fact.latency or 0.0, t - fact.t)
        usage = msg.get("usage")
        if isinstance(usage, dict):
            fact.inp = max(fact.inp, _int(usage.get("input_tokens")))
            fact.cw = max(fact.cw, _int(usage.get("cache_creation_input_tokens")))
            fact.cr = max(fact.cr, _int(usage.get("cache_read_input_tokens")))
            fact.out = max(fact.out, _int(usage.get("output_tokens")))
        stop = msg.get("stop_reason")
        if isinstance(stop, str) and stop:
            fact.stop = stop
        content = msg.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict):
                    self.block(block, fact, lane, t)
        elif isinstance(content, str):
            fact.text_chars += len(content)
        self.last_t[lane] = max(t, self.early_end.pop(lane, t))

    def block(self, block: dict[str, Any], fact: LlmResponse, lane: str, t: float) -> None:
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            fact.text_chars += len(text) if isinstance(text, str) else 0
        elif kind in ("thinking", "redacted_thinking"):
            fact.thinking = True
        elif kind == "tool_use":
            if block.get("name") == tools.BATCH and self.batch(block, fact, lane, t):
                return
            call = tools.make_call(block, t, lane)
            if call is None or call.call_id in self.calls:
                return
            self.calls[call.call_id] = call
            self.call_response[call.call_id] = fact
            fact.tool_calls += 1
            inp = block.get("input")
            if call.name == "Grep" and isinstance(inp, dict):
                mode = inp.get("output_mode")
                self.grep_mode[call.call_id] = mode if isinstance(mode, str) else None
            if call.kind == "subagent" and isinstance(inp, dict) and isinstance(inp.get("prompt"), str):
                self.prompt_calls.setdefault(_digest(inp["prompt"]), call.call_id)
            self.add(call)
            early = self.early.pop(call.call_id, None)
            if early is not None:
                self.result(*early)
                self.early_end[lane] = max(self.early_end.get(lane, early[2]), early[2])

    def batch(self, block: dict[str, Any], fact: LlmResponse, lane: str, t: float) -> bool:
        """A Batch call (0.2.x) is one event per tool it ran; False when it is not of that shape."""
        call_id = block.get("id")
        calls = tools.batch_calls(block, t, lane)
        if calls is None or not isinstance(call_id, str):
            return False
        if call_id in self.batches or call_id in self.calls:
            return True
        self.batches[call_id] = calls
        self.call_response[call_id] = fact
        fact.tool_calls += 1  # the model asked for one tool call
        for call in calls:
            self.add(call)
        early = self.early.pop(call_id, None)
        if early is not None:
            self.result(*early)
            self.early_end[lane] = max(self.early_end.get(lane, early[2]), early[2])
        return True

    def result(self, block: dict[str, Any], tur: object, t: float) -> bool:
        """Pair a tool_result with its call; False when it waits for a call not read yet."""
        call_id = block.get("tool_use_id")
        if not isinstance(call_id, str) or call_id in self.results:
            return True
        batch = self.batches.get(call_id)
        if batch is not None:
            self.results.add(call_id)
            response = self.call_response.pop(call_id, None)
            if response is not None:
                self.fixed_latency.add(id(response))
            for res in tools.batch_results(block, tur, batch, t, epoch_ms):
                self.add(res)
            return True
        call = self.calls.get(call_id)
        if call is None:
            self.early.setdefault(call_id, (block, tur, t))  # its call may come later in the file
            return False
        self.results.add(call_id)
        response = self.call_response.pop(call_id, None)
        if response is not None:
            self.fixed_latency.add(id(response))
        res = tools.make_result(block, tur, call, t, self.grep_mode.get(call_id))
        if res.child:
            self.child_calls.setdefault(res.child, call_id)
        self.add(res)
        return True

    def system(self, r: dict[str, Any], lane: str, t: float) -> None:
        sub = r.get("subtype")
        if sub == "api_error":
            attempt, most = r.get("retryAttempt"), r.get("maxRetries")
            retry = not (isinstance(attempt, int) and isinstance(most, int) and attempt >= most)
            self.add(ErrorFact(t, lane, "llm", tools.api_status_class(r.get("error")), src_uuid=_uuid(r),
                               retry=retry))
        elif sub == "compact_boundary":
            meta = r.get("compactMetadata")
            meta = meta if isinstance(meta, dict) else {}
            trigger = meta.get("trigger")
            pre, post, ms = meta.get("preTokens"), meta.get("postTokens"), meta.get("durationMs")
            self.add(Compaction(
                t, lane, trigger if trigger in ("auto", "manual") else None,
                pre if isinstance(pre, int) and not isinstance(pre, bool) else None,
                post if isinstance(post, int) and not isinstance(post, bool) else None,
                float(ms) if isinstance(ms, (int, float)) and not isinstance(ms, bool) else None,
            ))
        elif sub == "stop_hook_summary" and (r.get("hookErrors") or r.get("preventedContinuation") is True):
            event = "Stop" if lane == MAIN else "SubagentStop"
            cls = "hook_blocking" if r.get("preventedContinuation") is True else "hook_error"
            self.add(ErrorFact(t, lane, "hook", cls, hook=event, hook_event=event, src_uuid=_uuid(r)))
        elif sub == "informational" and isinstance(r.get("content"), str) and \
                (m := _HOOK_BLOCKED.match(r["content"])) and m.group(1) in HOOK_EVENTS:
            self.add(ErrorFact(t, lane, "hook", "hook_blocking", hook=m.group(1), hook_event=m.group(1),
                               src_uuid=_uuid(r)))
        else:
            self.skip(label("system", sub))

    def attachment(self, r: dict[str, Any], lane: str, t: float) -> None:
        att = r.get("attachment")
        kind = att.get("type") if isinstance(att, dict) else None
        cls = HOOK_ATTACHMENTS.get(kind) if isinstance(kind, str) else None
        if cls is None or not isinstance(att, dict):
            self.skip(label("attachment", kind))
            return
        name, event, call = att.get("hookName"), att.get("hookEvent"), att.get("toolUseID")
        self.add(ErrorFact(t, lane, "hook", cls, hook=name if isinstance(name, str) and name else None,
                           hook_event=event if isinstance(event, str) and event in HOOK_EVENTS
                           else None, src_uuid=_uuid(r),
                           ref_call=call if isinstance(call, str) else None))

    def progress(self, r: dict[str, Any]) -> None:
        data = r.get("data")
        kind = data.get("type") if isinstance(data, dict) else None
        if kind != "agent_progress" or not isinstance(data, dict):
            self.skip(label("progress", kind))
            return
        agent, inner = data.get("agentId"), data.get("message")
        if not isinstance(agent, str) or not agent or agent in self.agent_files or \
                not isinstance(inner, dict):
            self.skip(label("progress", kind))
            return
        uuid = r.get("uuid")
        if isinstance(uuid, str):
            if uuid in self.seen:
                self.skip("<duplicate>")
                return
            self.seen.add(uuid)
        lane = self.lane_for_agent(agent)
        parent = r.get("parentToolUseID")
        if isinstance(parent, str) and lane != MAIN:
            self.child_calls.setdefault(lane, parent)
        if "timestamp" not in inner:
            inner = {**inner, "timestamp": r.get("timestamp")}
        self.record(inner, lane, in_main_file=False)

    # -- end ---------------------------------------------------------------------------------------
    def finish(self) -> SessionFacts:
        """Settle what only the whole session shows (withdrawn commands, stops, launches); the
        session's identity and roots are `claude_code_files.settle_session`'s."""
        s = self.s
        for pending in self.pending_cmd.values():
            pending.withdrawn = True
        for _ in self.early:
            self.skip("<tool_result without call>")
        self.early.clear()
        for fact in s.facts:
            if isinstance(fact, LlmResponse) and fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"  # not recorded: inferred
        for lane_id, call_id in self.child_calls.items():
            lane = s.lanes.get(lane_id)
            if lane is not None and lane.launch_call is None:
                lane.launch_call = call_id
        for lane_id, digest in self.lane_prompts.items():
            lane = s.lanes.get(lane_id)
            call = self.prompt_calls.get(digest)
            if lane is not None and lane.launch_call is None and call is not None and \
                    call not in {ln.launch_call for ln in s.lanes.values()}:
                lane.launch_call = call
        self.stats.warn_skipped(self.report)
        return s


def _uuid(r: dict[str, Any]) -> str | None:
    uuid = r.get("uuid")
    return uuid if isinstance(uuid, str) and _UUIDISH.fullmatch(uuid) else None


_HANDLERS: dict[str, Any] = {
    "user": ClaudeCodeReader.user,
    "assistant": ClaudeCodeReader.assistant,
    "system": ClaudeCodeReader.system,
    "attachment": ClaudeCodeReader.attachment,
    "progress": ClaudeCodeReader.progress,
}


__all__ = [
    "AGENT_TOOL", "FORMAT", "HOOK_ATTACHMENTS", "HOOK_EVENTS", "RECORD_TYPES", "SYSTEM_SUBTYPES",
    "ClaudeCodeReader", "label", "source_strings",
]
