"""Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json|jsonl`) -> facts.

The tables are in `table.py`. What the reader derives, and how:

- **Messages.** In the JSONL layout a message is written again, whole, whenever its tool calls or
  tokens change: the last writing of an id is the message, at the place of its first writing.
  `$rewindTo` lines are counted, not applied: the rewound messages happened (their tools ran).
- **Prompts.** Each `user` message: its length and URL count.
- **Model responses.** Each `gemini` message is one llm event: `model`, tokens (`input` includes the
  cached part: fresh input is `input - cached`; `thoughts` are output tokens the model spent
  thinking, so `out` is `output + thoughts`), `thoughts[]` sets thinking, `content` its textChars,
  `toolCalls[]` its tool calls. The stop reason is not recorded: it is inferred from the calls.
- **Tool calls.** Each `toolCalls[]` entry is a call (at the message's time) and its result (at the
  entry's own `timestamp`, when the tool finished): `status` `error` / `cancelled` is an error
  (`interrupted` for cancelled); the shell's output gives its exit code (`Exit Code: N`) and the
  commits or PRs it confirms.
  A `write_file` whose output says it created a new file is a `create`.
- **Errors.** `error` messages are llm errors; the `info` message `Request cancelled.` is an
  interruption.
- **Repository.** The `directories` the log names (the project folder); when it names none (older
  chats), the folder whose sha256 is the log's `projectHash`, found above the absolute paths (the
  arguments, or the absolute path a write's output confirms for a relative argument), is the working
  directory the relative paths were given in, and the candidate root follows from it and the
  touched paths outside the agent's own `.gemini` folder (`touched_project`, redact/roots.py: below a
  home folder, never one); with no folder and no absolute path, relative paths are repo-relative.
  A working directory on a Windows drive means the shell tool ran PowerShell, whose grammar reads
  its commands.
"""
from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any, BinaryIO

import orjson

from redact.build import outputs
from redact.build.facts import (
    MAIN, ErrorFact, Fact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats.common import (
    byte_len, count_urls, epoch_ms, session_id, host_of, is_model_name, label, native_id, positive_int,
    text_chars,
)
from redact.formats.gemini_cli.keys import (
    AT, CACHED, CALL_ARGS, CALL_DONE, CALL_ID, CALL_NAME, CALL_RESULT, CALL_STATUS, COMMAND, CONTENT, DIRECTORIES,
    ERROR, FUNCTION_RESPONSE, IN, INLINE_DATA, KIND, MESSAGE_ID, MESSAGE_KINDS, MESSAGE_TYPE, MESSAGES, MODEL, OUT,
    OUTPUT, PATH_ARGS, PROJECT_HASH, PROMPT, RESPONSE, REWIND, SESSION_ID, SET, SET_DIRECTORIES, SET_MESSAGES, START, TEXT,
    THINKING, THOUGHTS, TOKENS, TOOL_CALLS, TYPE, URL,
)
from redact.formats.gemini_cli.native_table import CANCELLED, TOOLS
from redact.formats.gemini_cli.table import MCP_NAME, WAITS_ON_USER, sniff_doc
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.wording import api_error_class, error_class
from redact.report import RedactionReport
from redact.apply.paths import is_absolute, normalize
from redact.formats.roots import hashed_folder, settle, touched_project

AGENT_TOOL = "gemini-cli"
_EXIT = re.compile(r"^Exit Code: (-?\d{1,5})[ \t]*$", re.MULTILINE)
_PARENT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_URL = re.compile(r"https?://[^\s\"'<>]{1,2000}")
#: how write_file and replace confirm the file they wrote, absolute, in their output
_WROTE = re.compile(r"^Successfully (created and wrote to new file|overwrote file|modified file): "
                    r"([^\n]{1,4096}?)(?: \(\d+ replacements?\))?\.?(?: Here is|\n|$)")
_AGENT_FOLDER = "/.gemini/"
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")


def document_of(data: bytes) -> dict[str, Any] | None:
    """The single-JSON layout held in `data`, or None (JSON Lines)."""
    body = data.lstrip()
    if body[:1] != b"{":
        return None
    first, sep, rest = body.partition(b"\n")
    if sep and rest.strip():
        try:
            orjson.loads(first)
            return None  # a whole object on the first line and more after it: JSON Lines
        except orjson.JSONDecodeError:
            pass
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return doc if sniff_doc(doc) else None


class GeminiReader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.native: str | None = None
        self.dirs: list[str] = []
        self.messages: dict[str, dict[str, Any]] = {}  # id -> its last writing, in first-writing order
        self.seen_calls: set[str] = set()
        self.project_hash: str | None = None
        self.confirmed: list[tuple[str, str]] = []  # (relative argument, the absolute path its write confirmed)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def add(self, fact: Fact) -> None:
        self.s.facts.append(fact)

    # -- input -------------------------------------------------------------------------------------
    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool) -> None:
        raw = bytes(data) if isinstance(data, (bytes, bytearray)) else data.read()
        doc = document_of(raw)
        if doc is not None:
            self.metadata(doc)
            for message in doc[MESSAGES]:
                self.upsert(message)
            return
        first = True
        for _, record in iter_objects(raw, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            if first and TYPE not in record and SET not in record:
                self.metadata(record)
            elif SET in record:
                update = record[SET]
                if isinstance(update, dict):
                    self.dirs_of(update.get(SET_DIRECTORIES))
                    for message in update.get(SET_MESSAGES) or [] if isinstance(update.get(SET_MESSAGES), list) else []:
                        self.upsert(message)
                self.skip(SET)
            elif REWIND in record:
                self.skip(REWIND)
            else:
                self.upsert(record)
            first = False

    def metadata(self, meta: dict[str, Any]) -> None:
        sid = meta.get(SESSION_ID)
        if isinstance(sid, str) and sid and self.native is None:
            self.native = sid
        digest = meta.get(PROJECT_HASH)
        if isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest):
            self.project_hash = digest
        start = epoch_ms(meta.get(START))
        if start is not None:
            self.s.first_seen = start
        if meta.get(KIND) == "subagent":
            self.s.role = "subagent"
        self.dirs_of(meta.get(DIRECTORIES))

    def dirs_of(self, value: object) -> None:
        if isinstance(value, list):
            for d in value:
                if isinstance(d, str) and d and d not in self.dirs:
                    self.dirs.append(d)

    def upsert(self, message: object) -> None:
        if not isinstance(message, dict):
            self.skip("<not a message>")
            return
        mid = message.get(MESSAGE_ID)
        kind = message.get(MESSAGE_TYPE)
        if not isinstance(mid, str) or not mid or not isinstance(kind, str) or kind not in MESSAGE_KINDS:
            self.skip(label("message", kind if isinstance(kind, str) else None))
            return
        self.messages[mid] = message

    # -- facts -------------------------------------------------------------------------------------
    def facts(self) -> None:
        last_t = self.s.first_seen
        for message in self.messages.values():
            t = epoch_ms(message.get(AT))
            if t is None:
                t = last_t
            if t is None:
                self.skip(label("message", message[MESSAGE_TYPE]) + ":<no time>")
                continue
            last_t = t
            self.s.saw(t)
            getattr(self, "on_" + message[MESSAGE_TYPE])(message, t)

    def on_user(self, m: dict[str, Any], t: float) -> None:
        content = m.get(CONTENT)
        chars = text_chars(content)
        texts = [content] if isinstance(content, str) else [
            p[TEXT] for p in content if isinstance(p, dict) and isinstance(p.get(TEXT), str)
        ] if isinstance(content, list) else []
        images = sum(1 for p in content if isinstance(p, dict) and INLINE_DATA in p) \
            if isinstance(content, list) else 0
        if chars or images:
            self.add(UserTurn(t, MAIN, chars, images, sum(count_urls(x) for x in texts)))

    def on_gemini(self, m: dict[str, Any], t: float) -> None:
        model = m.get(MODEL)
        resp = LlmResponse(t, MAIN, model if is_model_name(model) else None)
        tokens = m.get(TOKENS)
        if isinstance(tokens, dict):
            inp, cached = positive_int(tokens.get(IN)), positive_int(tokens.get(CACHED))
            cached = min(cached, inp)
            resp.inp, resp.cr = inp - cached, cached
            resp.out = positive_int(tokens.get(OUT)) + positive_int(tokens.get(THINKING))
        thoughts = m.get(THOUGHTS)
        resp.thinking = bool(thoughts) if isinstance(thoughts, list) else False
        resp.text_chars = text_chars(m.get(CONTENT))
        calls = m.get(TOOL_CALLS)
        calls = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
        resp.stop = "tool_use" if calls else "end_turn"  # not recorded: inferred
        self.add(resp)
        for tc in calls:
            if self.tool_call(tc, t):
                resp.tool_calls += 1

    def on_error(self, m: dict[str, Any], t: float) -> None:
        content = m.get(CONTENT)
        self.add(ErrorFact(t, MAIN, "llm", api_error_class(content if isinstance(content, str) else "")))

    def on_info(self, m: dict[str, Any], t: float) -> None:
        if m.get(CONTENT) == CANCELLED:
            self.add(ErrorFact(t, MAIN, "orchestration", "interrupted"))
        else:
            self.skip("info")

    def on_warning(self, m: dict[str, Any], t: float) -> None:
        self.skip("warning")

    # -- tools -------------------------------------------------------------------------------------
    def tool_call(self, tc: dict[str, Any], t: float) -> bool:
        call_id = tc.get(CALL_ID)
        if not isinstance(call_id, str) or not call_id or call_id in self.seen_calls:
            self.skip("<call without id>" if not isinstance(call_id, str) or not call_id else "<duplicate>")
            return False
        self.seen_calls.add(call_id)
        name = tc.get(CALL_NAME)
        name = name if isinstance(name, str) and name else "unknown"
        args = tc.get(CALL_ARGS)
        call = make_call(name, args if isinstance(args, dict) else {}, call_id, t)
        self.add(call)
        done = epoch_ms(tc.get(CALL_DONE))
        res_t = done if done is not None and done >= t else t
        res = make_result(tc, call, res_t)
        self.add(res)
        if call.kind == "edit" and call.paths and not res.is_error:
            wrote = _WROTE.match(_response(tc)[0][:4200])
            if wrote and wrote.group(1).startswith("created"):
                call.op = res.op = "create"
            if wrote and not is_absolute(normalize(call.paths[0])) and is_absolute(normalize(wrote.group(2))):
                self.confirmed.append((call.paths[0], wrote.group(2)))
        return True

    def finish(self, where: str, fallback: str | None, data: bytes | BinaryIO) -> SessionFacts:
        self.facts()
        s = self.s
        s.native_id = session_id(self.native, data, fallback)
        if self.dirs:
            s.cwd = self.dirs[0]
            settle(s, (self.dirs[0],), git=True)  # the project folder Gemini CLI names; never a home
        else:
            self.settle_by_touch()
        if s.cwd is not None and _DRIVE.match(s.cwd):
            for fact in s.facts:  # on Windows run_shell_command runs PowerShell: its grammar reads the line
                if isinstance(fact, ToolCall) and fact.kind == "exec":
                    fact.shell = "powershell"
        self.stats.warn_skipped(self.report)
        return s


    def settle_by_touch(self) -> None:
        """No folder named: the touched paths' common folder is the candidate root, and the folder the
        project hash names (or a write's confirmed absolute path) the working directory."""
        s = self.s
        calls = [f for f in s.facts if isinstance(f, ToolCall) and f.kind in ("read", "edit") and f.paths]
        paths = [p for c in calls for p in c.paths if _AGENT_FOLDER not in normalize(p)]
        absolute = [p for p in paths if is_absolute(normalize(p))] + [a for _, a in self.confirmed]
        cwd = hashed_folder(absolute, self.project_hash) if self.project_hash else None
        if cwd is None:
            for rel, full in self.confirmed:
                tail = "/" + normalize(rel).lstrip("./")
                if normalize(full).endswith(tail) and len(normalize(full)) > len(tail):
                    cwd = normalize(full)[: -len(tail)]
                    break
        if cwd is not None:
            s.cwd = cwd
        root = touched_project(paths, files=paths, cwd=cwd)
        if root is not None:
            settle(s, (root,))
        if not s.roots and cwd is None and paths and not absolute:
            s.rootless_repo = True  # relative to the project folder the hash names: repo-relative


def make_call(name: str, args: dict[str, Any], call_id: str, t: float) -> ToolCall:
    """The ToolCall of a Gemini CLI tool call: the kind from `TOOLS`, and only the fields it names."""
    kind = TOOLS.get(name)
    if kind is None:
        m = MCP_NAME.fullmatch(name)
        if m:
            return ToolCall(t, MAIN, call_id, name, "mcp", server=m.group(1), tool=m.group(2))
        return ToolCall(t, MAIN, call_id, name, "tool")
    call = ToolCall(t, MAIN, call_id, name, kind, waits_on_user=name in WAITS_ON_USER)  # type: ignore[arg-type]
    if kind in ("read", "edit"):
        path = next((args[k] for k in PATH_ARGS if isinstance(args.get(k), str) and args[k]), None)
        if path is not None:
            call.paths = (path,)
        call.op = "modify" if name in ("replace", "edit") else None
    elif kind == "exec":
        command = args.get(COMMAND)
        call.command = command if isinstance(command, str) else ""
    elif kind == "web":
        if name == "google_web_search":
            call.host = "search"
        else:
            prompt = args.get(PROMPT) if isinstance(args.get(PROMPT), str) else args.get(URL)
            m = _URL.search(prompt[:4000]) if isinstance(prompt, str) else None
            call.host = host_of(m.group(0)) if m else None
    elif kind == "subagent":
        call.subagent_type = name
    return call


def _response(tc: dict[str, Any]) -> tuple[str, str]:
    """(output, error) text of a tool call's functionResponse parts."""
    out: list[str] = []
    err: list[str] = []
    result = tc.get(CALL_RESULT)
    for part in result if isinstance(result, list) else []:
        fr = part.get(FUNCTION_RESPONSE) if isinstance(part, dict) else None
        resp = fr.get(RESPONSE) if isinstance(fr, dict) else None
        if isinstance(resp, dict):
            if isinstance(resp.get(OUTPUT), str):
                out.append(resp[OUTPUT])
            if isinstance(resp.get(ERROR), str):
                err.append(resp[ERROR])
    return "\n".join(out), "\n".join(err)


def shell_output(text: str) -> str:
    """The command's own output in Gemini CLI's shell result (`Command: ...`, `Directory: ...`,
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


def make_result(tc: dict[str, Any], call: ToolCall, t: float) -> ToolResult:
    output, error = _response(tc)
    status = tc.get(CALL_STATUS)
    res = ToolResult(t, call.call_id, False, out_bytes=byte_len(output) if output or error else None)
    if call.kind == "exec":
        codes = _EXIT.findall(output[-4000:])  # the harness's header follows the command's output
        res.exit_code = int(codes[-1]) if codes else None
    if status == "cancelled":
        res.is_error, res.err_class = True, "interrupted"
    elif status == "error" or (status != "success" and error):
        res.is_error = True
        text = error or output
        res.err_class = error_class(text, call.name)
        if call.kind == "edit" and ("occurrence" in text[:400].lower() or "old_string" in text[:400]):
            res.err_class = "patch_failed"
    elif res.exit_code not in (None, 0):
        res.is_error, res.err_class = True, "exit_code"
    if call.kind == "exec" and call.command:
        res.outputs = outputs.shell_outputs(call.command, shell_output(output), res.is_error)
    elif call.kind == "mcp":
        res.outputs = outputs.mcp_outputs(call.tool or "", output, res.is_error)
    return res


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = GeminiReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    facts = reader.finish(where, file_stem, data)
    if facts.role == "subagent":  # chats/<parent session id>/<id>.jsonl
        parent = PurePath(where).parent.name
        if _PARENT.fullmatch(parent):
            facts.parent_native_id = native_id(parent)
    return facts
