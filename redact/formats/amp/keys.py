"""The keys Amp's reader and sniffer read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import.

The names read inside a tool result's `run.result` (a shape the table keeps whole) are the table's
own constants, which its `use` text is written from."""
from __future__ import annotations

from redact.formats.amp.native_table import RESULT_EXIT, RESULT_OUTPUT, TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
# -- the thread
THREAD_ID, THREAD_VERSION, CREATED, MESSAGES = S.key("id"), S.key("v"), S.key("created"), S.key("messages")
ENV, INITIAL, TREES = S.key("env"), S.key("env", "initial"), S.key("env", "initial", "trees")
TREE_URI = S.key("env", "initial", "trees", "uri")
LEDGER, EVENTS = S.key("usageLedger"), S.key("usageLedger", "events")
TO_MESSAGE, EVENT_AT, OPERATION = (S.key("usageLedger", "events", name)
                                   for name in ("toMessageId", "timestamp", "operationType"))
# -- a message
ROLE, MESSAGE_ID, CONTENT = S.key("messages", "role"), S.key("messages", "messageId"), S.key("messages", "content")
META, SENT_AT = S.key("messages", "meta"), S.key("messages", "meta", "sentAt")
STATE, STOP = S.key("messages", "state"), S.key("messages", "state", "stopReason")
USAGE = S.key("messages", "usage")
MODEL, IN, OUT, CACHE_WRITE, CACHE_READ = (
    S.key("messages", "usage", name)
    for name in ("model", "inputTokens", "outputTokens", "cacheCreationInputTokens", "cacheReadInputTokens"))
# -- a content block
BLOCKS = S.cases("messages", "content")
BLOCK_TYPE, TEXT = S.key("messages", "content", "type"), S.key("messages", "content", "text", "text")
CALL_ID, CALL_NAME, CALL_INPUT = (S.key("messages", "content", "tool_use", name) for name in ("id", "name", "input"))
RESULT_CALL, RUN = S.key("messages", "content", "tool_result", "toolUseID"), S.key("messages", "content", "tool_result", "run")
RUN_STATUS, RUN_ERROR = (S.key("messages", "content", "tool_result", "run", name) for name in ("status", "error"))
RUN_RESULT = S.blob("messages", "content", "tool_result", "run", "result")
# -- inside a shape the table keeps whole, read by the reader (native_table.py says so in its `use`)
EXIT_CODE, OUTPUT = RESULT_EXIT, RESULT_OUTPUT
EVENT_MODEL, EVENT_TOKENS = S.key("usageLedger", "events", "model"), S.key("usageLedger", "events", "tokens")
EVENT_IN, EVENT_OUT = (S.key("usageLedger", "events", "tokens", name) for name in ("input", "output"))
