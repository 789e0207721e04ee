"""Continue sessions under `--to native`: the session document, its history items and tool calls.

Text (messages, editor state, tool output, the title) becomes its shape; a tool call's parsed
arguments keep what the shared tool table reads (a command as its verb, a path, a URL's host), its
raw arguments string, context items, prompt logs (whole prompts) and the workspace folder are dropped;
usage numbers and models stay; ids are kept or hashed; anything unknown is dropped and counted.
"""
from __future__ import annotations

from redact.formats.continue_dev.table import ALIASES, STATUS
from redact.native.spec import (
    BOOL,
    DROP,
    ID,
    NUMBER,
    PATH,
    SHAPE,
    URL_HOST,
    VERB,
    Many,
    Obj,
    Table,
    const,
    enum,
    ident,
    tool,
)

FORMAT = "continue-dev"
_TOOL_CALL = Obj({"id": ID, "type": const("function"),
                  "function": Obj({"name": tool(*ALIASES), "arguments": DROP})})
#: parsed arguments: what the shared tool table reads (a command as its verb, a path, a URL's host)
_ARGS = Obj({"command": VERB, "filepath": PATH, "file_path": PATH, "filePath": PATH, "dirPath": PATH,
             "url": URL_HOST, "waitForCompletion": BOOL})
_STATE = Obj({"toolCallId": ID, "toolCall": _TOOL_CALL, "status": enum(*STATUS, "generating", "generated", "calling"),
              "parsedArgs": _ARGS, "processedArgs": DROP, "output": SHAPE, "tool": DROP})
_USAGE = Obj({"prompt_tokens": NUMBER, "completion_tokens": NUMBER, "total_tokens": NUMBER, "model": ident("model"),
              "cost_cents": NUMBER})
MESSAGE = Obj({"role": enum("user", "assistant", "thinking", "system", "tool"), "id": ID, "content": SHAPE,
               "toolCalls": Many(_TOOL_CALL), "usage": _USAGE, "toolCallId": ID, "reasoning_details": DROP})
ITEM = Obj({"message": MESSAGE, "contextItems": DROP, "editorState": SHAPE, "appliedRules": DROP,
            "promptLogs": DROP, "isGatheringContext": BOOL, "toolCallStates": Many(_STATE), "reasoning": SHAPE,
            "conversationSummary": SHAPE})
SESSION = Obj({"sessionId": ID, "title": SHAPE, "workspaceDirectory": DROP, "history": Many(ITEM),
               "mode": enum("chat", "agent", "plan", "edit"), "chatModelTitle": DROP,
               "usage": Obj({"totalCost": NUMBER, "promptTokens": NUMBER, "completionTokens": NUMBER,
                             "promptTokensDetails": Obj({"cachedTokens": NUMBER, "cacheWriteTokens": NUMBER})})})

TABLE = Table(FORMAT, SESSION, {}, jsonl=False)
