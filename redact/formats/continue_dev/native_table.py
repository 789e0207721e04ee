"""Continue sessions under `--to native`: the session document, its history items and tool calls.

Text (messages, editor state, tool output, the title) becomes its shape; a tool call's parsed
arguments keep what the shared tool table reads (a command as its verb, a path, a URL's host), its
raw arguments string, context items, prompt logs (whole prompts) and the workspace folder are dropped;
usage numbers and models stay; ids are kept or hashed; anything unknown is dropped and counted.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, PATH, SHAPE, URL_HOST, VERB, ByType, Many, Obj, Ref, Table, const, enum, ident, tool, used,
)

FORMAT = "continue-dev"
#: Continue's tool names (extension and cn CLI) -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "read_file": "read", "read_currently_open_file": "read", "create_new_file": "write",
    "edit_existing_file": "edit", "single_find_and_replace": "edit", "multi_edit": "edit",
    "run_terminal_command": "bash", "grep_search": "grep", "file_glob_search": "glob", "ls": "ls",
    "view_subdirectory": "ls", "fetch_url_content": "fetch", "search_web": "web_search",
    "Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit", "Bash": "bash", "Search": "grep",
    "List": "ls", "Fetch": "fetch",
}
#: toolCallStates[].status -> (a final status, error, errClass)
STATUS: dict[str, tuple[bool, str | None]] = {
    "done": (False, None), "errored": (True, None), "canceled": (True, "interrupted"),
}
_TOOL_CALL = Obj({"id": used("pairs call and state", ID), "type": const("function"),
                  "function": Obj({"name": used("event kind (after the aliases)", tool(*ALIASES)),
                                   "arguments": used("command, filepath / file_path, url host", DROP)})})
#: parsed arguments: what the shared tool table reads (a command as its verb, a path, a URL's host)
_ARGS = used("command, filepath / file_path, url host", Obj({
    "command": VERB, "filepath": PATH, "file_path": PATH, "filePath": PATH, "dirPath": PATH, "url": URL_HOST,
    "waitForCompletion": BOOL}))
_STATE = Obj({"toolCallId": used("pairs call and state", ID), "toolCall": _TOOL_CALL,
              "status": used("done / errored / canceled: a result",
                             enum(*STATUS, "generating", "generated", "calling")),
              "parsedArgs": _ARGS, "processedArgs": DROP,
              "output": used("byte count of its items' content (`OUTPUT_ITEM`)", SHAPE),
              "tool": DROP})
_USAGE = Obj({"prompt_tokens": used("in", NUMBER), "completion_tokens": used("out", NUMBER),
              "total_tokens": used("out: what it counts beyond prompt_tokens, thinking included", NUMBER),
              "model": used("llm model", ident("model")), "cost_cents": NUMBER})
MESSAGE = Obj({"role": used("dispatch: user a prompt, assistant an llm event",
                            enum("user", "assistant", "thinking", "system", "tool")),
               "id": ID, "content": used("length only", SHAPE),
               "toolCalls": Many(_TOOL_CALL), "usage": _USAGE, "toolCallId": ID, "reasoning_details": DROP})
ITEM = Obj({"message": MESSAGE, "contextItems": DROP, "editorState": SHAPE, "appliedRules": DROP,
            "promptLogs": DROP, "isGatheringContext": BOOL, "toolCallStates": Many(_STATE), "reasoning": SHAPE,
            "conversationSummary": used("a compaction (the conversation summed up)", SHAPE)})
SESSION = Obj({"sessionId": used("session.id", ID), "title": SHAPE,
               "workspaceDirectory": used("repository root (a file:// URI or a path; never written)", DROP), "history": Many(ITEM),
               "mode": enum("chat", "agent", "plan", "edit"), "chatModelTitle": DROP,
               "usage": Obj({"totalCost": NUMBER, "promptTokens": NUMBER, "completionTokens": NUMBER,
                             "promptTokensDetails": Obj({"cachedTokens": NUMBER, "cacheWriteTokens": NUMBER})})})

#: An item of `toolCallStates[].output` (a context item), which the tree above shapes whole: the reader
#: opens the list itself and reads only this (named, never reached from the root: the native output
#: keeps the list as one shape)
OUTPUT_ITEM = Obj({"content": used("byte count (the items' contents joined)", SHAPE), "name": SHAPE,
                   "description": SHAPE})

#: An entry of the session index `sessions.json` beside the sessions (a companion the reader opens for
#: the one time Continue records; the index itself is never a session and never written)
INDEX_ENTRY = Obj({"sessionId": used("finds the session's entry", ID), "title": SHAPE,
                   "dateCreated": used("startedAt: the session's only recorded time (epoch ms, as a string)",
                                       NUMBER),
                   "workspaceDirectory": DROP, "messageCount": NUMBER})

#: The documents the reader parses: a session (an object), or the index beside it (a list of entries,
#: read only for `dateCreated`; `--to native` scrubs a session only, `native.py` passes SESSION)
TABLE = Table(FORMAT, ByType(obj=SESSION, items=Many(Ref("INDEX_ENTRY"))),
              {"OUTPUT_ITEM": OUTPUT_ITEM, "INDEX_ENTRY": INDEX_ENTRY}, jsonl=False)
