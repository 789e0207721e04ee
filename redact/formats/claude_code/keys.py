"""The keys Claude Code's reader, its helpers and its sniffer read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import.

Tool inputs are classified per tool in the tree (the `tool_use` block is a Switch on the tool name):
an input field the reader reads for a kind of tool is proven in the layout of every tool of that
kind (`_tools`). The three fields the tree drops whole and the reader opens (a Batch call's
`invocations`, a Batch result's `orderedToolResults`, an API error's `error.error`) are blobs; the
names read inside them are the table's named layouts of their insides (`INSIDE_BLOBS`).
"""
from __future__ import annotations

from redact.formats.claude_code.native_table import HOOK_ATTACHMENTS, TABLE, TOOL_KINDS
from redact.formats.slots import Slots

S = Slots(TABLE)


_CALL = ("assistant", "message", "content", "tool_use")


def _tools(kind: str, name: str) -> str:
    """An input field the reader reads for every tool of `kind`: classified in each one's layout."""
    return S.same(*((*_CALL, tool, "input", name) for tool, k in TOOL_KINDS.items() if k == kind))


# -- every record: the envelope --------------------------------------------------------------------
TYPE, UUID, PARENT_UUID, TIMESTAMP = S.key("type"), S.key("uuid"), S.key("parentUuid"), S.key("timestamp")
SESSION_ID, LEAF_UUID, MESSAGE_ID = S.key("sessionId"), S.key("leafUuid"), S.key("messageId")
IS_SIDECHAIN, AGENT_ID = S.key("isSidechain"), S.key("agentId")
CWD, ORIGINAL_CWD, GIT_BRANCH = S.key("cwd"), S.key("originalCwd"), S.key("gitBranch")
PARENT_TOOL_USE_ID = S.key("parentToolUseID")
IS_META, IS_COMPACT_SUMMARY = S.key("user", "isMeta"), S.key("user", "isCompactSummary")
IS_TRANSCRIPT_ONLY = S.key("user", "isVisibleInTranscriptOnly")

# -- user and assistant messages -------------------------------------------------------------------
MESSAGE = S.same(("user", "message"), ("assistant", "message"))
CONTENT = S.same(("user", "message", "content"), ("assistant", "message", "content"))
#: a content block's type: of a user or assistant message, and of a tool_result's content
BLOCK_TYPE = S.same(("user", "message", "content", "type"), ("assistant", "message", "content", "type"),
                   ("user", "message", "content", "tool_result", "content", "type"))
#: a text block's text: of a user or assistant message, and of a tool_result's content
TEXT = S.same(("user", "message", "content", "text", "text"), ("assistant", "message", "content", "text", "text"),
             ("user", "message", "content", "tool_result", "content", "text", "text"))
TOOL_USE_RESULT = S.key("user", "toolUseResult")

IS_API_ERROR, RESPONSE_ERROR = S.key("assistant", "isApiErrorMessage"), S.key("assistant", "error")
REQUEST_ID, DURATION = S.key("assistant", "requestId"), S.key("assistant", "durationMs")
RESPONSE_ID, MODEL = S.key("assistant", "message", "id"), S.key("assistant", "message", "model")
USAGE, STOP_REASON = S.key("assistant", "message", "usage"), S.key("assistant", "message", "stop_reason")
IN_TOKENS, CACHE_WRITE_TOKENS, CACHE_READ_TOKENS, OUT_TOKENS = (
    S.key("assistant", "message", "usage", name) for name in (
        "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"))

# -- tool calls (a tool_use block: a Switch on the tool name) --------------------------------------
CALL_ID, CALL_NAME, CALL_INPUT = (S.key(*_CALL, name) for name in ("id", "name", "input"))
COMMAND = _tools("exec", "command")
SKILL = _tools("skill", "skill")
SUBAGENT_TYPE, SUBAGENT_MODEL, PROMPT = (_tools("subagent", name) for name in ("subagent_type", "model", "prompt"))
URL = S.key(*_CALL, "WebFetch", "input", "url")
OUTPUT_MODE = S.key(*_CALL, "Grep", "input", "output_mode")
MCP_ID = S.key(*_CALL, "input", "id")  # any other tool (an MCP tool): the default layout
INVOCATIONS = S.blob(*_CALL, "input", "invocations")  # Batch (clients 0.2.x)
INVOCATION_TOOL, INVOCATION_INPUT = S.key("<batch_invocation>", "tool_name"), S.key("<batch_invocation>", "input")

# -- tool results ----------------------------------------------------------------------------------
_RESULT = ("user", "message", "content", "tool_result")
RESULT_CALL, RESULT_ERROR, RESULT_CONTENT = (S.key(*_RESULT, name) for name in ("tool_use_id", "is_error", "content"))
IMAGE_SOURCE = S.key(*_RESULT, "content", "image", "source")
IMAGE_DATA = S.key(*_RESULT, "content", "image", "source", "data")

_TUR = ("user", "toolUseResult")
FILENAMES, MODE, OUTPUT_CONTENT = (S.key(*_TUR, name) for name in ("filenames", "mode", "content"))
INTERRUPTED, STDOUT, BACKGROUND_TASK = (S.key(*_TUR, name) for name in ("interrupted", "stdout", "backgroundTaskId"))
OUTPUT_TYPE, CHILD_AGENT, CHILD_STATUS = (S.key(*_TUR, name) for name in ("type", "agentId", "status"))
ORDERED_RESULTS = S.blob(*_TUR, "orderedToolResults")  # Batch (clients 0.2.x)
ORDERED_RECORD = S.key("<batch_result>", "message")

# -- system records --------------------------------------------------------------------------------
SUBTYPE = S.key("system", "subtype")
RETRY_ATTEMPT, MAX_RETRIES = S.key("system", "api_error", "retryAttempt"), S.key("system", "api_error", "maxRetries")
API_ERROR = S.key("system", "api_error", "error")
API_STATUS = S.key("system", "api_error", "error", "status")
API_ERROR_BODY = S.blob("system", "api_error", "error", "error")
API_ERROR_TYPE = S.key("<api_error_body>", "type")
_COMPACT = ("system", "compact_boundary", "compactMetadata")
COMPACT_METADATA = S.key(*_COMPACT)
TRIGGER, PRE_TOKENS, POST_TOKENS, COMPACT_MS = (S.key(*_COMPACT, name)
                                                for name in ("trigger", "preTokens", "postTokens", "durationMs"))
TRIGGERS = S.enum(*_COMPACT, "trigger")  # the compaction triggers the reader keeps
HOOK_ERRORS = S.key("system", "stop_hook_summary", "hookErrors")
PREVENTED = S.key("system", "stop_hook_summary", "preventedContinuation")
SYSTEM_CONTENT = S.key("system", "informational", "content")

# -- attachment and progress records ---------------------------------------------------------------
ATTACHMENT = S.key("attachment", "attachment")
ATTACHMENT_TYPE = S.key("attachment", "attachment", "type")
HOOK_NAME, HOOK_EVENT, HOOK_CALL = (S.same(*(("attachment", "attachment", kind, name) for kind in HOOK_ATTACHMENTS))
                                    for name in ("hookName", "hookEvent", "toolUseID"))
DATA = S.key("progress", "data")
DATA_TYPE = S.key("progress", "data", "type")
PROGRESS_AGENT = S.key("progress", "data", "agent_progress", "agentId")
PROGRESS_MESSAGE = S.key("progress", "data", "agent_progress", "message")
