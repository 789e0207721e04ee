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
TEXT, THINK = S.key("<event>", "ContentPart", "payload", "text", "text"), S.key("<event>", "ContentPart", "payload", "think", "think")
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
