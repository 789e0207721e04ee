"""The keys Goose's reader and sniffer read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import."""
from __future__ import annotations

from redact.formats.goose.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
ROLE = S.key("role")
# -- the metadata line (the switch's default layout: every name below is looked up in it)
SESSION_ID, WORKING_DIR, CREATED_AT = S.key("id"), S.key("working_dir"), S.key("created_at")
MESSAGE_COUNT = S.key("message_count")
# -- a message
CREATED, CONTENT = S.key("user", "created"), S.key("user", "content")
ITEMS = S.cases("user", "content")
C = ("user", "content")
ITEM_TYPE, TEXT = S.key(*C, "type"), S.key(*C, "text", "text")
REQUEST_ID, TOOL_CALL = S.key(*C, "toolRequest", "id"), S.key(*C, "toolRequest", "toolCall")
STATUS, VALUE, ERROR = (S.key(*C, "toolRequest", "toolCall", name) for name in ("status", "value", "error"))
CALL_NAME, ARGUMENTS = S.key(*C, "toolRequest", "toolCall", "value", "name"), \
    S.key(*C, "toolRequest", "toolCall", "value", "arguments")
EDITOR_COMMAND = S.key(*C, "toolRequest", "toolCall", "value", "developer__text_editor", "arguments", "command")
RESPONSE_ID, TOOL_RESULT = S.key(*C, "toolResponse", "id"), S.key(*C, "toolResponse", "toolResult")
RESULT_VALUE = S.key(*C, "toolResponse", "toolResult", "value")
RESULT_ERROR = S.key(*C, "toolResponse", "toolResult", "error")
RESULT_CONTENT, IS_ERROR = (S.key(*C, "toolResponse", "toolResult", "value", name) for name in ("content", "isError"))
CONTENT_TYPE = S.key(*C, "toolResponse", "toolResult", "value", "content", "type")
CONTENT_TEXT = S.key(*C, "toolResponse", "toolResult", "value", "content", "text", "text")
# -- items of the older generations (the item switch's default layout)
OLD_TEXT, OLD_IMAGE = S.key(*C, "Text"), S.key(*C, "Image")
OLD_TEXT_TEXT = S.key(*C, "Text", "text")
OLD_REQUEST, OLD_CALL = S.key(*C, "ToolRequest"), S.key(*C, "ToolRequest", "tool_call")
OK, ERR = S.key(*C, "ToolRequest", "tool_call", "Ok"), S.key(*C, "ToolRequest", "tool_call", "Err")
OLD_RESPONSE, OLD_RESULT = S.key(*C, "ToolResponse"), S.key(*C, "ToolResponse", "tool_result")
assert S.key(*C, "ToolResponse", "tool_result", "Ok") == OK and S.key(*C, "ToolResponse", "tool_result", "Err") == ERR
assert S.key(*C, "ToolRequest", "id") == REQUEST_ID == S.key(*C, "ToolResponse", "id")
PLAIN_TEXT, TOOL_NAME = S.key(*C, "text"), S.key(*C, "tool_name")
PLAIN_ARGUMENTS = S.blob(*C, "arguments")
PLAIN_ID, PLAIN_RESULT = S.key(*C, "id"), S.key(*C, "tool_result")
