"""The keys VS Code Copilot Chat's reader, sniffers, replay and native scrubber read, each named by its
place in the format's one table (`native_table.py`; redact/formats/slots.py): a place the table does
not classify fails the import.

The table's root is a line of the edit log (`{kind, v, k, i}`); its `v` is the chat session document,
the same layout a `.json` session (or an exported chat) is read with. The names read inside the JSON
the tree keeps whole (a tool's input, a call's result, `variableData`) are the tool table's, in
`native_table.py`.
"""
from __future__ import annotations

from redact.formats.copilot_vscode.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
# the edit log's entry
ENTRY_KIND, VALUE, ENTRY_PATH, CUT = S.key("kind"), S.key("v"), S.key("k"), S.key("i")
# the document (a `.json` session, or `v` of the log's first entry)
VERSION, SESSION_ID, CREATED = S.key("v", "version"), S.key("v", "sessionId"), S.key("v", "creationDate")
REQUESTER, RESPONDER = S.key("v", "requesterUsername"), S.key("v", "responderUsername")
REQUESTS = S.key("v", "requests")
# a request
REQUEST_ID, TIMESTAMP = S.key("v", "requests", "requestId"), S.key("v", "requests", "timestamp")
MESSAGE, MESSAGE_TEXT = S.key("v", "requests", "message"), S.key("v", "requests", "message", "text")
VARIABLE_DATA = S.blob("v", "requests", "variableData")
MODEL_ID, CANCELED = S.key("v", "requests", "modelId"), S.key("v", "requests", "isCanceled")
RESPONSE, RESULT = S.key("v", "requests", "response"), S.key("v", "requests", "result")
# a response part (a switch on `kind`; a part without one is markdown, the default layout)
PART_KIND = S.key("v", "requests", "response", "kind")
MARKDOWN_VALUE = S.key("v", "requests", "response", "value")
MARKDOWN_CONTENT = S.key("v", "requests", "response", "markdownContent", "content")
CALL_ID, TOOL_ID, COMPLETE, SOURCE, RESULT_DETAILS, TOOL_DATA = (
    S.key("v", "requests", "response", "toolInvocationSerialized", name)
    for name in ("toolCallId", "toolId", "isComplete", "source", "resultDetails", "toolSpecificData"))
SOURCE_TYPE, SOURCE_LABEL = (S.key("v", "requests", "response", "toolInvocationSerialized", "source", name)
                             for name in ("type", "label"))
IS_ERROR = S.key("v", "requests", "response", "toolInvocationSerialized", "resultDetails", "isError")
RAW_INPUT = S.blob("v", "requests", "response", "toolInvocationSerialized", "toolSpecificData", "rawInput")
COMMAND_LINE = S.key("v", "requests", "response", "toolInvocationSerialized", "toolSpecificData", "commandLine")
TERMINAL_LANGUAGE = S.key("v", "requests", "response", "toolInvocationSerialized", "toolSpecificData", "language")
ORIGINAL = S.key("v", "requests", "response", "toolInvocationSerialized", "toolSpecificData", "commandLine",
                 "original")
# the request's result
ERROR, METADATA = S.key("v", "requests", "result", "errorDetails"), S.key("v", "requests", "result", "metadata")
TIMINGS = S.key("v", "requests", "result", "timings")
ELAPSED = S.key("v", "requests", "result", "timings", "totalElapsed")
ERROR_CODE, ERROR_MESSAGE = (S.key("v", "requests", "result", "errorDetails", name) for name in ("code", "message"))
META_SESSION_ID, ROUNDS, PROMPT_TOKENS, OUTPUT_TOKENS = (
    S.key("v", "requests", "result", "metadata", name)
    for name in ("sessionId", "toolCallRounds", "promptTokens", "outputTokens"))
TOOL_RESULTS = S.blob("v", "requests", "result", "metadata", "toolCallResults")
# a model round and its tool calls
ROUND_RESPONSE, ROUND_THINKING, ROUND_CALLS = (S.key("v", "requests", "result", "metadata", "toolCallRounds", name)
                                               for name in ("response", "thinking", "toolCalls"))
CALL_NAME, ROUND_CALL_ID = (S.key("v", "requests", "result", "metadata", "toolCallRounds", "toolCalls", name)
                            for name in ("name", "id"))
CALL_ARGS = S.blob("v", "requests", "result", "metadata", "toolCallRounds", "toolCalls", "arguments")
