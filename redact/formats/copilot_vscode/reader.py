"""VS Code Copilot Chat sessions (`chatSessions/<uuid>.json`, and exported chats) -> facts.

The tables are in `table.py`. What the reader derives, and how (every event of a request takes the
request's `timestamp`: rounds and tool calls carry no time of their own, so durations are unknown):

- **Prompts**: each request's `message.text` (length, URL count; image variables counted).
- **Model responses**: each round of `result.metadata.toolCallRounds` is one llm event (its
  `response` length, its tool calls); a request without rounds that shows markdown is one llm event.
  The model is `modelId` (`copilot/` dropped). No token counts are recorded in the samples seen:
  tokens stay absent (`result.metadata.promptTokens`/`outputTokens` are read when present).
- **Tool calls**: the rounds' `toolCalls` (name, JSON arguments), with the byte count of
  `toolCallResults`; the `toolInvocationSerialized` parts of the response give `isError` and the MCP
  server, paired in order with the calls of the same tool; an invocation no round lists is a call of
  its own (its `toolSpecificData` input read).
- **Errors**: `result.errorDetails` is an llm error; `isCanceled` an interruption.
"""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote, urlsplit

import orjson

from redact.build import outputs
from redact.build.facts import (
    MAIN,
    ErrorFact,
    Fact,
    LlmResponse,
    SessionFacts,
    ToolCall,
    ToolResult,
    UserTurn,
)
from redact.formats.claude_code.tools import error_class
from redact.formats.codex.events import error_class as api_error_class
from redact.formats.codex.tools import patch_targets
from redact.formats.common import (
    as_float,
    byte_len,
    count_urls,
    fallback_id,
    host_of,
    is_model_name,
    json_doc,
    native_id,
    parse_json_string,
    positive_int,
)
from redact.formats.copilot_vscode.table import (
    COMMAND_ARGS,
    CREATES,
    PATCHES,
    PATH_ARGS,
    TOOLS,
    replay,
    sniff,
    sniff_doc,
)
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport
from redact.roots import settle

AGENT_TOOL = "copilot-vscode"
_LATEST = 7_258_118_400_000.0
_ERROR_CODES = {"rateLimited": "rate_limit", "quotaExceeded": "usage_limit", "canceled": "interrupted",
                "offTopic": "refusal_fallback", "filtered": "refusal_fallback", "responseFiltered": "refusal_fallback"}


def _ms(value: object) -> float | None:
    found = as_float(value)
    return found if found is not None and 0 <= found < _LATEST else None


def _model(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    name = value.removeprefix("copilot/")
    return name if is_model_name(name) else None


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("value"), str):
        return value["value"]  # type: ignore[no-any-return]
    return ""


def folder_of(uri: object) -> str | None:
    """A local folder from a `file://` URI of workspace.json (`file:///c%3A/src/app` -> `c:/src/app`)."""
    if not isinstance(uri, str) or not uri.startswith("file://"):
        return None
    path = unquote(urlsplit(uri).path)
    if re.match(r"^/[A-Za-z]:/", path):
        path = path[1:]
    return path or None


def make_call(name: str, args: dict[str, Any], call_id: str, t: float, base: str | None,
              server: str | None = None) -> ToolCall:
    if name.startswith("mcp_"):
        rest = name[4:]
        if server and rest.startswith(server + "_"):
            return ToolCall(t, MAIN, call_id, name, "mcp", server=server, tool=rest[len(server) + 1:])
        srv, _, tool = rest.partition("_")
        return ToolCall(t, MAIN, call_id, name, "mcp", server=srv or None, tool=tool or None)
    kind = TOOLS.get(name, "tool")
    call = ToolCall(t, MAIN, call_id, name, kind)  # type: ignore[arg-type]
    if name in PATCHES:
        patch = args.get("input") if isinstance(args.get("input"), str) else args.get("patch")
        call.paths, call.path_ops = patch_targets(patch if isinstance(patch, str) else "", base)
        call.op = "modify"
    elif kind in ("read", "edit"):
        path = next((args[k] for k in PATH_ARGS if isinstance(args.get(k), str) and args[k]), None)
        if path is not None:
            call.paths = (path,)
        if kind == "edit":
            call.op = "create" if name in CREATES else "modify"
    elif kind == "exec":
        command = next((args[k] for k in COMMAND_ARGS if isinstance(args.get(k), str)), "")
        call.command = command
    elif kind == "web":
        urls: list[Any] = args["urls"] if isinstance(args.get("urls"), list) else [args.get("url")]
        call.host = next((h for h in (host_of(u) for u in urls[:20]) if h), None)
    return call


class VscodeReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.native: str | None = None
        self.base: str | None = None
        self.last_t: float | None = None
        self.ids: set[str] = set()

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def document(self, doc: dict[str, Any]) -> None:
        sid = doc.get("sessionId")
        if isinstance(sid, str) and sid:
            self.native = sid
        self.s.first_seen = _ms(doc.get("creationDate"))
        self.last_t = self.s.first_seen
        for request in doc["requests"]:
            if isinstance(request, dict):
                self.request(request)
            else:
                self.skip("<not a request>")

    def request(self, r: dict[str, Any]) -> None:
        t = _ms(r.get("timestamp"))
        t = t if t is not None else self.last_t
        if t is None:
            self.skip("request:<no time>")
            return
        self.last_t = t
        self.s.saw(t)
        message = r.get("message")
        text = _text(message.get("text") if isinstance(message, dict) else message)
        variables = r.get("variableData")
        variables = variables.get("variables") if isinstance(variables, dict) else None
        images = sum(1 for v in variables if isinstance(v, dict) and (v.get("kind") == "image" or v.get("isImage")))\
            if isinstance(variables, list) else 0
        if text or images:
            self.add(UserTurn(t, MAIN, len(text), images, count_urls(text)))
        result: dict[str, Any] = r["result"] if isinstance(r.get("result"), dict) else {}
        meta: dict[str, Any] = result["metadata"] if isinstance(result.get("metadata"), dict) else {}
        if self.native is None and isinstance(meta.get("sessionId"), str) and meta["sessionId"]:
            self.native = meta["sessionId"]
        model = _model(r.get("modelId"))
        parts = [p for p in r.get("response") or [] if isinstance(p, dict)] if isinstance(r.get("response"), list) else []
        invocations: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in parts:
            if p.get("kind") == "toolInvocationSerialized" and isinstance(p.get("toolId"), str):
                invocations[p["toolId"]].append(p)
        rounds = [x for x in meta.get("toolCallRounds") or [] if isinstance(x, dict)] \
            if isinstance(meta.get("toolCallRounds"), list) else []
        results: dict[str, Any] = meta["toolCallResults"] if isinstance(meta.get("toolCallResults"), dict) else {}
        used: dict[str, int] = defaultdict(int)
        responses: list[LlmResponse] = []
        for rnd in rounds:
            calls = [c for c in rnd.get("toolCalls") or [] if isinstance(c, dict)] \
                if isinstance(rnd.get("toolCalls"), list) else []
            resp = LlmResponse(t, MAIN, model, text_chars=len(_text(rnd.get("response"))),
                               thinking=bool(rnd.get("thinking")), stop="tool_use" if calls else "end_turn")
            self.add(resp)
            responses.append(resp)
            for c in calls:
                name: str = c["name"] if isinstance(c.get("name"), str) and c["name"] else "unknown"
                pair = invocations[name][used[name]] if used[name] < len(invocations[name]) else None
                used[name] += 1
                args = parse_json_string(c.get("arguments"))
                call_id: str = c["id"] if isinstance(c.get("id"), str) and c["id"] else f"{t}-{name}-{used[name]}"
                if self.call(name, args if isinstance(args, dict) else {}, call_id, t, pair, results.get(call_id)):
                    resp.tool_calls += 1
        extra = [p for name, ps in invocations.items() for p in ps[used[name]:]]
        if not rounds and (extra or any(_text(p.get("content") if p.get("kind") == "markdownContent" else p)
                                        for p in parts if p.get("kind") in (None, "markdownContent"))):
            chars = sum(len(_text(p.get("content") if p.get("kind") == "markdownContent" else p))
                        for p in parts if p.get("kind") in (None, "markdownContent"))
            resp = LlmResponse(t, MAIN, model, text_chars=chars, stop="tool_use" if extra else "end_turn")
            self.add(resp)
            responses.append(resp)
        for p in extra:
            data: dict[str, Any] = p["toolSpecificData"] if isinstance(p.get("toolSpecificData"), dict) else {}
            given: dict[str, Any] = data["rawInput"] if isinstance(data.get("rawInput"), dict) else {}
            line = data.get("commandLine")
            if isinstance(line, dict) and isinstance(line.get("original"), str):
                given = {"command": line["original"]}
            extra_id: str = p["toolCallId"] if isinstance(p.get("toolCallId"), str) else f"{t}-{p['toolId']}"
            if self.call(p["toolId"], given, extra_id, t, p, None) and responses:
                responses[-1].tool_calls += 1
        tokens_in, tokens_out = positive_int(meta.get("promptTokens")), positive_int(meta.get("outputTokens"))
        if responses and (tokens_in or tokens_out):
            responses[-1].inp, responses[-1].out = tokens_in, tokens_out  # the request's usage, once
        error = result.get("errorDetails")
        if isinstance(error, dict):
            code = error.get("code")
            cls = _ERROR_CODES.get(code) if isinstance(code, str) else None
            if cls is None:
                message = error.get("message")
                cls = api_error_class(None, message if isinstance(message, str) else "")
            self.add(ErrorFact(t, MAIN, "orchestration" if cls == "interrupted" else "llm", cls))
        if r.get("isCanceled") is True:
            self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))

    def call(self, name: str, args: dict[str, Any], call_id: str, t: float, invocation: dict[str, Any] | None,
             output: object) -> bool:
        if call_id in self.ids:
            self.skip("<duplicate>")
            return False
        self.ids.add(call_id)
        source = invocation.get("source") if invocation is not None else None
        server = source.get("label") if isinstance(source, dict) and source.get("type") == "mcp" else None
        call = make_call(name, args, call_id, t, self.base, server if isinstance(server, str) else None)
        self.add(call)
        details = invocation.get("resultDetails") if invocation is not None else None
        failed = isinstance(details, dict) and details.get("isError") is True
        texts: list[str] = []
        content = output.get("content") if isinstance(output, dict) else None
        for item in content if isinstance(content, list) else []:
            value = item.get("value") if isinstance(item, dict) else None
            if isinstance(value, str):
                texts.append(value)
        if output is None and invocation is None:
            return True
        if output is None and invocation is not None and invocation.get("isComplete") is not True and not failed:
            return True
        res = ToolResult(t, call_id, failed, out_bytes=sum(byte_len(x) for x in texts) if texts else None,
                         timed=False)
        if failed:
            res.err_class = error_class("\n".join(texts), name)
        if call.kind == "exec" and call.command:
            res.outputs = outputs.shell_outputs(call.command, "\n".join(texts), failed)
        elif call.kind == "mcp":
            res.outputs = outputs.mcp_outputs(call.tool or "", "\n".join(texts), failed)
        self.add(res)
        return True

    def finish(self, where: str, fallback: str | None, data: bytes | BinaryIO) -> SessionFacts:
        s = self.s
        s.native_id = native_id(self.native) if self.native else fallback_id(data, fallback)
        if self.base:
            s.cwd = self.base
            settle(s, (self.base,), git=True)  # the workspace the user opened; never a home (redact/roots.py)
        return s


def _workspace_folder(companions: list[Any] | None) -> str | None:
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        try:
            doc = orjson.loads(path.read_bytes()[:1 << 20])
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(doc, dict):
            found = folder_of(doc.get("folder"))
            if found:
                return found
    return None


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = bytes(data) if isinstance(data, (bytes, bytearray)) else data.read()
    reader = VscodeReader(report)
    reader.base = _workspace_folder(companions)
    if raw.strip():
        doc = edit_log(raw, where, report, skip_bad_lines)
        if doc is None:
            doc = json_doc(raw, where)
        if sniff_doc(doc):
            reader.document(doc)
        else:
            reader.skip("<not a chat session>")
    return reader.finish(where, file_stem, data)


def edit_log(raw: bytes, where: str, report: RedactionReport, skip_bad_lines: bool) -> Any:
    """The document the JSONL edit log in `raw` describes (replayed), or None when `raw` is not one."""
    first = raw.lstrip().partition(b"\n")[0]
    try:
        head = orjson.loads(first)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(head, dict) or not sniff([head]):
        return None
    stats = LineStats()
    records = [r for _, r in iter_objects(raw, where, skip_bad_lines=skip_bad_lines, stats=stats)]
    stats.warn_skipped(report)
    doc, bad = replay(records)
    if bad:
        report.skipped_records["<edit not applied>"] += bad
    return doc
