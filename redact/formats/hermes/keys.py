"""The keys Hermes Agent's reader, native scrubber and sniffer read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not
classify fails the import."""
from __future__ import annotations

from redact.formats.hermes.native_table import ALIASES, DOCUMENT, LINE, TABLE, TOKEN_COLUMNS
from redact.formats.slots import Slots

S = Slots(TABLE)
D = Slots(TABLE, DOCUMENT)
#: Line roles: "mapped" (read for facts) or "skipped" (counted by name, never read).
LINE_ROLES = S.cases()
ROLE = LINE.key  # the switch key of every line and message
AT = S.same(("user", "timestamp"), ("assistant", "timestamp"), ("tool", "timestamp"), ("session_meta", "timestamp"))
# -- the JSON Lines header
META_MODEL, META_ID, META_CWD = S.key("session_meta", "model"), S.key("session_meta", "session_id"), \
    S.key("session_meta", "cwd")
META_END = S.key("session_meta", "ended_at")
META_TOKENS = tuple(S.key("session_meta", column) for column in TOKEN_COLUMNS)
# -- the document
DOC_ID, DOC_MODEL, START, END = (D.key(name) for name in ("session_id", "model", "session_start", "last_updated"))
MESSAGES = D.key("messages")
# -- a message
CONTENT = S.same(("user", "content"), ("assistant", "content"), ("tool", "content"))
REASONING, STOP, TOOL_CALLS = (S.key("assistant", name) for name in ("reasoning", "finish_reason", "tool_calls"))
CALL_ID, FUNCTION = S.key("assistant", "tool_calls", "id"), S.key("assistant", "tool_calls", "function")
CALL_NAME = S.key("assistant", "tool_calls", "function", "name")
CALL_ARGS = S.key("assistant", "tool_calls", "function", "arguments")
CALL_NAMES = S.cases("assistant", "tool_calls", "function")
RESULT_CALL = S.key("tool", "tool_call_id")
TOOLS = tuple(ALIASES)
