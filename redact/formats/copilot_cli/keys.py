"""The keys Copilot CLI's reader, its tools, its native scrubber and its sniffer read, each named by its
place in the format's one table (`native_table.py`; redact/formats/slots.py): a place the table does
not classify fails the import."""
from __future__ import annotations

from redact.formats.copilot_cli.native_table import TABLE, TOOLS
from redact.formats.slots import Slots

S = Slots(TABLE)


def _argument(field: str, *kinds: str, tools: tuple[str, ...] = ()) -> str:
    """An argument the tools of `kinds` (or the `tools` named) are read for, proven for each of those
    tools, both where a call starts (`tool.execution_start`) and where it is only requested
    (`toolRequests`)."""
    names = [name for name, t in TOOLS.items() if t.kind in kinds] + list(tools)
    return S.at(field, *((*where, name, "arguments") for name in names for where in (_START, _REQUEST)))


_START = ("tool.execution_start", "data")
_REQUEST = ("assistant.message", "data", "toolRequests")

#: Event types: "mapped" (read for facts) or "skipped" (counted by name in the report, never read).
EVENT_TYPES = S.cases()
KIND, DATA, AT, ID = S.key("type"), S.key("data"), S.key("timestamp"), S.key("id")

SESSION_ID, START_TIME = S.key("session.start", "data", "sessionId"), S.key("session.start", "data", "startTime")
PRODUCER, COPILOT_VERSION = (S.key("session.start", "data", name) for name in ("producer", "copilotVersion"))
CONTEXT = S.at("context", ("session.start", "data"), ("session.resume", "data"))
CWD, GIT_ROOT, REPOSITORY, HOST_TYPE = (
    S.at(name, ("session.start", "data", "context"), ("session.resume", "data", "context"))
    for name in ("cwd", "gitRoot", "repository", "hostType"))
NEW_MODEL = S.key("session.model_change", "data", "newModel")

CONTENT = S.at("content", ("user.message", "data"), ("assistant.message", "data"))
ATTACHMENTS = S.key("user.message", "data", "attachments")
ATTACHMENT_TYPE = S.key("user.message", "data", "attachments", "type")

LANE = S.at("parentToolCallId", ("assistant.message", "data"), _START)
OUTPUT_TOKENS, REASONING_TEXT, REASONING_OPAQUE, TOOL_REQUESTS = (
    S.key("assistant.message", "data", name)
    for name in ("outputTokens", "reasoningText", "reasoningOpaque", "toolRequests"))
CALL_ID = S.at("toolCallId", _REQUEST, _START, ("tool.execution_complete", "data"), ("subagent.started", "data"))
REQUEST_NAME, TOOL_NAME = S.key(*_REQUEST, "name"), S.key(*_START, "toolName")
ARGUMENTS = S.at("arguments", _REQUEST, _START)
MCP_SERVER, MCP_TOOL = S.key(*_START, "mcpServerName"), S.key(*_START, "mcpToolName")
COMMAND = _argument("command", "exec", tools=("str_replace_editor",))  # a shell's; str_replace_editor's
PATH = _argument("path", "read", "edit")
URL = _argument("url", "web")
AGENT_TYPE = _argument("agent_type", "subagent")
SKILL = _argument("skill", "skill")

MODEL, SUCCESS, RESULT, ERROR = (S.key("tool.execution_complete", "data", name)
                                 for name in ("model", "success", "result", "error"))
RESULT_CONTENT = S.key("tool.execution_complete", "data", "result", "content")
ERROR_MESSAGE = S.key("tool.execution_complete", "data", "error", "message")

AGENT_NAME = S.key("subagent.started", "data", "agentName")
SESSION_ERROR, ERROR_TYPE = S.key("session.error", "data", "message"), S.key("session.error", "data", "errorType")
HOOK_SUCCESS, HOOK_TYPE = S.key("hook.end", "data", "success"), S.key("hook.end", "data", "hookType")
PRE_COMPACTION = S.key("session.compaction_complete", "data", "preCompactionTokens")
MODEL_METRICS = S.blob("session.shutdown", "data", "modelMetrics")
