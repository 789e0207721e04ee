"""The chat record Gemini CLI writes and Qwen Code (its fork) inherited, read into facts: one reader
for both, given the names each format's one table classifies (`RecordKeys`, built in each folder's
keys.py) and its model message type and tools (the table's parts are
`redact/formats/gemini_record_table.py`).

- **Messages.** The last writing of a message id is the message, at the place of its first writing
  (Gemini CLI's JSONL layout writes a message again, whole, when its tool calls or tokens change).
- **Prompts.** Each `user` message: its length, URL count and images.
- **Model responses.** Each model message (`gemini`, `qwen`) is one llm event: `model`, tokens
  (`input` includes the cached part: fresh input is `input - cached`; `thoughts` are output tokens
  the model spent thinking, so `out` is `output + thoughts`), `thoughts[]` sets thinking, `content`
  its textChars, `toolCalls[]` its tool calls. The stop reason is not recorded: it is inferred from
  the calls.
- **Tool calls.** Each `toolCalls[]` entry is a call (at the message's time) and its result (at the
  entry's own `timestamp`, when the tool finished): `status` `error` / `cancelled` is an error
  (`interrupted` for cancelled); the shell's output gives its exit code (`Exit Code: N`) and the
  commits or PRs it confirms.
- **Errors.** `error` messages are llm errors; the `info` message `Request cancelled.` is an
  interruption.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from redact.build import outputs
from redact.build.facts import MAIN, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn
from redact.formats.common import byte_len, count_urls, epoch_ms, host_of, is_model_name, label, positive_int, text_chars
from redact.formats.gemini_record_table import CANCELLED, RecordKeys
from redact.formats.wording import api_error_class, error_class
from redact.report import RedactionReport

_EXIT = re.compile(r"^Exit Code: (-?\d{1,5})[ \t]*$", re.MULTILINE)
_URL = re.compile(r"https?://[^\s\"'<>]{1,2000}")


@dataclass(frozen=True)
class Dialect:
    """What differs between the formats that write the record: the agent tool, the model message
    type, the tool table (tool name -> event kind), the tools whose time is the user's, the MCP
    tool name pattern, and the edit tools whose op is `modify`."""

    agent_tool: str
    model_type: str
    tools: Mapping[str, str]
    waits_on_user: frozenset[str]
    mcp_name: re.Pattern[str]
    modify: frozenset[str] = frozenset({"replace", "edit"})
    web_search: frozenset[str] = frozenset({"google_web_search"})


class RecordReader:
    def __init__(self, report: RedactionReport, keys: RecordKeys, dialect: Dialect) -> None:
        self.report = report
        self.k = keys
        self.d = dialect
        self.s = SessionFacts(agent_tool=dialect.agent_tool, native_id="")
        self.native: str | None = None
        self.dirs: list[str] = []
        self.messages: dict[str, dict[str, Any]] = {}  # id -> its last writing, in first-writing order
        self.seen_calls: set[str] = set()

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    # -- input -------------------------------------------------------------------------------------
    def document(self, doc: dict[str, Any]) -> None:
        """The single-JSON layout: the metadata and its messages."""
        self.metadata(doc)
        messages = doc.get(self.k.messages)
        for message in messages if isinstance(messages, list) else []:
            self.upsert(message)

    def metadata(self, meta: dict[str, Any]) -> None:
        sid = meta.get(self.k.session_id)
        if isinstance(sid, str) and sid and self.native is None:
            self.native = sid
        start = epoch_ms(meta.get(self.k.start))
        if start is not None:
            self.s.first_seen = start
        if meta.get(self.k.kind) == "subagent":
            self.s.role = "subagent"
        self.dirs_of(meta.get(self.k.directories))

    def dirs_of(self, value: object) -> None:
        if isinstance(value, list):
            for d in value:
                if isinstance(d, str) and d and d not in self.dirs:
                    self.dirs.append(d)

    def upsert(self, message: object) -> None:
        if not isinstance(message, dict):
            self.skip("<not a message>")
            return
        mid = message.get(self.k.message_id)
        kind = message.get(self.k.message_type)
        if not isinstance(mid, str) or not mid or not isinstance(kind, str) or kind not in self.k.message_kinds:
            self.skip(label("message", kind if isinstance(kind, str) else None))
            return
        self.messages[mid] = message

    # -- facts -------------------------------------------------------------------------------------
    def facts(self) -> None:
        last_t = self.s.first_seen
        for message in self.messages.values():
            kind = message[self.k.message_type]
            t = epoch_ms(message.get(self.k.at))
            if t is None:
                t = last_t
            if t is None:
                self.skip(label("message", kind) + ":<no time>")
                continue
            last_t = t
            self.s.saw(t)
            if kind == "user":
                self.on_user(message, t)
            elif kind == self.d.model_type:
                self.on_model(message, t)
            elif kind == "error":
                content = message.get(self.k.content)
                self.add(ErrorFact(t, MAIN, "llm", api_error_class(content if isinstance(content, str) else "")))
            elif kind == "info" and message.get(self.k.content) == CANCELLED:
                self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))
            else:
                self.skip(label(kind))

    def on_user(self, m: dict[str, Any], t: float) -> None:
        content = m.get(self.k.content)
        chars = text_chars(content)
        texts = [content] if isinstance(content, str) else [
            p[self.k.text] for p in content if isinstance(p, dict) and isinstance(p.get(self.k.text), str)
        ] if isinstance(content, list) else []
        images = sum(1 for p in content if isinstance(p, dict) and self.k.inline_data in p) \
            if isinstance(content, list) else 0
        if chars or images:
            self.add(UserTurn(t, MAIN, chars, images, sum(count_urls(x) for x in texts)))

    def on_model(self, m: dict[str, Any], t: float) -> None:
        model = m.get(self.k.model)
        resp = LlmResponse(t, MAIN, model if is_model_name(model) else None)
        tokens = m.get(self.k.tokens)
        if isinstance(tokens, dict):
            inp, cached = positive_int(tokens.get(self.k.tokens_in)), positive_int(tokens.get(self.k.cached))
            cached = min(cached, inp)
            resp.inp, resp.cr = inp - cached, cached
            resp.out = positive_int(tokens.get(self.k.tokens_out)) + positive_int(tokens.get(self.k.thinking))
        thoughts = m.get(self.k.thoughts)
        resp.thinking = bool(thoughts) if isinstance(thoughts, list) else False
        resp.text_chars = text_chars(m.get(self.k.content))
        calls = m.get(self.k.tool_calls)
        calls = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
        resp.stop = "tool_use" if calls else "end_turn"  # not recorded: inferred
        self.add(resp)
        for tc in calls:
            if self.tool_call(tc, t):
                resp.tool_calls += 1

    # -- tools -------------------------------------------------------------------------------------
    def tool_call(self, tc: dict[str, Any], t: float) -> bool:
        call_id = tc.get(self.k.call_id)
        if not isinstance(call_id, str) or not call_id or call_id in self.seen_calls:
            self.skip("<call without id>" if not isinstance(call_id, str) or not call_id else "<duplicate>")
            return False
        self.seen_calls.add(call_id)
        name = tc.get(self.k.call_name)
        name = name if isinstance(name, str) and name else "unknown"
        args = tc.get(self.k.call_args)
        call = make_call(self.k, self.d, name, args if isinstance(args, dict) else {}, call_id, t)
        self.add(call)
        done = epoch_ms(tc.get(self.k.call_done))
        res_t = done if done is not None and done >= t else t
        output, error = self.response(tc)
        self.add(make_result(call, res_t, status=tc.get(self.k.call_status), output=output, error=error))
        return True

    def response(self, tc: dict[str, Any]) -> tuple[str, str]:
        """(output, error) text of a tool call's functionResponse parts."""
        return response_texts(self.k, tc.get(self.k.call_result))


def response_texts(k: RecordKeys, parts: object) -> tuple[str, str]:
    """(output, error) text of a list of `{functionResponse: {response: {output, error}}}` parts."""
    out: list[str] = []
    err: list[str] = []
    for part in parts if isinstance(parts, list) else []:
        fr = part.get(k.function_response) if isinstance(part, dict) else None
        resp = fr.get(k.response) if isinstance(fr, dict) else None
        if isinstance(resp, dict):
            if isinstance(resp.get(k.output), str):
                out.append(resp[k.output])
            if isinstance(resp.get(k.error), str):
                err.append(resp[k.error])
    return "\n".join(out), "\n".join(err)


def make_call(k: RecordKeys, d: Dialect, name: str, args: dict[str, Any], call_id: str, t: float,
              agent: str = MAIN) -> ToolCall:
    """The ToolCall of a tool call: the kind from the dialect's tools, and only the fields it names."""
    kind = d.tools.get(name)
    if kind is None:
        m = d.mcp_name.fullmatch(name)
        if m:
            return ToolCall(t, agent, call_id, name, "mcp", server=m.group(1), tool=m.group(2))
        return ToolCall(t, agent, call_id, name, "tool")
    call = ToolCall(t, agent, call_id, name, kind, waits_on_user=name in d.waits_on_user)  # type: ignore[arg-type]
    if kind in ("read", "edit"):
        path = next((args[key] for key in k.path_args if isinstance(args.get(key), str) and args[key]), None)
        if path is not None:
            call.paths = (path,)
        call.op = "modify" if name in d.modify else None
    elif kind == "exec":
        command = args.get(k.command)
        call.command = command if isinstance(command, str) else ""
    elif kind == "web":
        if name in d.web_search:
            call.host = "search"
        else:
            prompt = args.get(k.prompt) if isinstance(args.get(k.prompt), str) else args.get(k.url)
            m = _URL.search(prompt[:4000]) if isinstance(prompt, str) else None
            call.host = host_of(m.group(0)) if m else None
    elif kind == "subagent":
        call.subagent_type = name
    return call


def shell_output(text: str) -> str:
    """The command's own output in the shell tool's result (`Command: ...`, `Directory: ...`,
    `Output: <output>`, `Error: ...`, `Exit Code: N`): what git or gh printed, for the confirmations
    of `redact.build.outputs`; any other text as it is."""
    if not text.startswith("Command: "):
        return text
    start = text.find("\nOutput: ")
    if start == -1:
        return text
    body = text[start + len("\nOutput: "):]
    end = min((i for i in (body.rfind("\nError: "), body.rfind("\nExit Code: ")) if i != -1), default=len(body))
    return body[:end]


def make_result(call: ToolCall, t: float, *, status: object, output: str, error: str,
                error_class_of: str | None = None) -> ToolResult:
    """The result of a tool call from its status (`success`, `error`, `cancelled`), output and error
    texts; `error_class_of`: an errClass the log states itself (Qwen Code's `errorType`)."""
    res = ToolResult(t, call.call_id, False, out_bytes=byte_len(output) if output or error else None)
    if call.kind == "exec":
        codes = _EXIT.findall(output[-4000:])  # the harness's header follows the command's output
        res.exit_code = int(codes[-1]) if codes else None
    if status == "cancelled":
        res.is_error, res.err_class = True, "interrupted"
    elif status == "error" or (status != "success" and error):
        res.is_error = True
        text = error or output
        res.err_class = error_class_of or error_class(text, call.name)
        if call.kind == "edit" and ("occurrence" in text[:400].lower() or "old_string" in text[:400]):
            res.err_class = "patch_failed"
    elif res.exit_code not in (None, 0):
        res.is_error, res.err_class = True, "exit_code"
    if call.kind == "exec" and call.command:
        res.outputs = outputs.shell_outputs(call.command, shell_output(output), res.is_error)
    elif call.kind == "mcp":
        res.outputs = outputs.mcp_outputs(call.tool or "", output, res.is_error)
    return res
