"""Helpers the chat-store readers share (opencode, Cursor, Crush, Aider): their common state
(`StoreReader`), the pairing of a session's tool calls with their results (`CallPairs`), a tool call
from a tool name and its input object, a tool result from what the log states, a session's repository root.

Tool names go through the shared table (`redact/formats/toolnames.py`) after a format's own aliases
(`read_file_v2` -> `read_file`); input keys that name a path in camelCase (`filePath`,
`targetFile`) are read as the table's `file_path`. Nothing here keeps text: an output is a byte
count, and a shell result's text is read only to confirm commits and PRs (`redact/build/outputs.py`).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, BinaryIO

from redact.build import outputs
from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, ToolResult
from redact.formats import toolnames
from redact.formats.common import LATEST_MS, byte_len, label
from redact.formats.ids import native_id, session_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.wording import error_class
from redact.report import RedactionReport

#: Input keys that hold the path of a read or edit tool, spelled as the harnesses spell them.
PATH_ALIASES = ("filePath", "file_path", "path", "targetFile", "target_file", "relativeWorkspacePath",
                "absolutePath", "filepath")


def as_object(value: object) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one (a field of the wrong type reads as absent)."""
    return value if isinstance(value, dict) else {}


def call(name: str, args: object, call_id: str, t: float, agent: str, *,
         aliases: Mapping[str, str] | None = None) -> ToolCall:
    """The ToolCall of tool `name` (the harness's spelling) with input `args`."""
    canonical = (aliases or {}).get(name, name)
    inp: dict[str, Any] = dict(args) if isinstance(args, dict) else {}
    if "file_path" not in inp:
        for key in PATH_ALIASES:
            value = inp.get(key)
            if isinstance(value, str) and value.strip():
                inp["file_path"] = value
                break
    made = toolnames.make_call(canonical, inp, call_id, t, agent)
    made.name = name
    if made.kind == "exec" and not made.command and made.argv is None:
        made.command = ""
    return made


def first_operation_path(inp: object, operations: str, path: str) -> dict[str, Any]:
    """A tool input (a copy) whose `path`, when it names none of its own, is that of its first
    operation (`inp[operations][0][path]`): the path the shared tool table reads of a read of many."""
    found: dict[str, Any] = dict(inp) if isinstance(inp, dict) else {}
    ops = found.get(operations)
    if isinstance(ops, list) and ops and isinstance(ops[0], dict) and isinstance(ops[0].get(path), str):
        found.setdefault(path, ops[0][path])
    return found


def result(c: ToolCall, t: float, *, error: bool, output: object = None, exit_code: int | None = None,
           dur: float | None = None, error_text: object = None, created: bool | None = None) -> ToolResult:
    """The ToolResult of call `c`: error or not, the output's byte count, an exit code when the log
    states one, and (for a shell call) the commits and PRs its output confirms."""
    text = output if isinstance(output, str) else ""
    res = ToolResult(t, c.call_id, error, out_bytes=byte_len(text) if text else None, dur=dur)
    if c.kind == "exec" and exit_code is not None:
        res.exit_code = exit_code
        if exit_code != 0:
            res.is_error = True
    if res.is_error:
        if res.exit_code not in (None, 0):
            res.err_class = "exit_code"
        elif isinstance(error_text, str) and error_text:
            res.err_class = error_class(error_text, c.name)
        else:
            res.err_class = "other"
    if c.kind == "edit" and created is not None:
        res.op = "create" if created else None
    if c.kind == "exec" and not res.is_error and c.command:
        res.outputs = outputs.shell_outputs(c.command, text, False)
    return res


def root_of(path: str | None, *, project: bool = False) -> tuple[str, ...]:
    """The repository roots of a session whose working directory is `path`: nothing when unknown, and
    nothing unless there is evidence it is a repository (redact/formats/roots.py). `project`: the agent itself
    names `path` as the project (the folder holding its project-local store, the workspace the user
    opened), which is evidence; a home folder, or a folder named like its user, is never a root."""
    from redact.formats.roots import choose_roots

    if not (isinstance(path, str) and path.strip() and len(path) < 4096):
        return ()
    return choose_roots((path,), git=project)


def epoch_number(value: object) -> float | None:
    """A time written as a number: epoch milliseconds, or seconds when it is too small to be
    milliseconds (before 1973); None for anything else or outside 1970-2200."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    if math.isnan(number) or number <= 0:
        return None
    if number < 1e11:
        number *= 1000.0
    return number if number < LATEST_MS else None


class CallPairs:
    """A reader's tool calls by id and the ids already answered (a mixin for a reader with the
    session's facts `s` and the `report`): a call id is made once and answered once; a call with no
    id or name, a second call of an id and an answer to no call or to one already answered are each
    counted by name, never read."""

    report: RedactionReport
    s: SessionFacts
    calls: dict[str, ToolCall]
    done: set[str]

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def open_call(self, llm: LlmResponse, call_id: object, name: object, args: object, t: float, *,
                  aliases: Mapping[str, str], nameless: str, again: str = "<duplicate>") -> ToolCall | None:
        """The main agent's call `call_id` of tool `name` with input `args`, made by response `llm`;
        None (counted as `nameless` or `again`) when it has no id or name or its id was made before."""
        if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name:
            self.skip(nameless)
            return None
        if call_id in self.calls:
            self.skip(again)
            return None
        c = call(name, args, call_id, t, MAIN, aliases=aliases)
        self.calls[call_id] = c
        llm.tool_calls += 1
        self.s.facts.append(c)
        return c

    def answered(self, call_id: object, *, unmatched: str) -> ToolCall | None:
        """The call a result with `call_id` answers, now answered; None (counted as `unmatched`, or
        `<duplicate>` for a second answer) when there is none to answer."""
        c = self.calls.get(call_id) if isinstance(call_id, str) else None
        if c is None or c.call_id in self.done:
            self.skip(unmatched if c is None else "<duplicate>")
            return None
        self.done.add(c.call_id)
        return c


class StoreReader:
    """What the readers of a chat store's JSON Lines export (opencode, Cursor, Crush: one session
    row, then its messages; redact/formats/stores.py) share: the facts, the skip counts, the latest
    time seen, the session row's id, root and parent, and the session's id at the end."""

    AGENT_TOOL = ""
    #: the export's record-kind key, and the kinds besides the session row, each read by the method
    #: of its name
    KIND_KEY = ""
    RECORDS: tuple[str, ...] = ()

    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=self.AGENT_TOOL, native_id="")
        self.stats = LineStats()
        self.session_id: str | None = None
        self.last_t: float | None = None

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def seen(self, t: float | None) -> float | None:
        """`t` when the record has a time (the session starts at the earliest), else the last one."""
        if t is None:
            return self.last_t
        self.last_t = t
        self.s.saw(t)
        return t

    def read(self, data: bytes | BinaryIO, where: str, skip_bad_lines: bool) -> None:
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            kind = record.get(self.KIND_KEY)
            if kind == "session" and self.session_id is None:
                self.session(record)
            elif isinstance(kind, str) and kind in self.RECORDS:
                getattr(self, kind)(record)
            else:
                self.skip(label(kind) if isinstance(kind, str) else "<no record kind>")

    def session(self, r: dict[str, Any]) -> None:
        raise NotImplementedError  # each export names its session row's fields

    def session_row(self, sid: object, folder: object, parent: object) -> None:
        """The session row: its id, the project folder (a repository only on evidence,
        redact/formats/roots.py) and the session it was spawned from (a subagent)."""
        self.session_id = sid if isinstance(sid, str) and sid else None
        self.s.roots = root_of(folder if isinstance(folder, str) else None, project=True)
        self.s.cwd = self.s.roots[0] if self.s.roots else None
        if isinstance(parent, str) and parent:
            self.s.role = "subagent"
            self.s.parent_native_id = native_id(parent)

    def finish(self, data: bytes | BinaryIO, stem: str | None) -> SessionFacts:
        self.s.native_id = session_id(self.session_id, data, stem)
        self.stats.warn_skipped(self.report)
        return self.s
