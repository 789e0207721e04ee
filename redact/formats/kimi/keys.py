"""The keys Kimi CLI's reader, native scrubber and sniffer read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import."""
from __future__ import annotations

from redact.formats.kimi.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
LINE_TYPE, VERSION = S.key("type"), S.key("metadata", "protocol_version")
AT, MESSAGE = S.key("timestamp"), S.key("message")
# -- an event
EVENT_TYPES = S.cases("<event>")
KIND, PAYLOAD = S.key("<event>", "type"), S.key("<event>", "payload")
USER_INPUT = S.key("<event>", "TurnBegin", "payload", "user_input")
PART_TYPE = S.key("<event>", "ContentPart", "payload", "type")
TEXT_PLACE = ("<event>", "ContentPart", "payload", "text", "text")
TEXT, THINK = S.key(*TEXT_PLACE), S.key("<event>", "ContentPart", "payload", "think", "think")
CALL_ID, FUNCTION = S.key("<event>", "ToolCall", "payload", "id"), S.key("<event>", "ToolCall", "payload", "function")
CALL_NAME = S.key("<event>", "ToolCall", "payload", "function", "name")
CALL_ARGS = S.key("<event>", "ToolCall", "payload", "function", "arguments")  # JSON text
ARGUMENTS_PART = S.blob("<event>", "ToolCallPart", "payload", "arguments_part")
RESULT_CALL, RETURN = (S.key("<event>", "ToolResult", "payload", name) for name in ("tool_call_id", "return_value"))
IS_ERROR, OUTPUT, RESULT_MESSAGE = (S.key("<event>", "ToolResult", "payload", "return_value", name)
                                    for name in ("is_error", "output", "message"))
USAGE = S.key("<event>", "StatusUpdate", "payload", "token_usage")
IN, OUT, CACHE_READ, CACHE_WRITE = (S.key("<event>", "StatusUpdate", "payload", "token_usage", name)
                                    for name in ("input_other", "output", "input_cache_read", "input_cache_creation"))
TASK_CALL, SUB_EVENT = (S.key("<event>", "SubagentEvent", "payload", name) for name in ("task_tool_call_id", "event"))
# -- the arguments the reader reads (the JSON text of `arguments`), by tool
PATH_ARG = S.at("path", *(("<event>", "ToolCall", "payload", "function", name, "arguments")
                          for name in ("ReadFile", "ReadMediaFile", "WriteFile", "StrReplaceFile")))
COMMAND_ARG = S.key("<event>", "ToolCall", "payload", "function", "Shell", "arguments", "command")
URL_ARG = S.key("<event>", "ToolCall", "payload", "function", "FetchURL", "arguments", "url")
SUBAGENT_ARG = S.key("<event>", "ToolCall", "payload", "function", "Task", "arguments", "subagent_name")
# -- ~/.kimi/kimi.json
WORK_DIRS, WORK_DIR_PATH = S.key("<kimi_json>", "work_dirs"), S.key("<kimi_json>", "work_dirs", "path")
# -- a context.jsonl message (the model's history, no times)
CONTEXT_ROLES = S.cases("<context>")
ROLE = S.key("<context>", "role")
C_CONTENT = S.same(("<context>", "user", "content"), ("<context>", "assistant", "content"),
                   ("<context>", "tool", "content"))
C_CALLS = S.key("<context>", "assistant", "tool_calls")
C_PART_TYPE = S.same(("<context>", "assistant", "content", "type"), ("<event>", "ContentPart", "payload", "type"))
C_CALL_ID = S.same(("<context>", "assistant", "tool_calls", "id"), ("<event>", "ToolCall", "payload", "id"))
C_FUNCTION = S.same(("<context>", "assistant", "tool_calls", "function"),
                    ("<event>", "ToolCall", "payload", "function"))
C_RESULT_CALL = S.key("<context>", "tool", "tool_call_id")
C_TEXT = S.same(("<context>", "tool", "content", "text", "text"), TEXT_PLACE)
