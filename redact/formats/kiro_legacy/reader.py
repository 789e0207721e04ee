"""A Kiro / Amazon Q Developer CLI ConversationState (`/save`, or one row of `data.sqlite3`) -> facts.

Each `history` turn is a user message, the assistant's answer and the request's metadata. A user
`Prompt` is a prompt; `ToolUseResults` are results (status `Error`: an error); `CancelledToolUses` is a
prompt typed over pending calls, whose results are interrupted. The assistant's `Response` is a reply
(stop end_turn), its `ToolUse` a reply with tool calls (the shared tool table after the aliases:
`execute_bash` is a shell command through the verb engine, `fs_read` reads its first operation's path).
Times: the user's `timestamp`, else the request's start; an answer's time is the stream's end (its
latency the time from the start). The model is the request's `model_id`, else `model_info`'s. There
are no token counts in this format, and none is written. `transcript` (the same text again), `tools`,
`context_manager` and `file_line_tracker` are never read.

Which program wrote it is told by evidence (docs/formats.md): `model_info.rate_unit` (Kiro's credits)
or the context profile `kiro_default` is Kiro CLI; the profile `q_cli_default` is Amazon Q Developer
CLI. The agentplay format's agentTool list has `kiro` and no Amazon Q, so both are `kiro`; the report
says which wrote it.
"""
from __future__ import annotations

from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import CallPairs, as_object
from redact.formats.common import epoch_ms, is_model_name, json_doc, label
from redact.formats.ids import session_id
from redact.formats.kiro_legacy.keys import (
    ASSISTANT, CALL_ARGS, CALL_ID, CALL_NAME, CANCELLED, CONTENT, CONTEXT, CONVERSATION_ID, CWD, END_MS, ENV,
    ENV_STATE, HISTORY, ITEM_JSON, ITEM_TEXT, MODEL_ID, MODEL_INFO, PROFILE, PROMPT, PROMPT_TEXT, RATE_UNIT,
    READ_OPERATIONS, READ_PATH, REPLY_TEXT, REQUEST, REQUEST_MODEL, RESPONSE, RESULT_CALL, RESULT_CONTENT,
    RESULT_LIST, RESULT_STATUS, RESULTS, START_MS, TOOL_USE, TOOL_USES, USER, USER_AT,
)
from redact.formats.kiro_legacy.native_table import ALIASES, STATUS
from redact.report import RedactionReport

AGENT_TOOL = "kiro"
WRITTEN_BY = {
    "kiro": "written by the Kiro CLI (model_info.rate_unit or the kiro_default profile)",
    "amazon-q": "written by Amazon Q Developer CLI (the q_cli_default profile, no credit rate); "
                "agentTool kiro: the agentplay format lists no Amazon Q",
}


def writer(doc: dict[str, Any]) -> str | None:
    """`kiro` or `amazon-q` by the evidence the document holds, or None when it holds none."""
    profile = as_object(doc.get(CONTEXT)).get(PROFILE)
    if as_object(doc.get(MODEL_INFO)).get(RATE_UNIT) is not None or profile == "kiro_default":
        return "kiro"
    if profile == "q_cli_default":
        return "amazon-q"
    return None


class ConversationReader(CallPairs):
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.t: float | None = None
        self.model: str | None = None

    def read(self, doc: dict[str, Any]) -> None:
        found = as_object(doc.get(MODEL_INFO)).get(MODEL_ID)
        self.model = found if is_model_name(found) else None
        history = doc.get(HISTORY)
        for turn in history if isinstance(history, list) else []:
            if not isinstance(turn, dict):
                self.skip("<turn not an object>")
                continue
            self.turn(turn)

    def at(self, *times: float | None) -> float | None:
        for t in times:
            if t is not None and (self.t is None or t >= self.t):
                self.t = t
                break
        return self.t

    def turn(self, turn: dict[str, Any]) -> None:
        user, request = as_object(turn.get(USER)), as_object(turn.get(REQUEST))
        start, end = chatlog.epoch_number(request.get(START_MS)), chatlog.epoch_number(request.get(END_MS))
        cwd = as_object(as_object(user.get(ENV)).get(ENV_STATE)).get(CWD)
        if self.s.cwd is None and isinstance(cwd, str) and cwd:
            self.s.cwd = cwd
            self.s.roots = chatlog.root_of(cwd)
        t = self.at(epoch_ms(user.get(USER_AT)), start)
        if t is None:
            self.skip("turn:<no time>")
            return
        self.s.saw(t)
        content = as_object(user.get(CONTENT))
        if PROMPT in content:
            self.prompt(as_object(content[PROMPT]), t)
        elif CANCELLED in content:
            cancelled = as_object(content[CANCELLED])
            self.results(cancelled.get(RESULT_LIST), t, interrupted=True)
            self.prompt(cancelled, t)
        elif RESULTS in content:
            self.results(as_object(content[RESULTS]).get(RESULT_LIST), t, interrupted=False)
        else:
            self.skip(label("user", next(iter(content), None)))
        self.assistant(as_object(turn.get(ASSISTANT)), request, start, end)

    def prompt(self, prompt: dict[str, Any], t: float) -> None:
        text = prompt.get(PROMPT_TEXT)
        self.s.facts.append(UserTurn(t, MAIN, len(text) if isinstance(text, str) else 0))

    def assistant(self, answer: dict[str, Any], request: dict[str, Any], start: float | None,
                  end: float | None) -> None:
        kind = RESPONSE if RESPONSE in answer else TOOL_USE if TOOL_USE in answer else None
        if kind is None:
            self.skip(label("assistant", next(iter(answer), None)))
            return
        t = self.at(end)
        if t is None:
            return
        body = as_object(answer[kind])
        model = request.get(REQUEST_MODEL)
        llm = LlmResponse(t, MAIN, model if is_model_name(model) else self.model)
        if start is not None and end is not None and end >= start:
            llm.latency = end - start
        text = body.get(REPLY_TEXT)
        llm.text_chars = len(text) if isinstance(text, str) else 0
        llm.stop = "end_turn" if kind == RESPONSE else "tool_use"
        self.s.facts.append(llm)
        uses = body.get(TOOL_USES) if kind == TOOL_USE else None
        for use in uses if isinstance(uses, list) else []:
            use = as_object(use)
            args = chatlog.first_operation_path(use.get(CALL_ARGS), READ_OPERATIONS, READ_PATH)
            self.open_call(llm, use.get(CALL_ID), use.get(CALL_NAME), args, t, aliases=ALIASES,
                           nameless="tool_use:<no id or name>", again="tool_use:<no id or name>")

    def results(self, found: object, t: float, *, interrupted: bool) -> None:
        for r in found if isinstance(found, list) else []:
            r = as_object(r)
            call_id = r.get(RESULT_CALL)
            c = self.calls.get(call_id) if isinstance(call_id, str) else None
            status = r.get(RESULT_STATUS)
            if c is None or c.call_id in self.done:
                self.skip("tool_use_result:<no call>" if c is None else "<duplicate>")
                continue
            if not isinstance(status, str) or status not in STATUS:
                self.skip(label("status", status if isinstance(status, str) else None))
                continue
            self.done.add(c.call_id)
            size, out = 0, None
            items = r.get(RESULT_CONTENT)
            for item in items if isinstance(items, list) else []:
                value = as_object(item).get(ITEM_TEXT)
                if isinstance(value, str):
                    out, size = value, size + len(value)
                elif ITEM_JSON in as_object(item):
                    size += 1
            res = chatlog.result(c, max(t, c.t), error=STATUS[status] or interrupted, output=out)
            if interrupted:
                res.err_class = "interrupted"
            self.s.facts.append(res)


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    doc = json_doc(raw, where) if raw.strip() else {}
    doc = doc if isinstance(doc, dict) else {}
    reader = ConversationReader(report)
    reader.read(doc)
    who = writer(doc)
    if who is not None:
        report.warn(WRITTEN_BY[who])
    if not reader.s.facts:
        report.warn("the conversation holds no turns: its map has no events")
    reader.s.native_id = session_id(doc.get(CONVERSATION_ID), raw, file_stem)
    return reader.s
