"""The keys Cline's reader, sniffer and native scrubber read, each named by its place in the format's
one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the
import. The subtypes the reader maps are read off the same tree (`S.cases`)."""
from __future__ import annotations

from redact.formats.cline.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
# a message: `type` says or asks; the subtype is under the key of that name
TYPE = S.key("type")
TS, TEXT = S.key("say", "task", "ts"), S.key("say", "task", "text")  # every say and ask has both
SAY, ASK = S.key("say", "say"), S.key("ask", "ask")
KINDS = tuple(S.cases())  # the values of `type`: say, ask
SAY_CASES, ASK_CASES = S.cases(SAY), S.cases(ASK)  # subtype -> mapped / skipped
IMAGES = S.key("say", "task", "images")
COMMAND_DONE = S.key("say", "command", "commandCompleted")
MODEL_INFO = S.key("say", "api_req_started", "modelInfo")
MODEL_ID = S.key("say", "api_req_started", "modelInfo", "modelId")
# the JSON in an `api_req_started` text
TOKENS_IN, TOKENS_OUT, CACHE_WRITES, CACHE_READS, CANCEL, REQUEST = (
    S.key("say", "api_req_started", "text", name)
    for name in ("tokensIn", "tokensOut", "cacheWrites", "cacheReads", "cancelReason", "request"))
# the JSON in a `tool` text
TOOL_NAME, TOOL_PATH, TOOL_URL = (S.key("say", "tool", "text", name) for name in ("tool", "path", "url"))
# the JSON in a `use_mcp_server` ask's text
MCP_SERVER, MCP_TOOL, MCP_URI = (S.key("ask", "use_mcp_server", "text", name)
                                 for name in ("serverName", "toolName", "uri"))
# the JSON in an `error_retry` text
RETRY_ERROR = S.key("say", "error_retry", "text", "errorMessage")
RETRY_FAILED = S.key("say", "error_retry", "text", "failed")
# a message of api_conversation_history.json (the switch's default layout) and its content blocks
ROLE, CONTENT, HISTORY_TS = S.key("role"), S.key("content"), S.key("ts")
HISTORY_MODEL, HISTORY_MODEL_ID = S.key("modelInfo"), S.key("modelInfo", "modelId")
BLOCK_TYPE = S.key("content", "type")
BLOCK_TEXT = S.key("content", "text", "text")
USE_ID, USE_NAME = S.key("content", "tool_use", "id"), S.key("content", "tool_use", "name")
USE_INPUT = S.blob("content", "tool_use", "input")
RESULT_ID, RESULT_ERROR = S.key("content", "tool_result", "tool_use_id"), S.key("content", "tool_result", "is_error")
