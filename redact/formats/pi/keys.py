"""The keys Pi's reader, native scrubber and sniffer read, each named by its place in the format's
one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify fails
the import.

The names read inside a shape the table keeps whole are the table's own constants (`BLOCK_TEXT`)."""
from __future__ import annotations

from redact.formats.pi.native_table import ALIASES, BLOCK_TEXT, TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
#: Entry types: "mapped" (read for facts) or "skipped" (counted by name, never read).
ENTRY_TYPES = S.cases()
KIND, ENTRY_ID, PARENT, AT = S.key("type"), S.key("id"), S.key("parentId"), S.key("timestamp")
# -- the header
SESSION_ID, VERSION, CWD = S.key("session", "id"), S.key("session", "version"), S.key("session", "cwd")
FIRST_MODEL = S.key("session", "modelId")
# -- model changes, compactions
NEW_MODEL = S.key("model_change", "modelId")
TOKENS_BEFORE = S.key("compaction", "tokensBefore")
# -- a message
MESSAGE = S.key("message", "message")
ROLES = S.cases("<message>")
ROLE, SENT = S.key("<message>", "role"), S.key("<message>", "timestamp")
CONTENT = S.same(("<message>", "user", "content"), ("<message>", "assistant", "content"),
                 ("<message>", "toolResult", "content"))
MODEL, USAGE, STOP, ERROR_MESSAGE = (S.key("<message>", "assistant", name)
                                     for name in ("model", "usage", "stopReason", "errorMessage"))
IN, OUT, CACHE_READ, CACHE_WRITE = (S.key("<message>", "assistant", "usage", name)
                                    for name in ("input", "output", "cacheRead", "cacheWrite"))
RESULT_CALL, IS_ERROR = S.key("<message>", "toolResult", "toolCallId"), S.key("<message>", "toolResult", "isError")
# -- content blocks
BLOCKS = S.cases("<message>", "assistant", "content")
PARTS = S.cases("<message>", "toolResult", "content")
BLOCK_TYPE = S.key("<message>", "assistant", "content", "type")
TEXT = S.same(("<message>", "assistant", "content", "text", "text"),
              ("<message>", "toolResult", "content", "text", BLOCK_TEXT))
CALL_ID, CALL_NAME, CALL_ARGS = (S.key("<message>", "assistant", "content", "toolCall", name)
                                 for name in ("id", "name", "arguments"))
PATH_ARG = S.at("path", *(("<message>", "assistant", "content", "toolCall", name, "arguments")
                          for name in ("read", "write", "edit")))
COMMAND_ARG = S.key("<message>", "assistant", "content", "toolCall", "bash", "arguments", "command")
TOOLS = tuple(ALIASES)
