"""The keys Continue's reader and sniffer read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import."""
from __future__ import annotations

from redact.formats.continue_dev.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
SESSION_ID, HISTORY, WORKSPACE = S.key("sessionId"), S.key("history"), S.key("workspaceDirectory")
MESSAGE = S.key("history", "message")
ROLE, CONTENT = S.key("history", "message", "role"), S.key("history", "message", "content")
USAGE = S.key("history", "message", "usage")
MODEL, PROMPT_TOKENS, COMPLETION_TOKENS, TOTAL_TOKENS = (
    S.key("history", "message", "usage", name) for name in ("model", "prompt_tokens", "completion_tokens", "total_tokens"))
TOOL_CALLS = S.key("history", "message", "toolCalls")
CALL_ID, FUNCTION = S.key("history", "message", "toolCalls", "id"), S.key("history", "message", "toolCalls", "function")
CALL_NAME = S.key("history", "message", "toolCalls", "function", "name")
CALL_ARGS = S.blob("history", "message", "toolCalls", "function", "arguments")
STATES = S.key("history", "toolCallStates")
STATE_CALL_ID, PARSED_ARGS, STATE_STATUS = (S.key("history", "toolCallStates", name)
                                            for name in ("toolCallId", "parsedArgs", "status"))
OUTPUT = S.blob("history", "toolCallStates", "output")
OUTPUT_CONTENT = S.key("<OUTPUT_ITEM>", "content")
INDEX_SESSION_ID, INDEX_CREATED = S.key("<INDEX_ENTRY>", "sessionId"), S.key("<INDEX_ENTRY>", "dateCreated")
SUMMARY = S.key("history", "conversationSummary")
