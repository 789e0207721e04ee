"""Cline task logs (ui_messages.json) under `--to native`: the list of messages, each by its subtype.

Prompts, replies, reasoning, command output, completion results and follow-up questions become
their shape; an `api_req_started` keeps its token counts and cost (its request text becomes its
shape); a `tool` keeps its tool name and path (content, regex and diff become their shape); a
`command` becomes its verb; `use_mcp_server` keeps the server and tool names. A message of a subtype
the table does not know is dropped and counted.
"""
from __future__ import annotations

from redact.formats.cline.table import ASKS, SAYS, TOOLS
from redact.native.spec import (
    BOOL,
    ID,
    NUMBER,
    PATH,
    SHAPE,
    VERB,
    JsonText,
    Many,
    Obj,
    Spec,
    Switch,
    Table,
    const,
    enum,
    ident,
    obj,
    tool,
)

FORMAT = "cline"

_COMMON: dict[str, Spec] = {
    "ts": NUMBER, "partial": BOOL, "images": SHAPE, "files": SHAPE, "conversationHistoryIndex": NUMBER,
    "conversationHistoryDeletedRange": Many(NUMBER), "lastCheckpointHash": ID, "isCheckpointCheckedOut": BOOL,
    "commandCompleted": BOOL, "isOperationOutsideWorkspace": BOOL,
    "modelInfo": obj(providerId=enum("anthropic", "openai", "openrouter", "cline", "gemini", "vertex", "bedrock",
                                     "deepseek", "ollama", "lmstudio", "xai", "mistral", "groq", "litellm",
                                     "vscode-lm", "requesty", "openai-native", "claude-code"),
                     modelId=ident("model"), mode=enum("act", "plan")),
}
API_REQ = JsonText(obj(tokensIn=NUMBER, tokensOut=NUMBER, cacheWrites=NUMBER, cacheReads=NUMBER, cost=NUMBER,
                       cancelReason=enum("user_cancelled", "streaming_failed"), streamingFailedMessage=SHAPE,
                       request=SHAPE), text=SHAPE)
TOOL = JsonText(obj(tool=tool(*TOOLS), path=PATH, content=SHAPE, regex=SHAPE, filePattern=SHAPE, diff=SHAPE,
                    operationIsLocatedInWorkspace=BOOL, startLineNumbers=Many(NUMBER), url=SHAPE,
                    operationIsOutsideWorkspace=BOOL), text=SHAPE)
MCP = JsonText(obj(type=enum("use_mcp_tool", "access_mcp_resource"), serverName=ident("mcp_server"),
                   toolName=ident("mcp_tool"), arguments=SHAPE, uri=SHAPE, response=SHAPE), text=SHAPE)
RETRY = JsonText(obj(attempt=NUMBER, maxAttempts=NUMBER, delaySeconds=NUMBER, errorMessage=SHAPE), text=SHAPE)
#: the class of `text` by subtype (any other subtype: its shape)
TEXT_SAY: dict[str, Spec] = {"api_req_started": API_REQ, "deleted_api_reqs": API_REQ, "tool": TOOL,
                             "command": VERB, "error_retry": RETRY}
TEXT_ASK: dict[str, Spec] = {"tool": TOOL, "command": VERB, "use_mcp_server": MCP}


def _message(kind: str, sub: str, text: Spec) -> Obj:
    return Obj({**_COMMON, "type": const(kind), kind: const(sub), "text": text})


SAY = Switch("say", {sub: _message("say", sub, TEXT_SAY.get(sub, SHAPE)) for sub in SAYS})
ASK = Switch("ask", {sub: _message("ask", sub, TEXT_ASK.get(sub, SHAPE)) for sub in ASKS})
MESSAGE = Switch("type", {"say": SAY, "ask": ASK})
DOCUMENT = Many(MESSAGE)

TABLE = Table(FORMAT, DOCUMENT, {}, jsonl=False)
