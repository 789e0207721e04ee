"""The keys the ConversationState reader, its sniffer and the store read, each named by its place in
the format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not
classify fails the import. fs_read's `operations` (read by the shared tool table's rules) are the
table's own constants."""
from __future__ import annotations

from redact.formats.kiro_legacy.native_table import OPERATION_PATH, OPERATIONS, TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
CONVERSATION_ID, HISTORY, MODEL_INFO = S.key("conversation_id"), S.key("history"), S.key("model_info")
TRANSCRIPT, TOOLS = S.key("transcript"), S.key("tools")
MODEL_ID, RATE_UNIT = S.key("model_info", "model_id"), S.key("model_info", "rate_unit")
CONTEXT, PROFILE = S.key("context_manager"), S.key("context_manager", "current_profile")
# -- a turn
USER, ASSISTANT, REQUEST = S.key("history", "user"), S.key("history", "assistant"), S.key("history", "request_metadata")
ENV, ENV_STATE = S.key("history", "user", "env_context"), S.key("history", "user", "env_context", "env_state")
CWD = S.key("history", "user", "env_context", "env_state", "current_working_directory")
CONTENT, USER_AT = S.key("history", "user", "content"), S.key("history", "user", "timestamp")
PROMPT = S.key("history", "user", "content", "Prompt")
PROMPT_TEXT = S.same(("history", "user", "content", "Prompt", "prompt"),
                     ("history", "user", "content", "CancelledToolUses", "prompt"))
RESULTS = S.key("history", "user", "content", "ToolUseResults")
CANCELLED = S.key("history", "user", "content", "CancelledToolUses")
RESULT_LIST = S.same(("history", "user", "content", "ToolUseResults", "tool_use_results"),
                     ("history", "user", "content", "CancelledToolUses", "tool_use_results"))
RESULT_CALL, RESULT_CONTENT, RESULT_STATUS = (S.key("history", "user", "content", "ToolUseResults",
                                                    "tool_use_results", name)
                                              for name in ("tool_use_id", "content", "status"))
ITEM_TEXT, ITEM_JSON = (S.key("history", "user", "content", "ToolUseResults", "tool_use_results", "content", name)
                        for name in ("Text", "Json"))
RESPONSE, TOOL_USE = S.key("history", "assistant", "Response"), S.key("history", "assistant", "ToolUse")
REPLY_TEXT = S.same(("history", "assistant", "Response", "content"), ("history", "assistant", "ToolUse", "content"))
TOOL_USES = S.key("history", "assistant", "ToolUse", "tool_uses")
CALL_ID, CALL_NAME, CALL_ARGS = (S.key("history", "assistant", "ToolUse", "tool_uses", name)
                                 for name in ("id", "name", "args"))
START_MS, END_MS, REQUEST_MODEL = (S.key("history", "request_metadata", name)
                                   for name in ("request_start_timestamp_ms", "stream_end_timestamp_ms", "model_id"))
# -- inside a tool's arguments (the shared tool table's rules; native_table.py names them)
READ_OPERATIONS, READ_PATH = OPERATIONS, OPERATION_PATH
