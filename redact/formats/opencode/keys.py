"""The keys opencode's reader, its tree assembler and its sniffer read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import."""
from __future__ import annotations

from redact.formats.opencode.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
KIND = S.key("opencode")
SESSION_ID, DIRECTORY = S.key("session", "id"), S.key("session", "directory")
PARENT, CREATED = S.key("session", "parent_id"), S.key("session", "time_created")

MESSAGE_ID, MESSAGE_AT, MESSAGE_DATA = (S.key("message", name) for name in ("id", "time_created", "data"))
ROLE, MODEL, FINISH = (S.key("message", "data", name) for name in ("role", "modelID", "finish"))
TIMES, AT, COMPLETED = (S.key("message", "data", "time"), S.key("message", "data", "time", "created"),
                        S.key("message", "data", "time", "completed"))
TOKENS, CACHE = S.key("message", "data", "tokens"), S.key("message", "data", "tokens", "cache")
TOKENS_IN, TOKENS_OUT, TOKENS_REASONING = (S.key("message", "data", "tokens", name)
                                           for name in ("input", "output", "reasoning"))
CACHE_READ, CACHE_WRITE = (S.key("message", "data", "tokens", "cache", name) for name in ("read", "write"))
ERROR, ERROR_NAME = S.key("message", "data", "error"), S.key("message", "data", "error", "name")
MESSAGE_FILE_ID = S.key("message", "data", "id")  # a message file of the pre-1.x tree is `data`

PART_MESSAGE, PART_DATA = S.key("part", "message_id"), S.key("part", "data")
PART_TYPE, PART_FILE_ID = S.key("part", "data", "type"), S.key("part", "data", "id")
PART_TYPES = S.cases("part", "data")
TEXT, SYNTHETIC, IGNORED = (S.key("part", "data", "text", name) for name in ("text", "synthetic", "ignored"))
MIME = S.key("part", "data", "file", "mime")
AUTO = S.key("part", "data", "compaction", "auto")
TOOL, CALL_ID, STATE = (S.key("part", "data", "tool", name) for name in ("tool", "callID", "state"))
STATUS, OUTPUT, STATE_ERROR, STATE_TIMES, META = (
    S.key("part", "data", "tool", "state", name) for name in ("status", "output", "error", "time", "metadata"))
INPUT = S.blob("part", "data", "tool", "state", "input")
START, END = (S.key("part", "data", "tool", "state", "time", name) for name in ("start", "end"))
EXIT, EXISTS = (S.key("part", "data", "tool", "state", "metadata", name) for name in ("exit", "exists"))

FILE_ID, FILE_PROJECT, FILE_DIRECTORY, FILE_PARENT = (
    S.key("<session_file>", name) for name in ("id", "projectID", "directory", "parentID"))
FILE_TITLE, FILE_VERSION, FILE_TIMES = (S.key("<session_file>", name) for name in ("title", "version", "time"))
FILE_CREATED, FILE_UPDATED = (S.key("<session_file>", "time", name) for name in ("created", "updated"))
