"""An OpenHands V1 conversation (`events.json`) -> facts.

A user MessageEvent is a prompt; an agent MessageEvent is a reply (an llm event). ActionEvents are
tool calls; those sharing an `llm_response_id` came from one model response, which is one llm event
(thinking when the response carried reasoning, its thoughts' length as textChars, its calls counted).
The log records no model name or tokens, so the llm events carry none. An ObservationEvent (or an
AgentErrorEvent, a UserRejectObservation) is the result of the call whose `tool_call_id` it names.
The first terminal observation's working directory is the repository root.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from redact.build.facts import MAIN, Compaction, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import LogClock, as_int, epoch_ms, session_id, json_doc, label, text_chars
from redact.formats.openhands.keys import (
    ACTION, ACTION_ID, ACTION_KIND, ANSWERS, ANSWERS_CALL_ID, AT, BLOCK_TEXT, CALL_ID, EDIT_COMMAND, ERROR,
    EVENT_CASES, EXIT_CODE, KIND, LLM_MESSAGE, MESSAGE_CONTENT, MESSAGE_SOURCE, OBS_CONTENT, OBS_ERROR,
    OBS_METADATA, OBSERVATION, PREV_EXIST, REASONING, RESPONSE_ID, THINKING_BLOCKS, THOUGHT, TIMEOUT,
    TOOL_NAME, WORKING_DIR,
)
from redact.formats.openhands.native_table import ACTIONS, EDITOR
from redact.formats.wording import error_class
from redact.report import RedactionReport

AGENT_TOOL = "openhands"


def root_of(events: list[Any]) -> str | None:
    """The working directory of the first terminal observation."""
    for e in events:
        if isinstance(e, dict) and e.get(KIND) == "ObservationEvent":
            obs = as_object(e.get(OBSERVATION))
            wd = as_object(obs.get(OBS_METADATA)).get(WORKING_DIR) if OBS_METADATA in obs else None
            if isinstance(wd, str) and wd.startswith("/"):
                return wd
    return None


class OpenHandsReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.responses: dict[str, LlmResponse] = {}
        self.calls: dict[str, ToolCall] = {}  # by the ActionEvent's id
        self.by_tool_call: dict[str, str] = {}  # tool_call_id -> the latest ActionEvent id using it
        self.done: set[str] = set()
        self.clock = LogClock(self.s)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, events: list[Any]) -> None:
        root = root_of(events)
        self.s.roots = chatlog.root_of(root)
        self.s.cwd = root
        for e in events:
            kind = e.get(KIND) if isinstance(e, dict) else None
            if not isinstance(kind, str) or EVENT_CASES.get(kind) != "mapped":
                self.skip(label(kind) if isinstance(kind, str) else "<no kind>")
                continue
            t = self.clock.at(epoch_ms(e.get(AT)))
            if t is None:
                self.skip(label(kind) + ":<no time>")
                continue
            getattr(self, kind)(e, t)

    def MessageEvent(self, e: dict[str, Any], t: float) -> None:
        chars = text_chars(as_object(e.get(LLM_MESSAGE)).get(MESSAGE_CONTENT))
        if e.get(MESSAGE_SOURCE) == "user":
            self.s.facts.append(UserTurn(t, MAIN, chars))
        else:
            self.s.facts.append(LlmResponse(t, MAIN, None, text_chars=chars, stop="end_turn"))

    def ActionEvent(self, e: dict[str, Any], t: float) -> None:
        rid = e.get(RESPONSE_ID)
        key = rid if isinstance(rid, str) and rid else f"#{e.get(ACTION_ID)}"
        llm = self.responses.get(key)
        if llm is None:
            llm = self.responses[key] = LlmResponse(t, MAIN, None, stop="tool_use")
            self.s.facts.append(llm)
        llm.text_chars += text_chars(e.get(THOUGHT))
        if e.get(REASONING) or e.get(THINKING_BLOCKS):
            llm.thinking = True
        action = as_object(e.get(ACTION))
        akind = action.get(ACTION_KIND)
        # the event id names the call: providers reuse tool call ids (`functions.terminal:0`) after
        # a condensation; an observation names its action by `action_id`
        call_id = e.get(ACTION_ID)
        if not isinstance(call_id, str) or not call_id or call_id in self.calls:
            self.skip("ActionEvent:<duplicate>" if isinstance(call_id, str) and call_id else "ActionEvent:<no id>")
            return
        tool_call_id = e.get(CALL_ID)
        if isinstance(tool_call_id, str) and tool_call_id:
            self.by_tool_call[tool_call_id] = call_id
        name = e.get(TOOL_NAME) if isinstance(e.get(TOOL_NAME), str) else None
        canonical = ACTIONS.get(akind) if isinstance(akind, str) else None
        args = dict(action)
        if canonical == "file_editor":
            kind, op = EDITOR.get(str(action.get(EDIT_COMMAND)), ("tool", None))
            canonical = {"read": "read_file", "edit": "edit_file"}.get(kind, "file_editor")
            c = chatlog.call(name or "file_editor", args, call_id, t, MAIN, aliases={name or "file_editor": canonical})
            c.op = op if c.kind == "edit" else None
        else:
            spelled = name or (akind if isinstance(akind, str) else "unknown")
            c = chatlog.call(spelled, args, call_id, t, MAIN, aliases={spelled: canonical or spelled})
        self.calls[call_id] = c
        llm.tool_calls += 1
        self.s.facts.append(c)

    def _settle(self, e: dict[str, Any], t: float) -> ToolCall | None:
        call_id = e.get(ANSWERS)
        if not isinstance(call_id, str) or call_id not in self.calls:
            tool_call_id = e.get(ANSWERS_CALL_ID)
            call_id = self.by_tool_call.get(tool_call_id) if isinstance(tool_call_id, str) else None
        c = self.calls.get(call_id) if isinstance(call_id, str) else None
        if c is None or c.call_id in self.done:
            self.skip(label(str(e.get(KIND))) + (":<no call>" if c is None else ":<duplicate>"))
            return None
        self.done.add(c.call_id)
        return c

    def ObservationEvent(self, e: dict[str, Any], t: float) -> None:
        c = self._settle(e, t)
        if c is None:
            return
        obs = as_object(e.get(OBSERVATION))
        output = "".join(b.get(BLOCK_TEXT, "") for b in obs.get(OBS_CONTENT) or [] if isinstance(b, dict)
                         and isinstance(b.get(BLOCK_TEXT), str)) if isinstance(obs.get(OBS_CONTENT), list) else None
        code = as_int(obs.get(EXIT_CODE)) if EXIT_CODE in obs else None  # a terminal's only
        res = chatlog.result(c, max(t, c.t), error=obs.get(OBS_ERROR) is True, output=output,
                             exit_code=code if code is not None and code >= 0 else None,
                             error_text=output if obs.get(OBS_ERROR) is True else None,
                             created=(obs.get(PREV_EXIST) is False) if c.op == "create" else None)
        if TIMEOUT in obs and obs.get(TIMEOUT) is True:
            res.is_error, res.err_class = True, "timeout"
        self.s.facts.append(res)

    def AgentErrorEvent(self, e: dict[str, Any], t: float) -> None:
        c = self._settle(e, t)
        if c is not None:
            err = e.get(ERROR)
            res = chatlog.result(c, max(t, c.t), error=True)
            res.err_class = error_class(err, c.name) if isinstance(err, str) else "other"
            self.s.facts.append(res)

    def UserRejectObservation(self, e: dict[str, Any], t: float) -> None:
        c = self._settle(e, t)
        if c is not None:
            c.waits_on_user = True
            res = chatlog.result(c, max(t, c.t), error=True)
            res.err_class = "permission_denied"
            self.s.facts.append(res)

    def Condensation(self, e: dict[str, Any], t: float) -> None:
        self.s.facts.append(Compaction(t, MAIN, "auto"))


def conversation_id(where: str) -> str | None:
    """The conversation's id: the name of the folder holding events.json (32 hex)."""
    folder = Path(where).parent.name
    return folder if len(folder) == 32 and all(ch in "0123456789abcdef" for ch in folder) else None


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    doc = json_doc(raw, where) if raw.strip() else []
    reader = OpenHandsReader(report)
    reader.read(doc if isinstance(doc, list) else [])
    found = conversation_id(where)
    reader.s.native_id = session_id(found, raw)
    return reader.s
