"""Claude Code records -> facts: what each mapped record type (`user`, `assistant` and its content
blocks, tool results, `system`, `attachment`) adds to the session.

`RecordReader` holds the state those handlers share (responses by message id, calls and their
results, early results waiting for their call, each lane's clock); `reader.py`'s `ClaudeCodeReader`
adds the session's bookkeeping on top (files, lanes, duplicates, the dispatch by record type and the
end of the session) and is the class callers use.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from redact.build.facts import (
    MAIN, Compaction, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, UserTurn,
)
from redact.formats.claude_code import tools
from redact.formats.claude_code.keys import (
    API_ERROR, ATTACHMENT, ATTACHMENT_TYPE, BLOCK_TYPE, CACHE_READ_TOKENS, CACHE_WRITE_TOKENS, CALL_ID, CALL_INPUT,
    CALL_NAME, COMPACT_METADATA, COMPACT_MS, CONTENT, DURATION, HOOK_CALL, HOOK_ERRORS, HOOK_EVENT, HOOK_NAME,
    IN_TOKENS, IS_API_ERROR, IS_COMPACT_SUMMARY, IS_META, IS_TRANSCRIPT_ONLY, MAX_RETRIES, MESSAGE, MODEL,
    OUT_TOKENS, OUTPUT_MODE, POST_TOKENS, PRE_TOKENS, PREVENTED, PROMPT, REQUEST_ID, RESPONSE_ERROR, RESPONSE_ID,
    RESULT_CALL, RETRY_ATTEMPT, STOP_REASON, SUBTYPE, SYSTEM_CONTENT, TEXT, TOOL_USE_RESULT, TRIGGER, TRIGGERS,
    USAGE, UUID,
)
from redact.formats.claude_code.native_table import HOOK_ATTACHMENTS, HOOK_EVENTS
from redact.formats.common import count_urls, epoch_ms, label  # the one time rule of every reader
from redact.report import RedactionReport

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


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class RecordReader:
    """The per-record-type handlers of one session's reader, and the state they share."""

    def __init__(self, report: RedactionReport, *, agent_files: Iterable[str] = ()) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.agent_files = frozenset(agent_files)  # agent ids that have their own transcript
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
        self.child_calls: dict[str, str] = {}  # lane -> the call that launched it
        self.prompt_calls: dict[str, str] = {}  # digest of a Task prompt -> call id (old layouts)
        self.lane_prompts: dict[str, str] = {}  # lane -> digest of its first prompt

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    # -- records -----------------------------------------------------------------------------------
    def user(self, r: dict[str, Any], lane: str, t: float) -> None:
        msg = r.get(MESSAGE)
        content = msg.get(CONTENT) if isinstance(msg, dict) else None
        text = ""
        images = 0
        if isinstance(content, list):
            results = [b for b in content if isinstance(b, dict) and b.get(BLOCK_TYPE) == "tool_result"]
            if results:
                tur = r.get(TOOL_USE_RESULT) if len(results) == 1 else None
                paired = [self.result(block, tur, t) for block in results]
                if any(paired):  # a result that waits for its call does not move the lane's clock
                    self.last_t[lane] = t
                return
            parts = []
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get(BLOCK_TYPE) == "text" and isinstance(block.get(TEXT), str):
                    parts.append(block[TEXT])
                elif block.get(BLOCK_TYPE) == "image":
                    images += 1
            text = "\n".join(parts)
        elif isinstance(content, str):
            text = content
        else:
            return
        self.last_t[lane] = t
        if lane != MAIN and lane not in self.lane_prompts:
            self.lane_prompts[lane] = _digest(text)  # links an old subagent file to its Task call
        if r.get(IS_META) is True or r.get(IS_COMPACT_SUMMARY) is True or \
                r.get(IS_TRANSCRIPT_ONLY) is True:
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
        turn = UserTurn(t, lane, len(text), images, count_urls(text))
        if head.startswith(_COMMAND):
            self.pending_cmd[lane] = turn
        self.add(turn)

    def assistant(self, r: dict[str, Any], lane: str, t: float) -> None:
        msg = r.get(MESSAGE)
        if not isinstance(msg, dict):
            return
        model = msg.get(MODEL)
        if r.get(IS_API_ERROR) is True or model == "<synthetic>":
            if r.get(IS_API_ERROR) is True or r.get(RESPONSE_ERROR):
                self.add(ErrorFact(t, lane, "llm", tools.api_message_class(r, msg), src_uuid=_uuid(r),
                                   retry=False))
            self.last_t[lane] = t
            return
        self.pending_cmd.pop(lane, None)
        key = msg.get(RESPONSE_ID) or r.get(REQUEST_ID) or r.get(UUID)
        key = key if isinstance(key, str) else str(id(r))
        fact = self.msgs.get(key)
        if fact is None:
            stated = r.get(DURATION)
            if isinstance(stated, (int, float)) and not isinstance(stated, bool) and stated > 0:
                # a 0.2.x client times records to the second: the stated duration may reach back past
                # the prompt's own time; the request starts no earlier than the record before it
                start = max(t - stated, self.last_t.get(lane, t - stated))
                latency = min(float(stated), t - start)
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
        usage = msg.get(USAGE)
        if isinstance(usage, dict):
            fact.inp = max(fact.inp, _int(usage.get(IN_TOKENS)))
            fact.cw = max(fact.cw, _int(usage.get(CACHE_WRITE_TOKENS)))
            fact.cr = max(fact.cr, _int(usage.get(CACHE_READ_TOKENS)))
            fact.out = max(fact.out, _int(usage.get(OUT_TOKENS)))
        stop = msg.get(STOP_REASON)
        if isinstance(stop, str) and stop:
            fact.stop = stop
        content = msg.get(CONTENT)
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict):
                    self.block(block, fact, lane, t)
        elif isinstance(content, str):
            fact.text_chars += len(content)
        self.last_t[lane] = max(t, self.early_end.pop(lane, t))

    def block(self, block: dict[str, Any], fact: LlmResponse, lane: str, t: float) -> None:
        kind = block.get(BLOCK_TYPE)
        if kind == "text":
            text = block.get(TEXT)
            fact.text_chars += len(text) if isinstance(text, str) else 0
        elif kind in ("thinking", "redacted_thinking"):
            fact.thinking = True
        elif kind == "tool_use":
            if block.get(CALL_NAME) == tools.BATCH and self.batch(block, fact, lane, t):
                return
            call = tools.make_call(block, t, lane)
            if call is None or call.call_id in self.calls:
                return
            self.calls[call.call_id] = call
            self.call_response[call.call_id] = fact
            fact.tool_calls += 1
            inp = block.get(CALL_INPUT)
            if call.name == "Grep" and isinstance(inp, dict):
                mode = inp.get(OUTPUT_MODE)
                self.grep_mode[call.call_id] = mode if isinstance(mode, str) else None
            if call.kind == "subagent" and isinstance(inp, dict) and isinstance(inp.get(PROMPT), str):
                self.prompt_calls.setdefault(_digest(inp[PROMPT]), call.call_id)
            self.add(call)
            early = self.early.pop(call.call_id, None)
            if early is not None:
                self.result(*early)
                self.early_end[lane] = max(self.early_end.get(lane, early[2]), early[2])

    def batch(self, block: dict[str, Any], fact: LlmResponse, lane: str, t: float) -> bool:
        """A Batch call (0.2.x) is one event per tool it ran; False when it is not of that shape."""
        call_id = block.get(CALL_ID)
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
        call_id = block.get(RESULT_CALL)
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
        sub = r.get(SUBTYPE)
        if sub == "api_error":
            attempt, most = r.get(RETRY_ATTEMPT), r.get(MAX_RETRIES)
            retry = not (isinstance(attempt, int) and isinstance(most, int) and attempt >= most)
            self.add(ErrorFact(t, lane, "llm", tools.api_status_class(r.get(API_ERROR)), src_uuid=_uuid(r),
                               retry=retry))
        elif sub == "compact_boundary":
            meta = r.get(COMPACT_METADATA)
            meta = meta if isinstance(meta, dict) else {}
            trigger = meta.get(TRIGGER)
            pre, post, ms = meta.get(PRE_TOKENS), meta.get(POST_TOKENS), meta.get(COMPACT_MS)
            self.add(Compaction(
                t, lane, trigger if trigger in TRIGGERS else None,
                pre if isinstance(pre, int) and not isinstance(pre, bool) else None,
                post if isinstance(post, int) and not isinstance(post, bool) else None,
                float(ms) if isinstance(ms, (int, float)) and not isinstance(ms, bool) else None,
            ))
        elif sub == "stop_hook_summary" and (r.get(HOOK_ERRORS) or r.get(PREVENTED) is True):
            event = "Stop" if lane == MAIN else "SubagentStop"
            cls = "hook_blocking" if r.get(PREVENTED) is True else "hook_error"
            self.add(ErrorFact(t, lane, "hook", cls, hook=event, hook_event=event, src_uuid=_uuid(r)))
        elif sub == "informational" and isinstance(r.get(SYSTEM_CONTENT), str) and \
                (m := _HOOK_BLOCKED.match(r[SYSTEM_CONTENT])) and m.group(1) in HOOK_EVENTS:
            self.add(ErrorFact(t, lane, "hook", "hook_blocking", hook=m.group(1), hook_event=m.group(1),
                               src_uuid=_uuid(r)))
        else:
            self.skip(label("system", sub))

    def attachment(self, r: dict[str, Any], lane: str, t: float) -> None:
        att = r.get(ATTACHMENT)
        kind = att.get(ATTACHMENT_TYPE) if isinstance(att, dict) else None
        cls = HOOK_ATTACHMENTS.get(kind) if isinstance(kind, str) else None
        if cls is None or not isinstance(att, dict):
            self.skip(label("attachment", kind))
            return
        name, event, call = att.get(HOOK_NAME), att.get(HOOK_EVENT), att.get(HOOK_CALL)
        self.add(ErrorFact(t, lane, "hook", cls, hook=name if isinstance(name, str) and name else None,
                           hook_event=event if isinstance(event, str) and event in HOOK_EVENTS
                           else None, src_uuid=_uuid(r),
                           ref_call=call if isinstance(call, str) else None))


def _uuid(r: dict[str, Any]) -> str | None:
    uuid = r.get(UUID)
    return uuid if isinstance(uuid, str) and _UUIDISH.fullmatch(uuid) else None
