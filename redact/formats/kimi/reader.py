"""A Kimi CLI session (`~/.kimi/sessions/<md5 of the work dir>/<id>/wire.jsonl`) -> facts.

The wire log is the session's timeline: every event has its time (epoch seconds), and a subagent's
events are nested whole in `SubagentEvent` lines, each naming the `Task` call that launched it. The
folder's `context.jsonl` and `context_sub_N.jsonl` hold the same messages (the model's history,
without times) and are not read: the wire log has all they hold, with times (batch mode skips them
and says so).

- **Prompts.** `TurnBegin`: the length, URL count and images of its `user_input`.
- **Tool calls.** A `ToolCall`'s `arguments` may be cut short: the `ToolCallPart`s after it (in the
  same lane) carry the rest, streamed; the call is read once its arguments are whole (at the lane's
  next event other than an earlier call's `ToolResult`, which Kimi may log between the two).
- **Model responses.** `StepBegin` starts one llm event (at its time); the step's `ContentPart`s give
  its text length and thinking, its `ToolCall`s its tool calls (the tool table), and its
  `StatusUpdate` its tokens (`input_other`, `output`, `input_cache_read`, `input_cache_creation`)
  and the end of its latency. The wire log names no model.
- **Tool results.** `ToolResult`: `is_error`, the output's byte count, a shell's exit code (`Command
  failed with exit code: N`), the commits and PRs its output confirms.
- **Subagents.** A `Task` call is a subagent launch (`subagent_name`); its lane holds the events of
  the `SubagentEvent`s that name the call.
- `StepInterrupted` is an interruption (a step that produced nothing before it is no model
  response); `CompactionBegin` a compaction.
- **A folder without its wire log.** Its `context.jsonl` (the model's history, one message per line
  by `role`) is read instead: a `user` message is a prompt, an `assistant` message one llm event
  (text length, thinking, its tool calls), a `tool` message the result of its call (an error when
  the harness's header says `<system>ERROR: `, a shell's exit code from the same wording). The
  history holds no time at all: every event is at the epoch, a stand-in the report names, never a
  time (no duration, no latency); it names no model and no tokens (`_usage` is the context's size).
- The work dir is the entry of `~/.kimi/kimi.json` whose path's md5 is the session's folder name
  (a companion file); a repository only on evidence (redact/formats/roots.py).
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePath
from typing import Any, BinaryIO

import orjson

from redact.build.facts import MAIN, Compaction, ErrorFact, Lane, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import count_urls, label, parse_json_string, positive_int, session_id
from redact.formats.ids import lane_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.kimi.keys import (
    ARGUMENTS_PART, AT, C_CALL_ID, C_CALLS, C_CONTENT, C_FUNCTION, C_PART_TYPE, C_RESULT_CALL, C_TEXT, CACHE_READ,
    CACHE_WRITE, CALL_ARGS, CALL_ID, CALL_NAME, CONTEXT_ROLES, EVENT_TYPES, FUNCTION, IN, IS_ERROR, KIND, LINE_TYPE,
    MESSAGE, OUT, OUTPUT, PART_TYPE, PAYLOAD, RESULT_CALL, RESULT_MESSAGE, RETURN, ROLE, SUB_EVENT, SUBAGENT_ARG,
    TASK_CALL, TEXT, THINK, USAGE, USER_INPUT,
)
from redact.formats.kimi.native_table import CONTEXT_ERROR, EXIT_MESSAGE, TOOLS
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "kimi"
_EXIT = re.compile(EXIT_MESSAGE)
_MD5 = re.compile(r"[0-9a-f]{32}")
#: The time of every event of a history read without its wire log: a stand-in, never a time.
NO_TIME = 0.0
NO_TIMES = ("Kimi CLI's context.jsonl records no time and the folder has no wire.jsonl: startedAt is the epoch, "
            "a stand-in, not a time; events are in the order of the history, with no duration")
_HEADER = re.compile(r"^<system>(.*?)</system>", re.DOTALL)
#: Kimi CLI's tool names -> the shared tool table's spelling
ALIASES = {name: {"exec": "bash", "read": "read", "search": "grep", "web": "web_fetch", "subagent": "task"}.get(kind, name)
           for name, (kind, _) in TOOLS.items()}
ALIASES.update({"WriteFile": "write", "StrReplaceFile": "edit", "Glob": "glob", "SearchWeb": "web_search"})


class _Step:
    def __init__(self, llm: LlmResponse) -> None:
        self.llm = llm
        self.start = llm.t


class KimiReader(CallPairs):
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.steps: dict[str, _Step] = {}  # lane -> its current model request
        # lane -> the tool call whose arguments are still streaming: (its payload, time, arguments)
        self.open: dict[str, tuple[dict[str, Any], float, str]] = {}

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool) -> None:
        for _, line in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            if line.get(LINE_TYPE) == "metadata":
                continue
            at = line.get(AT)
            t = chatlog.epoch_number(at)
            if t is None:
                self.skip("event:<no time>")
                continue
            self.s.saw(t)
            self.event(as_object(line.get(MESSAGE)), t, MAIN)
        for agent in list(self.open):
            self.flush(agent)

    def event(self, e: dict[str, Any], t: float, agent: str) -> None:
        kind = e.get(KIND)
        if not isinstance(kind, str) or EVENT_TYPES.get(kind) != "mapped":
            self.skip(label(kind) if isinstance(kind, str) else "<no type>")
            return
        p = as_object(e.get(PAYLOAD))
        if kind == "ToolCallPart":
            part = p.get(ARGUMENTS_PART)
            if agent in self.open and isinstance(part, str):
                payload, at, text = self.open[agent]
                self.open[agent] = (payload, at, text + part)
            else:
                self.skip("ToolCallPart:<no call>")
            return
        if kind != "SubagentEvent" and not (kind == "ToolResult" and self.streaming(agent) != p.get(RESULT_CALL)):
            # the lane's streamed call is whole once another event of it comes; Kimi runs the
            # response's earlier calls while the model streams, so an earlier call's result may
            # come between a call and the rest of its arguments
            self.flush(agent)
        if kind == "TurnBegin":
            self.prompt(p.get(USER_INPUT), t, agent)
        elif kind == "StepBegin":
            llm = LlmResponse(t, agent, None, stop="end_turn")
            self.steps[agent] = _Step(llm)
            self.s.facts.append(llm)
        elif kind == "ContentPart":
            step = self.steps.get(agent)
            if step is None:
                self.skip("ContentPart:<no step>")
            elif p.get(PART_TYPE) == "text" and isinstance(p.get(TEXT), str):
                step.llm.text_chars += len(p[TEXT])
            elif p.get(PART_TYPE) == "think" and p.get(THINK):
                step.llm.thinking = True
        elif kind == "ToolCall":
            args = as_object(p.get(FUNCTION)).get(CALL_ARGS)
            self.open[agent] = (p, t, args if isinstance(args, str) else "")
        elif kind == "ToolResult":
            self.tool_result(p, t)
        elif kind == "StatusUpdate":
            step = self.steps.get(agent)
            if step is None:
                self.skip("StatusUpdate:<no step>")
                return
            usage = as_object(p.get(USAGE))
            step.llm.inp, step.llm.out = positive_int(usage.get(IN)), positive_int(usage.get(OUT))
            step.llm.cr, step.llm.cw = positive_int(usage.get(CACHE_READ)), positive_int(usage.get(CACHE_WRITE))
            step.llm.latency = t - step.start if t >= step.start else None
        elif kind == "StepInterrupted":
            stopped = self.steps.pop(agent, None)
            if stopped is not None and not (stopped.llm.inp or stopped.llm.out or stopped.llm.cr or stopped.llm.cw
                                            or stopped.llm.text_chars or stopped.llm.thinking or stopped.llm.tool_calls):
                self.s.facts.remove(stopped.llm)  # the request produced nothing: only its interruption happened
            self.s.facts.append(ErrorFact(t, agent, "orchestration", "interrupted"))
        elif kind == "CompactionBegin":
            self.s.facts.append(Compaction(t, agent))
        elif kind == "SubagentEvent":
            self.subagent(p, t, agent)

    def prompt(self, value: object, t: float, agent: str) -> None:
        if agent != MAIN:
            return  # a subagent's task is its launch's prompt: not the user's
        texts: list[str] = []
        images = 0
        if isinstance(value, str):
            texts.append(value)
        for part in value if isinstance(value, list) else []:
            kind = part.get(PART_TYPE) if isinstance(part, dict) else None
            if kind == "text" and isinstance(part.get(TEXT), str):
                texts.append(part[TEXT])
            elif kind == "image_url":
                images += 1
        chars = sum(len(x) for x in texts)
        if chars or images:
            self.s.facts.append(UserTurn(t, MAIN, chars, images, sum(count_urls(x) for x in texts)))

    def streaming(self, agent: str) -> object:
        """The id of the lane's tool call whose arguments are still streaming (None when none)."""
        return self.open[agent][0].get(CALL_ID) if agent in self.open else None

    def flush(self, agent: str) -> None:
        """The lane's streamed tool call, now that its arguments are whole."""
        if agent in self.open:
            payload, t, text = self.open.pop(agent)
            self.tool_call(payload, t, agent, text)

    def tool_call(self, p: dict[str, Any], t: float, agent: str, arguments: str) -> None:
        call_id = p.get(CALL_ID)
        fn = as_object(p.get(FUNCTION))
        name = fn.get(CALL_NAME)
        if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name:
            self.skip("ToolCall:<no id or name>")
            return
        if call_id in self.calls:
            self.skip("<duplicate>")
            return
        args = as_object(parse_json_string(arguments))
        c = chatlog.call(name, args, call_id, t, agent, aliases=ALIASES)
        if c.kind == "subagent":
            sub = args.get(SUBAGENT_ARG)
            c.subagent_type = sub if isinstance(sub, str) and 0 < len(sub) <= 100 and " " not in sub else None
        self.calls[call_id] = c
        step = self.steps.get(agent)
        if step is not None:
            step.llm.tool_calls += 1
            step.llm.stop = "tool_use"
        self.s.facts.append(c)

    def tool_result(self, p: dict[str, Any], t: float) -> None:
        c = self.answered(p.get(RESULT_CALL), unmatched="ToolResult:<no call>")
        if c is None:
            return
        rv = as_object(p.get(RETURN))
        output, message = rv.get(OUTPUT), rv.get(RESULT_MESSAGE)
        code = None
        if c.kind == "exec" and isinstance(message, str):
            found = _EXIT.match(message)
            code = int(found.group(1)) if found else None
        error = rv.get(IS_ERROR) is True
        res = chatlog.result(c, max(t, c.t), error=error, output=output, exit_code=code,
                             error_text=message if isinstance(message, str) else None)
        if res.is_error and c.kind == "edit" and isinstance(message, str) and "no replacements" in message[:200].lower():
            res.err_class = "patch_failed"
        if c.kind == "subagent":
            res.child = lane_id(c.call_id)
        self.s.facts.append(res)

    def subagent(self, p: dict[str, Any], t: float, agent: str) -> None:
        task = p.get(TASK_CALL)
        launch = self.calls.get(task) if isinstance(task, str) else None
        if launch is None or agent != MAIN:
            self.skip("SubagentEvent:<no launch>" if launch is None else "SubagentEvent:<nested>")
            return
        lane = lane_id(launch.call_id)
        if lane not in self.s.lanes:
            self.s.lanes[lane] = Lane(lane, "subagent", launch_call=launch.call_id, subagent_type=launch.subagent_type)
        self.event(as_object(p.get(SUB_EVENT)), t, lane)

    def context(self, data: bytes, where: str, *, skip_bad_lines: bool) -> None:
        """The model's history (`context.jsonl`), read when the folder has no wire log."""
        self.report.warn(NO_TIMES)
        for _, line in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            role = line.get(ROLE)
            if not isinstance(role, str) or CONTEXT_ROLES.get(role) != "mapped":
                self.skip(label(role) if isinstance(role, str) else "<no role>")
                continue
            content = line.get(C_CONTENT)
            if role == "user":
                self.prompt(content, NO_TIME, MAIN)
            elif role == "assistant":
                self.context_reply(line, content)
            else:
                self.context_result(line, content)

    def context_reply(self, line: dict[str, Any], content: object) -> None:
        llm = LlmResponse(NO_TIME, MAIN, None, stop="end_turn")
        self.steps[MAIN] = _Step(llm)
        self.s.facts.append(llm)
        if isinstance(content, str):
            llm.text_chars += len(content)
        for part in content if isinstance(content, list) else []:
            kind = part.get(C_PART_TYPE) if isinstance(part, dict) else None
            if kind == "text" and isinstance(part.get(TEXT), str):
                llm.text_chars += len(part[TEXT])
            elif kind == "think" and part.get(THINK):
                llm.thinking = True
        calls = line.get(C_CALLS)
        for call in calls if isinstance(calls, list) else []:
            call = as_object(call)
            args = as_object(call.get(C_FUNCTION)).get(CALL_ARGS)
            self.tool_call({CALL_ID: call.get(C_CALL_ID), FUNCTION: call.get(C_FUNCTION)}, NO_TIME, MAIN,
                           args if isinstance(args, str) else "")

    def context_result(self, line: dict[str, Any], content: object) -> None:
        texts = [content] if isinstance(content, str) else \
            [p[C_TEXT] for p in content if isinstance(p, dict) and isinstance(p.get(C_TEXT), str)] \
            if isinstance(content, list) else []
        whole = "".join(texts)
        header = _HEADER.match(whole)
        message = header.group(1) if header else ""
        error = message.startswith(CONTEXT_ERROR[len("<system>"):])
        body = message[len(CONTEXT_ERROR) - len("<system>"):] if error else message
        self.tool_result({RESULT_CALL: line.get(C_RESULT_CALL),
                          RETURN: {IS_ERROR: error, OUTPUT: whole[header.end():] if header else whole,
                                   RESULT_MESSAGE: body}}, NO_TIME)

    def finish(self, data: bytes | BinaryIO, where: str, file_stem: str | None, cwd: str | None) -> SessionFacts:
        s = self.s
        # the wire log names no session id, and an id never comes from the path (the folder's name)
        s.native_id = session_id(None, data, file_stem if file_stem != "wire" else None)
        s.cwd = cwd
        settle(s, (cwd,))  # a repository only on evidence (redact/formats/roots.py)
        self.stats.warn_skipped(self.report)
        return s


def work_dir(where: str, companions: list[Any] | None) -> str | None:
    """The work dir of the session at `where` (`.../sessions/<md5>/<id>/wire.jsonl`): the path in
    `~/.kimi/kimi.json` (a companion) whose md5 is the session's folder name."""
    md5 = PurePath(where).parent.parent.name
    if not _MD5.fullmatch(md5):
        return None
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        if path.name != "kimi.json":
            continue
        try:
            doc = orjson.loads(path.read_bytes()[:1_048_576])
        except (OSError, orjson.JSONDecodeError):
            continue
        from redact.formats.kimi.table import work_dirs

        for found in work_dirs(doc):
            if hashlib.md5(found.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest() == md5:
                return found
    return None


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    reader = KimiReader(report)
    from redact.formats.kimi.table import is_context

    if is_context(raw):
        reader.context(raw, where, skip_bad_lines=skip_bad_lines)
    else:
        reader.read(raw, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(raw, where, file_stem if file_stem != "context" else None, work_dir(where, companions))
