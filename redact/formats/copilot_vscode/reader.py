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
    MAIN, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats.common import (
    LATEST_MS,
    as_float, byte_len, count_urls, session_id, host_of, is_model_name, json_doc, parse_json_string, positive_int,
)
from redact.formats.copilot_vscode.keys import (
    CALL_ARGS, CALL_ID, CALL_NAME, CANCELED, COMMAND_LINE, COMPLETE, CREATED, ERROR, ERROR_CODE,
    ERROR_MESSAGE, IS_ERROR, MARKDOWN_CONTENT, MARKDOWN_VALUE, MESSAGE, MESSAGE_TEXT, META_SESSION_ID,
    METADATA, MODEL_ID, ORIGINAL, OUTPUT_TOKENS, PART_KIND, PROMPT_TOKENS, RAW_INPUT, REQUESTS, RESPONSE,
    RESULT, RESULT_DETAILS, ROUND_CALL_ID, ROUND_CALLS, ROUND_RESPONSE, ROUND_THINKING, ROUNDS, SESSION_ID,
    SOURCE, SOURCE_LABEL, SOURCE_TYPE, TIMESTAMP, TOOL_DATA, TOOL_ID, TOOL_RESULTS, VARIABLE_DATA,
)
from redact.formats.copilot_vscode.native_table import (
    COMMAND_ARGS, CREATES, IS_IMAGE, PATCH_ARGS, PATCHES, PATH_ARGS, RESULT_CONTENT, RESULT_TEXT, TOOLS,
    URL_ARGS, VARIABLE_KIND, VARIABLES,
)
from redact.formats.copilot_vscode.table import replay, sniff, sniff_doc
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.patches import patch_targets
from redact.formats.wording import api_error_class, error_class
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "copilot-vscode"
#: workspace.json's key for the workspace's folder (a companion file: not in the session's table)
WORKSPACE_FOLDER = "folder"
_PATCH, _PATCH_ALT = PATCH_ARGS
_URLS, _URL = URL_ARGS
_ERROR_CODES = {"rateLimited": "rate_limit", "quotaExceeded": "usage_limit", "canceled": "interrupted",
                "offTopic": "refusal_fallback", "filtered": "refusal_fallback", "responseFiltered": "refusal_fallback"}


def _ms(value: object) -> float | None:
    found = as_float(value)
    return found if found is not None and 0 <= found < LATEST_MS else None


def _model(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    name = value.removeprefix("copilot/")
    return name if is_model_name(name) else None


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get(MARKDOWN_VALUE), str):
        return value[MARKDOWN_VALUE]  # type: ignore[no-any-return]
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
        patch = args.get(_PATCH) if isinstance(args.get(_PATCH), str) else args.get(_PATCH_ALT)
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
        urls: list[Any] = args[_URLS] if isinstance(args.get(_URLS), list) else [args.get(_URL)]
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
        sid = doc.get(SESSION_ID)
        if isinstance(sid, str) and sid:
            self.native = sid
        self.s.first_seen = _ms(doc.get(CREATED))
        self.last_t = self.s.first_seen
        for request in doc[REQUESTS]:
            if isinstance(request, dict):
                self.request(request)
            else:
                self.skip("<not a request>")

    def request(self, r: dict[str, Any]) -> None:
        t = _ms(r.get(TIMESTAMP))
        t = t if t is not None else self.last_t
        if t is None:
            self.skip("request:<no time>")
            return
        self.last_t = t
        self.s.saw(t)
        message = r.get(MESSAGE)
        text = _text(message.get(MESSAGE_TEXT) if isinstance(message, dict) else message)
        variables = r.get(VARIABLE_DATA)
        variables = variables.get(VARIABLES) if isinstance(variables, dict) else None
        images = sum(1 for v in variables if isinstance(v, dict) and (v.get(VARIABLE_KIND) == "image" or v.get(IS_IMAGE)))\
            if isinstance(variables, list) else 0
        if text or images:
            self.add(UserTurn(t, MAIN, len(text), images, count_urls(text)))
        result: dict[str, Any] = r[RESULT] if isinstance(r.get(RESULT), dict) else {}
        meta: dict[str, Any] = result[METADATA] if isinstance(result.get(METADATA), dict) else {}
        if self.native is None and isinstance(meta.get(META_SESSION_ID), str) and meta[META_SESSION_ID]:
            self.native = meta[META_SESSION_ID]
        model = _model(r.get(MODEL_ID))
        parts = [p for p in r.get(RESPONSE) or [] if isinstance(p, dict)] if isinstance(r.get(RESPONSE), list) else []
        invocations: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in parts:
            if p.get(PART_KIND) == "toolInvocationSerialized" and isinstance(p.get(TOOL_ID), str):
                invocations[p[TOOL_ID]].append(p)
        rounds = [x for x in meta.get(ROUNDS) or [] if isinstance(x, dict)] \
            if isinstance(meta.get(ROUNDS), list) else []
        results: dict[str, Any] = meta[TOOL_RESULTS] if isinstance(meta.get(TOOL_RESULTS), dict) else {}
        used: dict[str, int] = defaultdict(int)
        responses: list[LlmResponse] = []
        for rnd in rounds:
            calls = [c for c in rnd.get(ROUND_CALLS) or [] if isinstance(c, dict)] \
                if isinstance(rnd.get(ROUND_CALLS), list) else []
            resp = LlmResponse(t, MAIN, model, text_chars=len(_text(rnd.get(ROUND_RESPONSE))),
                               thinking=bool(rnd.get(ROUND_THINKING)), stop="tool_use" if calls else "end_turn")
            self.add(resp)
            responses.append(resp)
            for c in calls:
                name: str = c[CALL_NAME] if isinstance(c.get(CALL_NAME), str) and c[CALL_NAME] else "unknown"
                pair = invocations[name][used[name]] if used[name] < len(invocations[name]) else None
                used[name] += 1
                args = parse_json_string(c.get(CALL_ARGS))
                call_id: str = c[ROUND_CALL_ID] if isinstance(c.get(ROUND_CALL_ID), str) and c[ROUND_CALL_ID] else f"{t}-{name}-{used[name]}"
                if self.call(name, args if isinstance(args, dict) else {}, call_id, t, pair, results.get(call_id)):
                    resp.tool_calls += 1
        extra = [p for name, ps in invocations.items() for p in ps[used[name]:]]
        if not rounds and (extra or any(_text(p.get(MARKDOWN_CONTENT) if p.get(PART_KIND) == "markdownContent" else p)
                                        for p in parts if p.get(PART_KIND) in (None, "markdownContent"))):
            chars = sum(len(_text(p.get(MARKDOWN_CONTENT) if p.get(PART_KIND) == "markdownContent" else p))
                        for p in parts if p.get(PART_KIND) in (None, "markdownContent"))
            resp = LlmResponse(t, MAIN, model, text_chars=chars, stop="tool_use" if extra else "end_turn")
            self.add(resp)
            responses.append(resp)
        for p in extra:
            data: dict[str, Any] = p[TOOL_DATA] if isinstance(p.get(TOOL_DATA), dict) else {}
            given: dict[str, Any] = data[RAW_INPUT] if isinstance(data.get(RAW_INPUT), dict) else {}
            line = data.get(COMMAND_LINE)
            if isinstance(line, dict) and isinstance(line.get(ORIGINAL), str):
                given = {COMMAND_ARGS[0]: line[ORIGINAL]}
            extra_id: str = p[CALL_ID] if isinstance(p.get(CALL_ID), str) else f"{t}-{p[TOOL_ID]}"
            if self.call(p[TOOL_ID], given, extra_id, t, p, None) and responses:
                responses[-1].tool_calls += 1
        tokens_in, tokens_out = positive_int(meta.get(PROMPT_TOKENS)), positive_int(meta.get(OUTPUT_TOKENS))
        if responses and (tokens_in or tokens_out):
            responses[-1].inp, responses[-1].out = tokens_in, tokens_out  # the request's usage, once
        error = result.get(ERROR)
        if isinstance(error, dict):
            code = error.get(ERROR_CODE)
            cls = _ERROR_CODES.get(code) if isinstance(code, str) else None
            if cls is None:
                message = error.get(ERROR_MESSAGE)
                cls = api_error_class(message if isinstance(message, str) else "")
            self.add(ErrorFact(t, MAIN, "orchestration" if cls == "interrupted" else "llm", cls))
        if r.get(CANCELED) is True:
            self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))

    def call(self, name: str, args: dict[str, Any], call_id: str, t: float, invocation: dict[str, Any] | None,
             output: object) -> bool:
        if call_id in self.ids:
            self.skip("<duplicate>")
            return False
        self.ids.add(call_id)
        source = invocation.get(SOURCE) if invocation is not None else None
        server = source.get(SOURCE_LABEL) if isinstance(source, dict) and source.get(SOURCE_TYPE) == "mcp" else None
        call = make_call(name, args, call_id, t, self.base, server if isinstance(server, str) else None)
        self.add(call)
        details = invocation.get(RESULT_DETAILS) if invocation is not None else None
        failed = isinstance(details, dict) and details.get(IS_ERROR) is True
        texts: list[str] = []
        content = output.get(RESULT_CONTENT) if isinstance(output, dict) else None
        for item in content if isinstance(content, list) else []:
            value = item.get(RESULT_TEXT) if isinstance(item, dict) else None
            if isinstance(value, str):
                texts.append(value)
        if output is None and invocation is None:
            return True
        if output is None and invocation is not None and invocation.get(COMPLETE) is not True and not failed:
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
        s.native_id = session_id(self.native, data, fallback)
        if self.base:
            s.cwd = self.base
            settle(s, (self.base,), git=True)  # the workspace the user opened; never a home (redact/formats/roots.py)
        return s


def _workspace_folder(companions: list[Any] | None) -> str | None:
    for item in companions or []:
        path = Path(getattr(item, "path", item))
        try:
            doc = orjson.loads(path.read_bytes()[:1 << 20])
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(doc, dict):
            found = folder_of(doc.get(WORKSPACE_FOLDER))
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
