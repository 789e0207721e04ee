"""VS Code Copilot Chat sessions under `--to native`: the document, each request, each response part.

Prompts, replies, rounds' responses, tool inputs and outputs become their shape (a terminal's command
line its verb; the files of edit groups and code blocks are paths); tool names, call ids,
flags, numbers, times and the model stay; account names and avatars, follow-ups, references,
citations, rendered prompts, the agent's description and tool results (`toolCallResults`) are
dropped. A response part of a kind the table does not know is dropped and counted. The JSONL edit
log is replayed and written as one line, its initial entry (`{"kind": 0, "v": <document>}`), as VS
Code itself compacts the log.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, PATH, SHAPE, VERB, VERSION, Many, Obj, Spec, Switch, Table, const, enum, ident,
    obj, tool, used,
)

FORMAT = "copilot-vscode"

#: built-in tool ids (VS Code writes both spellings over time) -> event kind
TOOLS: dict[str, str] = {
    **dict.fromkeys(("copilot_readFile", "read_file", "copilot_readNotebookCellOutput"), "read"),
    **dict.fromkeys(("copilot_replaceString", "replace_string_in_file", "copilot_multiReplaceString",
                     "multi_replace_string_in_file", "copilot_insertEdit", "insert_edit_into_file",
                     "copilot_createFile", "create_file", "copilot_applyPatch", "apply_patch",
                     "copilot_editNotebook", "edit_notebook_file", "copilot_createNewJupyterNotebook"), "edit"),
    **dict.fromkeys(("copilot_findFiles", "file_search", "copilot_findTextInFiles", "grep_search",
                     "copilot_listDirectory", "list_dir", "copilot_searchCodebase", "semantic_search",
                     "copilot_searchWorkspaceSymbols", "copilot_listCodeUsages", "list_code_usages",
                     "copilot_getChangedFiles", "get_changed_files"), "search"),
    **dict.fromkeys(("run_in_terminal", "copilot_runInTerminal"), "exec"),
    **dict.fromkeys(("copilot_fetchWebPage", "fetch_webpage", "vscode_fetchWebPage_internal"), "web"),
    **dict.fromkeys(("runSubagent", "copilot_runSubagent", "search_subagent"), "subagent"),
    **dict.fromkeys(("copilot_getErrors", "get_errors", "copilot_runTests", "runTests", "run_task",
                     "get_terminal_output", "copilot_getTerminalOutput", "manage_todo_list",
                     "copilot_createDirectory", "create_directory", "copilot_think", "think",
                     "vscode_askQuestions", "copilot_askQuestions"), "tool"),
}
#: VS Code's own id of a built-in tool (a `toolInvocationSerialized` part's `toolId`) -> the name the
#: model calls it by (a round's `toolCalls[].name`): the two records of one call spell it differently
SAME_TOOL: dict[str, str] = {
    "copilot_readFile": "read_file", "copilot_replaceString": "replace_string_in_file",
    "copilot_multiReplaceString": "multi_replace_string_in_file", "copilot_insertEdit": "insert_edit_into_file",
    "copilot_createFile": "create_file", "copilot_applyPatch": "apply_patch", "copilot_editNotebook": "edit_notebook_file",
    "copilot_findFiles": "file_search", "copilot_findTextInFiles": "grep_search", "copilot_listDirectory": "list_dir",
    "copilot_searchCodebase": "semantic_search", "copilot_listCodeUsages": "list_code_usages",
    "copilot_getChangedFiles": "get_changed_files", "copilot_runInTerminal": "run_in_terminal",
    "copilot_fetchWebPage": "fetch_webpage", "vscode_fetchWebPage_internal": "fetch_webpage",
    "copilot_runSubagent": "runSubagent", "copilot_getErrors": "get_errors", "copilot_runTests": "runTests",
    "copilot_getTerminalOutput": "get_terminal_output", "copilot_createDirectory": "create_directory",
    "copilot_think": "think", "copilot_askQuestions": "vscode_askQuestions",
}
CREATES = frozenset({"copilot_createFile", "create_file", "copilot_createNewJupyterNotebook"})
PATCHES = frozenset({"copilot_applyPatch", "apply_patch"})
#: The names the reader reads inside a tool's JSON input (a round's `arguments`, an invocation's
#: `rawInput`): the file of a read or an edit (the first present), a terminal's command line, a
#: patch's text, the URLs of a fetch.
PATH_ARGS = ("filePath", "path", "file_path", "dirPath")
COMMAND_ARGS = ("command",)
PATCH_ARGS = ("input", "patch")
URL_ARGS = ("urls", "url")
_ARGS_READ = (f"paths ({', '.join(PATH_ARGS)}), the terminal command ({', '.join(COMMAND_ARGS)}: its verb), "
              f"a patch's file headers ({', '.join(PATCH_ARGS)}), URL hosts ({', '.join(URL_ARGS)})")
#: The names the reader reads inside a call's entry of `toolCallResults` (a drop in the tree): the
#: text of its output, `content[].value`.
RESULT_CONTENT, RESULT_TEXT = "content", "value"
#: The names the reader reads inside a request's `variableData` (a shape in the tree): the images
#: among its `variables` (`kind` image, or `isImage`). The set keeps them in the vocabulary
#: (redact/formats/vocabulary.py reads table.py's sets, which imports it).
VARIABLES, VARIABLE_KIND, IS_IMAGE = "variables", "kind", "isImage"
VARIABLE_KEYS = frozenset({VARIABLES, VARIABLE_KIND, IS_IMAGE})

_TOOL = tool(*TOOLS)
_MARKDOWN: dict[str, Spec] = {"value": SHAPE, "isTrusted": BOOL, "supportThemeIcons": BOOL, "supportHtml": BOOL,
                              "baseUri": DROP, "uris": DROP}


#: a VS Code URI as it serializes one (`{$mid, fsPath, path, scheme}`): the paths by the path mode
URI = Obj({"$mid": NUMBER, "fsPath": PATH, "path": PATH, "scheme": enum("file", "untitled", "vscode-remote",
                                                                      "vscode-userdata", "vscode-notebook-cell"),
           "external": DROP, "_sep": NUMBER, "authority": DROP, "query": DROP, "fragment": DROP})
#: what a tool invocation shows of its input: a terminal's command line (its verb), else its shape
TOOL_DATA = obj(kind=enum("terminal", "input", "todoList", "extensions", "pullRequest"),
                commandLine=obj(original=VERB, toolEdited=VERB, userEdited=VERB),
                language=used("the terminal's shell: pwsh / powershell read the command line as PowerShell",
                              enum("sh", "bash", "zsh", "pwsh", "powershell", "cmd", "fish")),
                rawInput=used(f"the input of a call no round lists: {_ARGS_READ}", SHAPE), terminalCommandId=DROP, terminalToolSessionId=DROP, confirmation=DROP,
                todoList=SHAPE)


def _part(kind: str, **fields: Spec) -> Obj:
    return Obj({"kind": const(kind), **fields})


PART = Switch("kind", {
    "markdownContent": _part("markdownContent", content=used("length, when a request has no rounds", SHAPE)),
    "toolInvocationSerialized": used("calls a request's rounds do not list", _part(
        "toolInvocationSerialized", toolCallId=used("call id", ID),
        toolId=used("event kind (see the tool table)", _TOOL), isComplete=BOOL, isConfirmed=DROP,
        invocationMessage=DROP, pastTenseMessage=DROP, originMessage=DROP, presentation=DROP,
        source=obj(type=used("an MCP tool", enum("mcp", "internal", "extension")),
                   label=used("mcp server", ident("mcp_server")), serverLabel=DROP,
                   collectionId=DROP, definitionId=DROP, extensionId=DROP),
        resultDetails=obj(isError=used("err", BOOL), input=SHAPE, output=SHAPE), toolSpecificData=TOOL_DATA)),
    "prepareToolInvocation": _part("prepareToolInvocation", toolName=_TOOL),
    "progressTaskSerialized": _part("progressTaskSerialized", content=SHAPE, progress=SHAPE),
    "progressMessage": _part("progressMessage", content=SHAPE),
    "thinking": _part("thinking", value=SHAPE, id=ID, metadata=DROP),
    "textEditGroup": _part("textEditGroup", uri=URI, edits=SHAPE, done=BOOL),
    "notebookEditGroup": _part("notebookEditGroup", uri=URI, edits=SHAPE, done=BOOL),
    "inlineReference": _part("inlineReference", inlineReference=DROP, name=DROP),
    "codeblockUri": _part("codeblockUri", uri=URI, isEdit=BOOL),
    "undoStop": _part("undoStop", id=ID),
    "confirmation": _part("confirmation", title=SHAPE, message=SHAPE, isUsed=BOOL, data=DROP, buttons=DROP),
    "warning": _part("warning", content=SHAPE),
    "elicitationSerialized": _part("elicitationSerialized", title=SHAPE, message=SHAPE, state=DROP),
    "mcpServersStarting": _part("mcpServersStarting", didStartServerIds=DROP),
}, default=Obj({**_MARKDOWN, "value": used("length, when a request has no rounds", SHAPE)}))  # no `kind`

ROUND = used("one llm event per round", obj(
    response=used("length", SHAPE), toolInputRetry=NUMBER, id=ID, thinking=SHAPE, statefulMarker=DROP,
    toolCalls=Many(obj(name=used("tool calls (see the tool table)", _TOOL),
                       arguments=used(f"JSON in a string: {_ARGS_READ}", SHAPE),
                       id=used("call id", ID)))))
RESULT = obj(
    timings=obj(firstProgress=NUMBER, totalElapsed=used("the request's end (its last llm event's latency)", NUMBER)),
    errorDetails=used("an error event (llm); class from the code and wording", obj(code=enum("failed", "rateLimited", "quotaExceeded", "canceled", "offTopic", "filtered",
                               "responseFiltered", "unknown"),
                     message=SHAPE, responseIsIncomplete=BOOL, responseIsFiltered=BOOL, confirmationButtons=DROP,
                     level=NUMBER)),
    details=SHAPE,
    metadata=obj(toolCallRounds=Many(ROUND), toolCallResults=used(f"byte count of each call's output ({RESULT_CONTENT}[].{RESULT_TEXT})", DROP),
                 modelMessageId=ID, responseId=ID, sessionId=used("session.id, when the document has none", ID), agentId=DROP, codeBlocks=DROP, renderedUserMessage=DROP,
                 renderedGlobalContext=DROP, cacheKey=DROP, promptTokens=NUMBER, outputTokens=NUMBER,
                 command=DROP, summary=DROP),
)
REQUEST = obj(
    requestId=ID, responseId=ID, timestamp=used("the request's events (epoch ms)", NUMBER),
    modelId=used("llm model (`copilot/` dropped)", ident("model")),
    isCanceled=used("an interruption (error event, orchestration)", BOOL),
    message=obj(text=used("a prompt: length and URL count", SHAPE), parts=SHAPE),
    variableData=used(f"images counted ({VARIABLES}[] of {VARIABLE_KIND} image, or {IS_IMAGE})", SHAPE), response=Many(PART), result=RESULT,
    followups=DROP, contentReferences=DROP, codeCitations=DROP, responseMarkdownInfo=DROP,
    editedFileEvents=DROP, timeSpentWaiting=NUMBER, agent=obj(extensionVersion=VERSION),
    isHidden=BOOL, isPaused=BOOL, modelState=DROP,
)
DOCUMENT = obj(
    version=used("detection", NUMBER),
    sessionId=used("session.id (else result.metadata.sessionId, else a digest of the name)", ID),
    creationDate=used("session start when no request is older", NUMBER),
    lastMessageDate=used("session start when no request is older", NUMBER), isImported=BOOL,
    initialLocation=enum("panel", "editor", "terminal", "notebook", "editing-session"), customTitle=SHAPE,
    requesterUsername=DROP, responderUsername=DROP, requesterAvatarIconUri=DROP, responderAvatarIconUri=DROP,
    requests=used("dispatch: one request after another", Many(REQUEST)),
)

#: The edit log (`chatSessions/<uuid>.jsonl`) is written back replayed, as one initial entry.
#: Its entries' `k` (the path an entry sets) and `i` (where a list is cut) are read only to replay it.
LINE = obj(kind=used("replayed: 0 the whole document, 1 sets `k`, 2 appends to the list at `k`, 3 deletes `k`", NUMBER),
           v=used("the value the entry sets", DOCUMENT), k=used("replayed: the path the entry sets", DROP),
           i=used("replayed: where a list is cut", DROP))

TABLE = Table(FORMAT, LINE, {}, document=DOCUMENT, document_key="requests")
