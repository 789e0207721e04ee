"""An Aider chat history (`.aider.chat.history.md`) -> facts: its structured lines only (table.py).

Each `# aider chat started at` line starts a launch of Aider: a session of its own (one map per run,
redact/formats/runs.py: `FILE#N` names the Nth, `--out-dir` writes them all); a reader given a
history of several runs at once (stdin, the API) refuses it with a usage error that says how to
choose, rather than merging the launches. Aider writes a time only when a run starts, so every
event of a run carries that time. What becomes what:

- `#### ` lines are the user's input: a prompt (its length), or a command: `/run`, `/test` and `!`
  run a shell command (exec or verify, through the verb engine), `/add` adds files (a read event with
  the files the `> Added ... to the chat` lines confirm); `/ask`, `/code`, `/architect` are counted
  as commands, since Aider logs the message they send on the next `#### ` line (that is the prompt);
  other commands are counted by name in the report;
- the model's reply (plain lines) is an llm event: its length, the number of SEARCH/REPLACE blocks
  (toolCalls), the model of the run, and the tokens of its `> Tokens:` line;
- `> Applied edit to F` is an edit of F; `> Commit <sha>` a commit (a `git commit` exec event whose
  result confirms it); commands quoted before `> Run shell command? y` ran in the shell; Aider
  records no exit status, so a shell command's result is not an error and has no exit code;
- rate-limit and edit-format failures are llm error events; the lines of one failure written one after
  another (`> litellm.RateLimitError: ...` then `> The API provider has rate limited you...`) are
  one error.

Paths are placed under the folder holding the history (the project root) when the file has Aider's
name; otherwise relative paths are placed under a stand-in root, never written.
"""
from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from redact.build.facts import (
    MAIN, Commit, ErrorFact, LlmResponse, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.formats import chatlog
from redact.formats.aider import table as T
from redact.formats.common import fallback_id, is_model_name, label
from redact.errors import UsageError
from redact.report import RedactionReport

AGENT_TOOL = "aider"
STAND_IN = "/aider-project"
_SCALE = {"k": 1_000, "m": 1_000_000}


def _lines(data: bytes | BinaryIO) -> Any:
    if isinstance(data, (bytes, bytearray, memoryview)):
        yield from bytes(data).split(b"\n")
    else:
        yield from data


def _digest(line: str) -> bytes:
    """A digest of a line, to tell a repeated reply from a prompt without keeping either."""
    return hashlib.sha256(line.encode("utf-8", "surrogateescape")).digest()


def _count(number: str, scale: str | None) -> int:
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        return 0
    value *= _SCALE.get(scale or "", 1)
    return int(value) if 0 <= value < 1e15 else 0


class AiderReader:
    def __init__(self, report: RedactionReport, root: str, where: str = "<input>") -> None:
        self.report = report
        self.where = where
        self.root = root
        # the folder holding the history is the project Aider ran in, but never a home folder or one
        # named after its user (redact/formats/roots.py); the stand-in root of a history read from elsewhere stays
        roots = (root,) if root == STAND_IN else chatlog.root_of(root, project=True)
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="", roots=roots, cwd=root)
        self.t: float | None = None
        self.model: str | None = None
        self.prompt: UserTurn | None = None  # the input being continued by more #### lines
        self.reply: LlmResponse | None = None
        self.add: ToolCall | None = None
        self.quoted: list[str] = []
        self.n = 0
        self.runs = 0
        self.failure: ErrorFact | None = None  # the error the previous line wrote
        self.reply_head: bytes | None = None  # a digest of the last reply's first line, never kept
        self.handoff = False  # in a #### block that repeats the reply (architect to editor)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def path(self, raw: str) -> str | None:
        """The path an Aider status line names; None when it is not one a file system would hold
        (Aider sometimes names a sentence of the reply: `Applied edit to If you're using **npm**`)."""
        raw = raw.strip().strip("`'\"")
        if not T.PATH.fullmatch(raw):
            self.skip("path:<not a file name>")
            return None
        if raw.startswith(("/", "~", "\\")) or raw[1:3] in (":\\", ":/"):
            return raw
        return self.root + "/" + raw.replace("\\", "/")

    def call(self, name: str, kind: str, **fields: Any) -> ToolCall:
        assert self.t is not None
        self.n += 1
        c = ToolCall(self.t, MAIN, f"a{self.n}", name, kind, **fields)  # type: ignore[arg-type]
        self.s.facts.append(c)
        return c

    def done(self, c: ToolCall, **fields: Any) -> None:
        assert self.t is not None
        self.s.facts.append(ToolResult(self.t, c.call_id, False, **fields))

    def line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        stripped = text.rstrip()
        failure, self.failure = self.failure, None
        start = T.START.match(stripped)
        if start:
            self.run(start.group(1))
            return
        if self.t is None:
            if stripped:
                self.skip("<before the first run>")
            return
        if text.startswith(T.USER) or stripped == T.USER.strip():
            self.user(text[len(T.USER):].rstrip())
            return
        if not stripped:  # Aider writes a blank line after each input line: the prompt goes on
            return
        self.prompt = None
        self.handoff = False
        if text.startswith(">"):
            self.status(stripped, failure)
            return
        self.quoted = []
        self.add = None
        if self.reply is None:
            self.reply = LlmResponse(self.t, MAIN, self.model)
            self.s.facts.append(self.reply)
            self.reply_head = _digest(stripped)
        self.reply.text_chars += len(text) + 1
        if stripped == T.SEARCH:
            self.reply.tool_calls += 1

    def run(self, stamp: str) -> None:
        try:
            t = datetime.fromisoformat(stamp.replace(" ", "T")).replace(tzinfo=UTC).timestamp() * 1000.0
        except ValueError:
            self.skip("run:<bad time>")
            return
        if self.runs:
            raise UsageError("the Aider history holds several runs (each launch of Aider is a session): "
                             "give --out-dir DIR for one map each, or name one as FILE#N", where=self.where)
        self.t = t
        if self.s.first_seen is None:
            self.s.first_seen = t
        self.runs += 1
        self.prompt = self.reply = self.add = None
        self.quoted = []

    def user(self, body: str) -> None:
        assert self.t is not None
        self.reply, self.add, self.quoted = None, None, []
        if self.handoff:  # the rest of the architect's answer handed to the editor
            return
        if self.prompt is not None:  # a prompt of several lines
            self.prompt.chars += len(body) + 1
            return
        if self.reply_head is not None and _digest(body.strip()) == self.reply_head:
            self.handoff = True  # the reply just given, repeated as the editor model's input
            self.skip("architect:<handed to the editor>")
            return
        if body.startswith(("/", "!")):
            word = "!" if body.startswith("!") else body.split(maxsplit=1)[0]
            rest = body[1:] if word == "!" else body[len(word):].strip()
            how = T.COMMANDS.get(word.lower())
            if how == "prompt":  # Aider logs the message it sends on the next #### line: that is the prompt
                self.skip(label("command", word[1:]))
            elif how == "shell":
                c = self.call("run", "exec", command=rest)
                self.done(c)
            elif how == "add":
                self.add = self.call("add", "read")
                self.done(self.add)
            else:
                self.skip(label("command", word[1:]))
            return
        self.prompt = UserTurn(self.t, MAIN, len(body))
        self.s.facts.append(self.prompt)
        self.reply_head = None

    def status(self, line: str, failure: ErrorFact | None = None) -> None:
        assert self.t is not None
        if T.VERSION.match(line):
            self.quoted = []
            return
        model = T.MODEL.match(line)
        if model:
            name = model.group(1).rstrip(",")
            self.model = name if is_model_name(name) else None
            self.quoted = []
            return
        found = T.ADDED.match(line)
        if found:
            path = self.path(found.group(1))
            if path is not None:
                c = self.add or self.call("add", "read")
                if self.add is None:
                    self.done(c)
                    self.add = c
                c.paths = (*c.paths, path)
            return
        found = T.APPLIED.match(line)
        if found:
            path = self.path(found.group(1))
            if path is not None:
                self.done(self.call("edit", "edit", paths=(path,), op="modify"))
            self.quoted = []
            return
        found = T.COMMIT.match(line)
        if found:
            c = self.call("commit", "exec", command="git commit")
            self.done(c, outputs=[Commit(sha=found.group(1))])
            self.quoted = []
            return
        found = T.TOKENS.match(line)
        if found:
            self.tokens(found.group(1))
            return
        found = T.RUN_SHELL.match(line)
        if found:
            if found.group(1).lower().startswith("y"):
                for command in self.quoted:
                    self.done(self.call("run", "exec", command=command))
            else:
                self.skip("shell:declined")
            self.quoted = []
            return
        if T.ERROR.match(line):
            cls = "rate_limit" if "rate" in line.lower() else "api_error"
            if failure is not None:  # the next line of the same failure
                failure.err_class = cls if cls == "rate_limit" else failure.err_class
                self.failure = failure
            else:
                self.failure = ErrorFact(self.t, MAIN, "llm", cls)
                self.s.facts.append(self.failure)
            self.quoted = []
            return
        body = line[1:].strip()
        if body:
            self.quoted.append(body)

    def tokens(self, text: str) -> None:
        assert self.t is not None
        reply = self.reply
        if reply is None:
            reply = LlmResponse(self.t, MAIN, self.model)
            self.s.facts.append(reply)
        for number, scale, what in T.TOKEN_PART.findall(text):
            value = _count(number, scale.lower() or None)
            if what == "sent":
                reply.inp = value
            elif what == "received":
                reply.out = value
            elif what == "cache write":
                reply.cw = value
            else:
                reply.cr = value
        self.reply = None  # the next reply text is another model call
        self.quoted = []

    def finish(self, where: str, data: bytes | BinaryIO) -> SessionFacts:
        for fact in self.s.facts:
            if isinstance(fact, LlmResponse) and fact.stop is None:
                fact.stop = "end_turn"
            if isinstance(fact, ToolCall) and fact.kind == "read" and not fact.paths:
                fact.kind = "tool"
        self.s.native_id = fallback_id(data)
        return self.s


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    name = Path(where)
    if "#" in where and not name.is_file():  # one run of the history (FILE#N, redact/formats/runs.py)
        name = Path(where.rpartition("#")[0])
    root = str(name.resolve().parent) if name.name == T.HISTORY and name.is_file() else STAND_IN
    reader = AiderReader(report, root, where)
    for raw in _lines(data):
        reader.line(raw)
    return reader.finish(where, data)
