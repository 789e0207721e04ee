"""Cline task logs (`tasks/<id>/ui_messages.json`; Roo Code and Kilo Code alike) -> facts.

The tables are the one table's (`native_table.py`), its keys named in `keys.py`. What the reader derives, and how:

- **Prompts**: the `task` message and each `user_feedback` (length, images, URL count); older
  versions log the task as a `text` before the first request, which is then the first prompt.
- **Model responses**: each `api_req_started` is one llm event: its JSON `text` gives `tokensIn`
  (fresh input), `tokensOut`, `cacheWrites` and `cacheReads`; the `text`, `reasoning`, tools and
  commands after it, up to the next request, are its text length, thinking and tool calls. A
  `cancelReason` is an error (user_cancelled: interrupted). The model is `modelInfo.modelId`.
- **Tool calls**: `tool` messages (their JSON `tool` and `path`), `command` messages (the command
  line, for the verb engine) with the `command_output` after them (byte count, commits, PRs),
  `use_mcp_server` asks (server, tool), `load_mcp_documentation` and `plan_mode_respond`. Cline
  records no tool outcome: an auto-approved call (`say`) gets a result without error and without a
  time of its own; a call awaiting approval (`ask`) gets its result from the next request, whose
  text begins with it (a failure when it says the user denied the operation); with no next request
  it has none, as the log shows none.
- **Errors**: each `error_retry` is one failed attempt (an llm error, retried); the failed request's
  `cancelReason` is the first of them and the `api_req_failed` after the last (`failed: true`) is
  the same failure, each counted once; an `api_req_failed` of its own is an llm error; `error` and
  `mistake_limit_reached` orchestration errors.
- **Working directory**: the first request's `# Current Working Directory (...)` line. On a Windows
  drive, commands ran in VS Code's terminal there, PowerShell: its grammar reads them.
"""
from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any, BinaryIO

from redact.build import outputs
from redact.build.facts import (
    MAIN, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats.cline.keys import (
    ASK, ASK_CASES, BLOCK_TEXT, BLOCK_TYPE, CACHE_READS, CONTENT, HISTORY_MODEL, HISTORY_MODEL_ID, HISTORY_TS,
    RESULT_ERROR, RESULT_ID, ROLE, USE_ID, USE_INPUT, USE_NAME, CACHE_WRITES, CANCEL, COMMAND_DONE, IMAGES, KINDS, MCP_SERVER, MCP_TOOL,
    MCP_URI, MODEL_ID, MODEL_INFO, REQUEST, RETRY_ERROR, RETRY_FAILED, SAY, SAY_CASES, TEXT, TOKENS_IN, TOKENS_OUT,
    TOOL_NAME, TOOL_PATH, TOOL_URL, TS, TYPE,
)
from redact.formats.cline.native_table import (
    H_COMMAND, H_PATH, H_SERVER, H_TOOL, H_URI, HISTORY_PARAMS, HISTORY_TOOLS, TOOLS,
)
from redact.formats.cline.table import REQ_APP, history_like, sniff_doc
from redact.formats.common import (
    LATEST_MS,
    as_float, byte_len, count_urls, session_id, host_of, is_model_name, json_doc, label, parse_json_string, positive_int,
)
from redact.formats.wording import api_error_class
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "cline"
_CWD = re.compile(r"# Current Working Directory \(([^()\n]{1,4096})\) Files")
_TASK_ID = re.compile(r"[0-9]{10,16}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_NAME = re.compile(r"[A-Za-z0-9_.@/-]{1,100}")
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")
#: how the request after a call awaiting approval begins when the user refused it
_DENIED = "The user denied this operation"


#: the extension folders of Cline's forks -> their agentTool (Cline itself: `saoudrizwan.claude-dev`)
FORKS = {"rooveterinaryinc.roo-cline": "roo-code", "kilocode.kilo-code": "kilo-code"}


def fork_of(where: str) -> str:
    """`roo-code` or `kilo-code` when the task sits in that extension's folder, else `cline` (also
    for a task read from stdin or copied elsewhere: the log itself does not say which it is)."""
    parts = {part.lower() for part in PurePath(where).parts}
    return next((tool for folder, tool in FORKS.items() if folder in parts), AGENT_TOOL)


class ClineReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.cwd: str | None = None
        self.resp: LlmResponse | None = None
        self.command: tuple[ToolCall, list[str], bool] | None = None  # the open command, its output, ran
        self.mcp: ToolCall | None = None
        self.n = 0
        self.waiting: list[ToolCall] = []  # calls awaiting approval: the next request shows their result
        self.prompted = False
        self.failing: ErrorFact | None = None  # a failed request's error, until its first error_retry
        self.gave_up = False  # the last attempt failed (error_retry failed: true): api_req_failed repeats it

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, messages: list[Any]) -> None:
        last_t: float | None = None
        for m in messages:
            if not isinstance(m, dict) or m.get(TYPE) not in KINDS:
                self.skip("<not a message>")
                continue
            kind = m[TYPE]
            sub = m.get(kind)
            t = as_float(m.get(TS))
            t = t if t is not None and 0 <= t < LATEST_MS else last_t
            if not isinstance(sub, str) or t is None:
                self.skip(label(kind, sub if isinstance(sub, str) else None) + ("" if t is not None else ":<no time>"))
                continue
            last_t = t
            if self.s.first_seen is None:
                self.s.first_seen = t
            self.s.ends(t)  # a closing message that is no event (completion_result) still ends the task
            if sub != "command_output":
                self.close_command(t)
            if sub != "api_req_failed":
                self.gave_up = False
            table = SAY_CASES if kind == SAY else ASK_CASES
            if table.get(sub) != "mapped":
                self.skip(label(kind, sub))
                continue
            getattr(self, f"{kind}_{sub}")(m, t)
        self.close_command(last_t or 0.0)

    # -- helpers -----------------------------------------------------------------------------------
    def text(self, m: dict[str, Any]) -> str:
        text = m.get(TEXT)
        return text if isinstance(text, str) else ""

    def model(self, m: dict[str, Any]) -> str | None:
        info = m.get(MODEL_INFO)
        model = info.get(MODEL_ID) if isinstance(info, dict) else None
        return model if is_model_name(model) else None

    def response(self, m: dict[str, Any], t: float) -> LlmResponse:
        if self.resp is None:  # output no logged request produced: counted nowhere, never invented
            return LlmResponse(t, MAIN, None)
        return self.resp

    def call(self, m: dict[str, Any], t: float, name: str, kind: str, *, ran: bool) -> ToolCall:
        self.n += 1
        resp = self.response(m, t)
        resp.tool_calls += 1
        resp.stop = "tool_use"
        call = ToolCall(t, MAIN, f"cline-{self.n}", name, kind)  # type: ignore[arg-type]
        self.add(call)
        return call

    def done(self, call: ToolCall, t: float, text: str = "") -> ToolResult:
        res = ToolResult(t, call.call_id, False, out_bytes=byte_len(text) if text else None, timed=False)
        self.add(res)
        return res

    def prompt(self, m: dict[str, Any], t: float) -> None:
        text = self.text(m)
        images = m.get(IMAGES)
        count = len(images) if isinstance(images, list) else 0
        if text or count:
            self.add(UserTurn(t, MAIN, len(text), count, count_urls(text)))
            self.prompted = True
        self.resp = None
        self.failing = None

    # -- say ---------------------------------------------------------------------------------------
    def say_task(self, m: dict[str, Any], t: float) -> None:
        self.prompt(m, t)

    def say_user_feedback(self, m: dict[str, Any], t: float) -> None:
        self.prompt(m, t)

    def say_api_req_started(self, m: dict[str, Any], t: float) -> None:
        info = parse_json_string(self.text(m))
        info = info if isinstance(info, dict) else {}
        request = info.get(REQUEST)
        self.answered(request if isinstance(request, str) else "", t)
        self.failing = None
        resp = LlmResponse(t, MAIN, self.model(m), inp=positive_int(info.get(TOKENS_IN)),
                           out=positive_int(info.get(TOKENS_OUT)), cw=positive_int(info.get(CACHE_WRITES)),
                           cr=positive_int(info.get(CACHE_READS)), stop="end_turn")
        self.add(resp)
        self.resp = resp
        if self.cwd is None and isinstance(request, str):
            found = _CWD.search(request[:200_000])
            if found:
                self.cwd = found.group(1).strip()
        cancel = info.get(CANCEL)
        if isinstance(cancel, str) and cancel:
            resp.stop = None
            error = ErrorFact(t, MAIN, "orchestration" if cancel == "user_cancelled" else "llm",
                              "interrupted" if cancel == "user_cancelled" else "api_error")
            self.add(error)
            self.failing = error if cancel != "user_cancelled" else None

    def answered(self, request: str, t: float) -> None:
        """The calls that waited for approval: the request after them begins with their result."""
        denied = _DENIED in request[:4000]
        for call in self.waiting:
            res = ToolResult(t, call.call_id, denied, timed=False)
            res.err_class = "permission_denied" if denied else None
            self.add(res)
        self.waiting = []
        if self.mcp is not None:
            self.add(ToolResult(t, self.mcp.call_id, denied, err_class="permission_denied" if denied else None,
                                timed=False))
            self.mcp = None

    def say_text(self, m: dict[str, Any], t: float) -> None:
        if not self.prompted and self.resp is None:  # an older version's task: the first prompt
            self.prompt(m, t)
            return
        self.response(m, t).text_chars += len(self.text(m))

    def say_reasoning(self, m: dict[str, Any], t: float) -> None:
        self.response(m, t).thinking = True

    def say_tool(self, m: dict[str, Any], t: float, *, ran: bool = True) -> None:
        info = parse_json_string(self.text(m))
        info = info if isinstance(info, dict) else {}
        name = info.get(TOOL_NAME)
        name = name if isinstance(name, str) and _NAME.fullmatch(name) else "unknown"
        kind, op = TOOLS.get(name, ("tool", None))
        call = self.call(m, t, name, kind, ran=ran)
        path = info.get(TOOL_PATH)
        if kind == "web":
            call.host = "search" if name == "webSearch" else host_of(path if isinstance(path, str) else info.get(TOOL_URL))
        elif kind in ("read", "edit", "search") and isinstance(path, str) and path:
            call.paths = (path,) if kind != "search" else ()
            call.op = op
        if ran:
            self.done(call, t)
        else:
            self.waiting.append(call)

    def say_command(self, m: dict[str, Any], t: float, *, ran: bool = True) -> None:
        line = self.text(m)
        line = line.removesuffix(REQ_APP)
        call = self.call(m, t, "execute_command", "exec", ran=ran)
        call.command = line
        if self.cwd is not None and _DRIVE.match(self.cwd):
            call.shell = "powershell"  # VS Code's terminal on Windows: the session's shell decides the grammar
        self.command = (call, [], ran or m.get(COMMAND_DONE) is True)

    def say_command_output(self, m: dict[str, Any], t: float) -> None:
        if self.command is None:
            self.skip("command_output:<no command>")
            return
        call, out, _ = self.command
        out.append(self.text(m))
        self.command = (call, out, True)

    def close_command(self, t: float) -> None:
        if self.command is None:
            return
        call, out, ran = self.command
        self.command = None
        if ran:
            text = "\n".join(out)
            res = self.done(call, call.t, text)
            res.outputs = outputs.shell_outputs(call.command or "", text, False)
        else:
            self.waiting.append(call)

    def say_mcp_server_response(self, m: dict[str, Any], t: float) -> None:
        if self.mcp is not None:
            self.done(self.mcp, t, self.text(m))
            self.mcp = None

    def say_error_retry(self, m: dict[str, Any], t: float) -> None:
        info = parse_json_string(self.text(m))
        message = info.get(RETRY_ERROR) if isinstance(info, dict) else self.text(m)
        cls = api_error_class(message if isinstance(message, str) else "")
        last = isinstance(info, dict) and info.get(RETRY_FAILED) is True
        if self.failing is not None:  # the failed request's own error is this attempt's
            self.failing.retry, self.failing.err_class = not last, cls
            self.failing = None
        else:
            self.add(ErrorFact(t, MAIN, "llm", cls, retry=not last))
        self.gave_up = last

    def say_load_mcp_documentation(self, m: dict[str, Any], t: float) -> None:
        self.done(self.call(m, t, "load_mcp_documentation", "tool", ran=True), t)

    def say_error(self, m: dict[str, Any], t: float) -> None:
        self.add(ErrorFact(t, MAIN, "orchestration", "api_error"))

    def say_browser_action_launch(self, m: dict[str, Any], t: float) -> None:
        self.done(self.call(m, t, "browser_action", "tool", ran=True), t)

    # -- ask ---------------------------------------------------------------------------------------
    def ask_tool(self, m: dict[str, Any], t: float) -> None:
        self.say_tool(m, t, ran=False)

    def ask_command(self, m: dict[str, Any], t: float) -> None:
        self.say_command(m, t, ran=False)

    def ask_command_output(self, m: dict[str, Any], t: float) -> None:
        self.say_command_output(m, t)

    def ask_use_mcp_server(self, m: dict[str, Any], t: float) -> None:
        info = parse_json_string(self.text(m))
        info = info if isinstance(info, dict) else {}
        server, tool = info.get(MCP_SERVER), info.get(MCP_TOOL) or info.get(MCP_URI)
        call = self.call(m, t, "use_mcp_tool", "mcp", ran=False)
        call.server = server if isinstance(server, str) and server else None
        call.tool = tool if isinstance(tool, str) and _NAME.fullmatch(tool) else None
        self.mcp = call

    def ask_followup(self, m: dict[str, Any], t: float) -> None:
        call = self.call(m, t, "ask_followup_question", "tool", ran=True)
        call.waits_on_user = True
        self.done(call, t)

    def ask_plan_mode_respond(self, m: dict[str, Any], t: float) -> None:
        call = self.call(m, t, "plan_mode_respond", "tool", ran=True)
        call.waits_on_user = True
        self.done(call, t)

    def ask_api_req_failed(self, m: dict[str, Any], t: float) -> None:
        if self.gave_up:  # the last attempt's error_retry already counted this failure
            self.gave_up = False
            return
        self.add(ErrorFact(t, MAIN, "llm", api_error_class(self.text(m)), retry=False))

    def ask_mistake_limit_reached(self, m: dict[str, Any], t: float) -> None:
        self.add(ErrorFact(t, MAIN, "orchestration", "api_error"))

    def ask_browser_action_launch(self, m: dict[str, Any], t: float) -> None:
        self.waiting.append(self.call(m, t, "browser_action", "tool", ran=False))

    def finish(self, where: str, data: bytes) -> SessionFacts:
        s = self.s
        s.agent_tool = fork_of(where)
        task = PurePath(where).parent.name
        s.native_id = session_id(task if _TASK_ID.fullmatch(task) else None, data)
        if self.cwd:
            s.cwd = self.cwd
            settle(s, (self.cwd,))  # a repository only on evidence (redact/formats/roots.py)
        return s


# each subtype the tree maps has its method (`<say|ask>_<subtype>`)
assert all(hasattr(ClineReader, f"{kind}_{sub}") for kind, cases in ((SAY, SAY_CASES), (ASK, ASK_CASES))
           for sub, how in cases.items() if how == "mapped")


_XML_TOOL = re.compile(r"<(" + "|".join(HISTORY_TOOLS) + r")>(.{0,200000}?)</\1>", re.DOTALL)
_PARAM = {name: re.compile(rf"<{name}>\s*(.{{1,4096}}?)\s*</{name}>", re.DOTALL)
          for name in HISTORY_PARAMS}
_PROMPT = re.compile(r"<(task|feedback|answer|user_message)>(.{0,1000000}?)</\1>", re.DOTALL)
_RESULT = re.compile(r"^\[[a-z_]{1,40}(?: for [^\n]{0,4096}?)?\] (?:Result:|The user denied this operation)")


class HistoryReader(ClineReader):
    """A task folder's api_conversation_history.json (no ui_messages.json beside it): the messages
    sent to the model. A user message's `<task>`, `<feedback>`, `<answer>` or `<user_message>` is a
    prompt (its length) and its `[tool ...] Result:` texts (or `tool_result` blocks) the results of
    the calls before it (a failure when the user denied the operation); an assistant message is an
    llm event whose calls are its `tool_use` blocks and the XML tool tags of its text (tool, path,
    command, MCP server and tool). Times are each message's `ts`; a history without them takes the
    task's own time (its folder's name, the epoch ms Cline named it by) for every event, and says so;
    with neither, its messages are skipped and counted (no time is made up)."""

    def history(self, messages: list[Any], task_time: float | None) -> None:
        open_calls: list[ToolCall] = []
        last_t: float | None = None
        for m in messages:
            if not isinstance(m, dict) or m.get(ROLE) not in ("user", "assistant"):
                self.skip("<not a message>")
                continue
            t = as_float(m.get(HISTORY_TS))
            if t is None or not 0 <= t < LATEST_MS:
                t = last_t if last_t is not None else task_time
                if t is not None and last_t is None:
                    self.skip("history:<no time: the task's start>")
            if t is None:
                self.skip(f"{m[ROLE]}:<no time>")
                continue
            last_t = t
            self.s.saw(t)
            self.s.ends(t)
            content = m.get(CONTENT)
            blocks = [{BLOCK_TYPE: "text", BLOCK_TEXT: content}] if isinstance(content, str) else \
                [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
            if m[ROLE] == "user":
                open_calls = self.history_user(blocks, t, open_calls)
            else:
                open_calls = self.history_assistant(m, blocks, t)

    def history_user(self, blocks: list[dict[str, Any]], t: float, open_calls: list[ToolCall]) -> list[ToolCall]:
        by_id = {c.call_id: c for c in open_calls}
        answered: set[str] = set()
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if kind == "tool_result" and isinstance(b.get(RESULT_ID), str) and b[RESULT_ID] in by_id:
                failed = b.get(RESULT_ERROR) is True
                self.add(ToolResult(t, b[RESULT_ID], failed, err_class="other" if failed else None, timed=False))
                answered.add(b[RESULT_ID])
                continue
            text = b.get(BLOCK_TEXT) if kind == "text" else None
            if not isinstance(text, str):
                continue
            if _RESULT.match(text):
                call = next((c for c in open_calls if c.call_id not in answered), None)
                if call is not None:
                    denied = _DENIED in text[:4000]
                    self.add(ToolResult(t, call.call_id, denied, err_class="permission_denied" if denied else None,
                                        timed=False))
                    answered.add(call.call_id)
                continue
            for _, body in _PROMPT.findall(text[:2_000_000]):
                self.add(UserTurn(t, MAIN, len(body.strip()), 0, count_urls(body)))
            if self.cwd is None:
                found = _CWD.search(text[:200_000])
                if found:
                    self.cwd = found.group(1).strip()
        return [c for c in open_calls if c.call_id not in answered]

    def history_assistant(self, m: dict[str, Any], blocks: list[dict[str, Any]], t: float) -> list[ToolCall]:
        info = m.get(HISTORY_MODEL)
        model = info.get(HISTORY_MODEL_ID) if isinstance(info, dict) else None
        resp = LlmResponse(t, MAIN, model if is_model_name(model) else None, stop="end_turn")
        self.add(resp)
        self.resp = resp
        calls: list[ToolCall] = []
        for b in blocks:
            kind = b.get(BLOCK_TYPE)
            if kind == "tool_use":
                name, args, use_id = b.get(USE_NAME), b.get(USE_INPUT), b.get(USE_ID)
                call = self.history_call(name if isinstance(name, str) else "unknown",
                                         args if isinstance(args, dict) else {}, t)
                if isinstance(use_id, str) and _NAME.fullmatch(use_id):
                    call.call_id = use_id  # its tool_result names it
                calls.append(call)
            elif kind == "text" and isinstance(b.get(BLOCK_TEXT), str):
                text = b[BLOCK_TEXT]
                resp.text_chars += len(text)
                for name, body in _XML_TOOL.findall(text[:1_000_000]):
                    params = {k: found.group(1) for k, rx in _PARAM.items() if (found := rx.search(body))}
                    calls.append(self.history_call(name, params, t))
        return calls

    def history_call(self, name: str, args: dict[str, Any], t: float) -> ToolCall:
        name = name if _NAME.fullmatch(name) else "unknown"
        kind = HISTORY_TOOLS.get(name, "tool")
        call = self.call({}, t, name, kind, ran=False)
        path, command = args.get(H_PATH), args.get(H_COMMAND)
        if kind in ("read", "edit") and isinstance(path, str) and path:
            call.paths = (path,)
            call.op = "modify" if name == "replace_in_file" else None
        elif kind == "exec":
            call.command = command if isinstance(command, str) else ""
            if self.cwd is not None and _DRIVE.match(self.cwd):
                call.shell = "powershell"
        elif kind == "mcp":
            server, tool = args.get(H_SERVER), args.get(H_TOOL) or args.get(H_URI)
            call.server = server if isinstance(server, str) and _NAME.fullmatch(server) else None
            call.tool = tool if isinstance(tool, str) and _NAME.fullmatch(tool) else None
        elif name in ("ask_followup_question", "plan_mode_respond"):
            call.waits_on_user = True
        return call


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = bytes(data) if isinstance(data, (bytes, bytearray)) else data.read()
    reader = HistoryReader(report)
    if raw.strip():
        doc = json_doc(raw, where)
        if sniff_doc(doc) and history_like(doc):
            task = PurePath(where).parent.name
            task_time = float(task) if re.fullmatch(r"1[0-9]{12}", task) else None
            reader.history(doc, task_time)
        elif sniff_doc(doc):
            reader.read(doc)
        else:
            reader.skip("<not a task log>")
    return reader.finish(where, raw)
