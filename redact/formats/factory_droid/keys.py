"""The keys Factory Droid's reader and sniffer read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import."""
from __future__ import annotations

from redact.formats.factory_droid.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
KIND = S.key("type")
RECORD_TYPES = S.cases()
SESSION_ID, CWD, VERSION = (S.key("session_start", name) for name in ("id", "cwd", "version"))
START_AT = S.key("session_start", "timestamp")
AT, VISIBILITY, MESSAGE = (S.key("message", name) for name in ("timestamp", "visibility", "message"))
ROLE, CONTENT, MODEL = (S.key("message", "message", name) for name in ("role", "content", "model"))
BLOCKS = S.cases("message", "message", "content")
BLOCK_TYPE = S.key("message", "message", "content", "type")
TEXT = S.key("message", "message", "content", "text", "text")
CALL_ID, CALL_NAME = (S.key("message", "message", "content", "tool_use", name) for name in ("id", "name"))
CALL_INPUT = S.key("message", "message", "content", "tool_use", "input")
RESULT_CALL, RESULT_CONTENT, RESULT_ERROR = (S.key("message", "message", "content", "tool_result", name)
                                             for name in ("tool_use_id", "content", "is_error"))
RESULT_TYPE = S.key("message", "message", "content", "tool_result", "content", "type")
RESULT_TEXT = S.key("message", "message", "content", "tool_result", "content", "text", "text")
assert TABLE.document is not None
SETTINGS_MODEL = Slots(TABLE, root=TABLE.document).key("model")
