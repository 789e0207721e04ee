"""Cline task logs (`tasks/<id>/ui_messages.json`; Roo Code and Kilo Code alike) -> facts.

The tables are the one table's (`native_table.py`), its keys named in `keys.py`. What the reader derives, and how:

- **Prompts**: the `task` message and each `user_feedback` (length, images, URL count).
- **Model responses**: each `api_req_started` is one llm event: its JSON `text` gives `tokensIn`
  (fresh input), `tokensOut`, `cacheWrites` and `cacheReads`; the `text`, `reasoning`, tools and
  commands after it, up to the next request, are its text length, thinking and tool calls. A
  `cancelReason` is an error (user_cancelled: interrupted). The model is `modelInfo.modelId`.
- **Tool calls**: `tool` messages (their JSON `tool` and `path`), `command` messages (the command
  line, for the verb engine) with the `command_output` after them (byte count, commits, PRs),
  `use_mcp_server` asks (server, tool). Cline records no tool outcome: an auto-approved call (`say`)
  gets a result without error and without a time of its own; a call awaiting approval (`ask`) has
  no result, as the log shows none.
- **Errors**: `error_retry` (retried) and `api_req_failed` are llm errors; `error` and
  `mistake_limit_reached` orchestration errors.
- **Working directory**: the first request's `# Current Working Directory (...)` line.
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
    ASK, ASK_CASES, CACHE_READS, CACHE_WRITES, CANCEL, COMMAND_DONE, IMAGES, KINDS, MCP_SERVER, MCP_TOOL,
    MCP_URI, MODEL_ID, MODEL_INFO, REQUEST, RETRY_ERROR, SAY, SAY_CASES, TEXT, TOKENS_IN, TOKENS_OUT,
    TOOL_NAME, TOOL_PATH, TOOL_URL, TS, TYPE,
)
from redact.formats.cline.native_table import TOOLS
from redact.formats.cline.table import REQ_APP, sniff_doc
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
            if sub != "command_output":
                self.close_command(t)
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
        self.resp = None

    # -- say ---------------------------------------------------------------------------------------
    def say_task(self, m: dict[str, Any], t: float) -> None:
        self.prompt(m, t)

    def say_user_feedback(self, m: dict[str, Any], t: float) -> None:
        self.prompt(m, t)

    def say_api_req_started(self, m: dict[str, Any], t: float) -> None:
        info = parse_json_string(self.text(m))
        info = info if isinstance(info, dict) else {}
        resp = LlmResponse(t, MAIN, self.model(m), inp=positive_int(info.get(TOKENS_IN)),
                           out=positive_int(info.get(TOKENS_OUT)), cw=positive_int(info.get(CACHE_WRITES)),
                           cr=positive_int(info.get(CACHE_READS)), stop="end_turn")
        self.add(resp)
        self.resp = resp
        request = info.get(REQUEST)
        if self.cwd is None and isinstance(request, str):
            found = _CWD.search(request[:200_000])
            if found:
                self.cwd = found.group(1).strip()
        cancel = info.get(CANCEL)
        if isinstance(cancel, str) and cancel:
            resp.stop = None
            self.add(ErrorFact(t, MAIN, "orchestration" if cancel == "user_cancelled" else "llm",
                               "interrupted" if cancel == "user_cancelled" else "api_error"))

    def say_text(self, m: dict[str, Any], t: float) -> None:
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

    def say_command(self, m: dict[str, Any], t: float, *, ran: bool = True) -> None:
        line = self.text(m)
        line = line.removesuffix(REQ_APP)
        call = self.call(m, t, "execute_command", "exec", ran=ran)
        call.command = line
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

    def say_mcp_server_response(self, m: dict[str, Any], t: float) -> None:
        if self.mcp is not None:
            self.done(self.mcp, t, self.text(m))
            self.mcp = None

    def say_error_retry(self, m: dict[str, Any], t: float) -> None:
        info = parse_json_string(self.text(m))
        message = info.get(RETRY_ERROR) if isinstance(info, dict) else self.text(m)
        self.add(ErrorFact(t, MAIN, "llm", api_error_class(message if isinstance(message, str) else ""),
                           retry=True))

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

    def ask_api_req_failed(self, m: dict[str, Any], t: float) -> None:
        self.add(ErrorFact(t, MAIN, "llm", api_error_class(self.text(m)), retry=False))

    def ask_mistake_limit_reached(self, m: dict[str, Any], t: float) -> None:
        self.add(ErrorFact(t, MAIN, "orchestration", "api_error"))

    def ask_browser_action_launch(self, m: dict[str, Any], t: float) -> None:
        self.call(m, t, "browser_action", "tool", ran=False)

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


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = bytes(data) if isinstance(data, (bytes, bytearray)) else data.read()
    reader = ClineReader(report)
    if raw.strip():
        doc = json_doc(raw, where)
        if sniff_doc(doc):
            reader.read(doc)
        else:
            reader.skip("<not a task log>")
    return reader.finish(where, raw)
