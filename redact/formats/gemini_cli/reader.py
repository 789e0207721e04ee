"""Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json|jsonl`) -> facts.

The tables are in `table.py`. The messages are read by the chat-record reader Gemini CLI shares with
Qwen Code (`redact/formats/gemini_record.py`: prompts, model responses, tool calls and results,
errors); this module reads the layouts:

- **single JSON**: one ConversationRecord document (metadata and `messages[]`);
- **JSON Lines**: the metadata line first, then messages, `$set` updates (their `directories` and
  `messages` are read) and `$rewindTo` lines, which are counted, not applied: the rewound messages
  happened (their tools ran). A message is written again, whole, whenever its tool calls or tokens
  change: the last writing of an id is the message, at the place of its first writing.
"""
from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any, BinaryIO

import orjson

from redact.build.facts import SessionFacts, ToolCall, ToolResult
from redact.formats.common import native_id, session_id
from redact.formats.gemini_cli.keys import PROJECT_HASH, RECORD, REWIND, SET, SET_DIRECTORIES, SET_MESSAGES, TYPE
from redact.formats.gemini_cli.native_table import MODEL_TYPE, TOOLS
from redact.formats.gemini_cli.table import MCP_NAME, WAITS_ON_USER, sniff_doc
from redact.formats.gemini_record import Dialect, RecordReader
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport
from redact.apply.paths import is_absolute, normalize
from redact.formats.roots import hashed_folder, settle, touched_project

AGENT_TOOL = "gemini-cli"
DIALECT = Dialect(AGENT_TOOL, MODEL_TYPE, TOOLS, WAITS_ON_USER, MCP_NAME)
_PARENT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


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


#: how write_file and replace confirm the file they wrote, absolute, in their output
_WROTE = re.compile(r"^Successfully (created and wrote to new file|overwrote file|modified file): "
                    r"([^\n]{1,4096}?)(?: \(\d+ replacements?\))?\.?(?: Here is|\n|$)")
_AGENT_FOLDER = "/.gemini/"
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")


class GeminiReader(RecordReader):
    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report, RECORD, DIALECT)
        self.stats = LineStats()
        self.project_hash: str | None = None
        self.confirmed: list[tuple[str, str]] = []  # (relative argument, the absolute path its write confirmed)

    def metadata(self, meta: dict[str, Any]) -> None:
        super().metadata(meta)
        digest = meta.get(PROJECT_HASH)
        if isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest):
            self.project_hash = digest

    def tool_call(self, tc: dict[str, Any], t: float) -> bool:
        if not super().tool_call(tc, t):
            return False
        call, res = self.s.facts[-2], self.s.facts[-1]
        if isinstance(call, ToolCall) and isinstance(res, ToolResult) and call.kind == "edit" and call.paths \
                and not res.is_error:
            wrote = _WROTE.match(self.response(tc)[0][:4200])
            if wrote and wrote.group(1).startswith("created"):
                call.op = res.op = "create"
            if wrote and not is_absolute(normalize(call.paths[0])) and is_absolute(normalize(wrote.group(2))):
                self.confirmed.append((call.paths[0], wrote.group(2)))
        return True

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool) -> None:
        raw = bytes(data) if isinstance(data, (bytes, bytearray)) else data.read()
        doc = document_of(raw)
        if doc is not None:
            self.document(doc)
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

    def finish(self, fallback: str | None, data: bytes | BinaryIO) -> SessionFacts:
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


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = GeminiReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    facts = reader.finish(file_stem, data)
    if facts.role == "subagent":  # chats/<parent session id>/<id>.jsonl
        parent = PurePath(where).parent.name
        if _PARENT.fullmatch(parent):
            facts.parent_native_id = native_id(parent)
    return facts
