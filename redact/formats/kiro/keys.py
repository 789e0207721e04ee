"""The keys Kiro's reader, sniffers and assembler read, each named by its place in the format's one
table (`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the
import. The names read inside a tool's input or a `json` result item (shapes the table keeps whole or
reads by the shared tool table) are the table's own constants, which its `use` text is written from."""
from __future__ import annotations

from redact.formats.kiro.native_table import OPERATION_PATH, OPERATIONS, RESULT_EXIT, RESULT_STDOUT, TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
_KINDS = ("Prompt", "AssistantMessage", "ToolResults")
# -- the export document and a log entry
FORMAT_TAG = Slots(TABLE, TABLE.document).key("format")
EXPORT_METADATA = Slots(TABLE, TABLE.document).key("metadata")
LOG_ENTRIES = Slots(TABLE, TABLE.document).key("log_entries")
KIND, VERSION = S.key("kind"), S.same(*((k, "version") for k in _KINDS))
DATA = S.same(*((k, "data") for k in _KINDS))
MESSAGE_ID = S.same(*((k, "data", "message_id") for k in _KINDS))
CONTENT = S.same(*((k, "data", "content") for k in _KINDS))
META = S.same(*((k, "data", "meta") for k in _KINDS))
TIMESTAMP = S.same(*((k, "data", "meta", "timestamp") for k in _KINDS))
RECORDS = S.cases()
# -- a content block
BLOCKS = S.cases("Prompt", "data", "content")
BLOCK_KIND = S.key("Prompt", "data", "content", "kind")
BLOCK_DATA = S.same(("Prompt", "data", "content", "text", "data"), ("Prompt", "data", "content", "toolUse", "data"),
                    ("Prompt", "data", "content", "toolResult", "data"))
CALL_ID, CALL_NAME, CALL_INPUT = (S.key("AssistantMessage", "data", "content", "toolUse", "data", name)
                                  for name in ("toolUseId", "name", "input"))
RESULT_CALL, RESULT_STATUS, RESULT_CONTENT = (S.key("ToolResults", "data", "content", "toolResult", "data", name)
                                              for name in ("toolUseId", "status", "content"))
ITEM_KIND = S.key("ToolResults", "data", "content", "toolResult", "data", "content", "kind")
ITEM_DATA = S.blob("ToolResults", "data", "content", "toolResult", "data", "content", "json", "data")
S.blob("ToolResults", "data", "content", "toolResult", "data", "content", "text", "data")
# -- the session metadata (the store's <uuid>.json, the export's `metadata`)
_M = "<metadata>"
SESSION_ID, CWD, CREATED = S.key(_M, "session_id"), S.key(_M, "cwd"), S.key(_M, "created_at")
STATE = S.key(_M, "session_state")
CONVERSATION, TURNS = S.key(_M, "session_state", "conversation_metadata"), \
    S.key(_M, "session_state", "conversation_metadata", "user_turn_metadatas")
MESSAGE_IDS, END_REASON, END_AT = (S.key(_M, "session_state", "conversation_metadata", "user_turn_metadatas", name)
                                   for name in ("message_ids", "end_reason", "end_timestamp"))
RTS, MODEL_INFO = S.key(_M, "session_state", "rts_model_state"), S.key(_M, "session_state", "rts_model_state", "model_info")
MODEL_ID = S.key(_M, "session_state", "rts_model_state", "model_info", "model_id")
# -- inside a shape the table keeps whole, read by the reader (native_table.py says so in its `use`)
EXIT_STATUS, STDOUT, READ_OPERATIONS, READ_PATH = RESULT_EXIT, RESULT_STDOUT, OPERATIONS, OPERATION_PATH
