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

from redact.build.facts import SessionFacts
from redact.formats.common import native_id, session_id
from redact.formats.gemini_cli.keys import RECORD, REWIND, SET, SET_DIRECTORIES, SET_MESSAGES, TYPE
from redact.formats.gemini_cli.native_table import MODEL_TYPE, TOOLS
from redact.formats.gemini_cli.table import MCP_NAME, WAITS_ON_USER, sniff_doc
from redact.formats.gemini_record import Dialect, RecordReader
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport
from redact.formats.roots import settle

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


class GeminiReader(RecordReader):
    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report, RECORD, DIALECT)
        self.stats = LineStats()

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
        self.stats.warn_skipped(self.report)
        return s


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
