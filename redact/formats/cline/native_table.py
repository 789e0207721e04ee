"""Cline task logs (ui_messages.json) under `--to native`: the list of messages, each by its subtype.

Prompts, replies, reasoning, command output, completion results and follow-up questions become
their shape; an `api_req_started` keeps its token counts and cost (its request text becomes its
shape); a `tool` keeps its tool name and path (content, regex and diff become their shape); a
`command` becomes its verb; `use_mcp_server` keeps the server and tool names. A message of a subtype
the table does not know is dropped and counted.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, PATH, SHAPE, VERB, ByType, JsonText, Many, Obj, Spec, Switch, Table, const, enum,
    ident, obj, tool, used,
)

FORMAT = "cline"

#: `say` subtype -> handling: `mapped (what the reader keeps)` or `skipped`; the tree's `say` switch
#: is built from it (a mapped subtype's node says what the reader keeps), and the reader reads the tree
SAYS: dict[str, str] = {
    "task": "mapped (the first prompt: length, images, URL count)",
    "user_feedback": "mapped (a prompt)",
    "api_req_started": "mapped (an llm event: tokensIn/Out, cacheWrites/Reads; cancelReason: an error)",
    "text": "mapped (the current response's text length)",
    "reasoning": "mapped (the current response's thinking)",
    "tool": "mapped (a tool call; see the tool table)",
    "command": "mapped (a shell command: verb)",
    "command_output": "mapped (the command's output size, commits and PRs it confirms)",
    "mcp_server_response": "mapped (the MCP call's output size)",
    "error_retry": "mapped (an error event, llm, retried: one per failed attempt; the failed request's cancelReason and the api_req_failed after the last attempt are the same failure)",
    "error": "mapped (an error event, orchestration)",
    "completion_result": "skipped",
    "checkpoint_created": "skipped",
    "task_progress": "skipped",
    "api_req_retried": "skipped",
    "api_req_finished": "skipped",
    "deleted_api_reqs": "skipped",
    "shell_integration_warning": "skipped",
    "mcp_server_request_started": "skipped",
    "browser_action": "skipped",
    "browser_action_result": "skipped",
    "browser_action_launch": "mapped (a tool call: browser_action)",
    "load_mcp_documentation": "mapped (a tool call: load_mcp_documentation)",
    "diff_error": "skipped",
    "clineignore_error": "skipped",
    "info": "skipped",
    "hook": "skipped",
    "hook_output": "skipped",
}
#: `ask` subtype -> handling
ASKS: dict[str, str] = {
    "tool": "mapped (a tool call awaiting approval: the next request carries its result, or the user's refusal)",
    "command": "mapped (a shell command awaiting approval)",
    "command_output": "mapped (the command's output size)",
    "use_mcp_server": "mapped (an MCP call: serverName, toolName)",
    "followup": "mapped (a tool call: ask_followup_question, waits on the user)",
    "api_req_failed": "mapped (an error event, llm, unless it follows the last failed attempt's error_retry)",
    "mistake_limit_reached": "mapped (an error event, orchestration)",
    "browser_action_launch": "mapped (a tool call: browser_action)",
    "completion_result": "skipped",
    "resume_task": "skipped",
    "resume_completed_task": "skipped",
    "plan_mode_respond": "mapped (a tool call: plan_mode_respond, waits on the user)",
    "auto_approval_max_req_reached": "skipped",
    "new_task": "skipped",
    "condense": "skipped",
    "report_bug": "skipped",
}
#: `tool` JSON `tool` -> (event kind, edit op)
TOOLS: dict[str, tuple[str, str | None]] = {
    "readFile": ("read", None),
    "editedExistingFile": ("edit", "modify"), "appliedDiff": ("edit", "modify"),
    "newFileCreated": ("edit", "create"), "fileDeleted": ("edit", "delete"),
    "searchFiles": ("search", None), "listFilesTopLevel": ("search", None),
    "listFilesRecursive": ("search", None), "listCodeDefinitionNames": ("search", None),
    "codebaseSearch": ("search", None),
    "webFetch": ("web", None), "webSearch": ("web", None),
    "summarizeTask": ("tool", None), "newTask": ("subagent", None), "useSkill": ("skill", None),
}

_COMMON: dict[str, Spec] = {
    "ts": used("event times (epoch ms)", NUMBER), "partial": BOOL, "images": used("images counted", SHAPE),
    "files": SHAPE, "conversationHistoryIndex": NUMBER,
    "conversationHistoryDeletedRange": Many(NUMBER), "lastCheckpointHash": ID, "isCheckpointCheckedOut": BOOL,
    "commandCompleted": BOOL, "isOperationOutsideWorkspace": BOOL,
    "modelInfo": obj(providerId=enum("anthropic", "openai", "openrouter", "cline", "gemini", "vertex", "bedrock",
                                     "deepseek", "ollama", "lmstudio", "xai", "mistral", "groq", "litellm",
                                     "vscode-lm", "requesty", "openai-native", "claude-code"),
                     modelId=used("llm model", ident("model")), mode=enum("act", "plan")),
}
API_REQ = JsonText(obj(tokensIn=used("in", NUMBER), tokensOut=used("out", NUMBER),
                       cacheWrites=used("cw", NUMBER), cacheReads=used("cr", NUMBER), cost=NUMBER,
                       cancelReason=used("an error", enum("user_cancelled", "streaming_failed")),
                       streamingFailedMessage=SHAPE,
                       request=used("the working directory (`# Current Working Directory (...)`)", SHAPE)),
                   text=SHAPE)
TOOL = JsonText(obj(tool=used("event kind (see the tool table)", tool(*TOOLS)), path=used("target", PATH), content=SHAPE, regex=SHAPE, filePattern=SHAPE, diff=SHAPE,
                    operationIsLocatedInWorkspace=BOOL, startLineNumbers=Many(NUMBER), url=SHAPE,
                    operationIsOutsideWorkspace=BOOL), text=SHAPE)
MCP = JsonText(obj(type=enum("use_mcp_tool", "access_mcp_resource"),
                   serverName=used("mcp server", ident("mcp_server")), toolName=used("mcp tool", ident("mcp_tool")), arguments=SHAPE, uri=SHAPE, response=SHAPE), text=SHAPE)
RETRY = JsonText(obj(attempt=NUMBER, maxAttempts=NUMBER, delaySeconds=NUMBER,
                     failed=used("the last attempt (an api_req_failed after it repeats it)", BOOL),
                     errorMessage=used("errClass from the wording", SHAPE)), text=SHAPE)
#: the class of `text` by subtype (any other subtype: its shape)
_VERB = used("verb (verb engine); a trailing REQ_APP marker dropped", VERB)
TEXT_SAY: dict[str, Spec] = {"api_req_started": used("JSON in a string: token counts, errors, the cwd", API_REQ),
                             "deleted_api_reqs": API_REQ, "tool": used("JSON in a string: the tool call", TOOL),
                             "command": _VERB, "error_retry": RETRY}
TEXT_ASK: dict[str, Spec] = {"tool": used("JSON in a string: the tool call", TOOL), "command": _VERB,
                             "use_mcp_server": used("JSON in a string: the MCP call", MCP)}
#: what the reader keeps of a shape `text`, by subtype (a subtype not here: never read)
_TEXT_USE: dict[str, str] = {
    "task": "a prompt: length and URL count", "user_feedback": "a prompt: length and URL count",
    "text": "length only", "reasoning": "presence only", "followup": "presence only",
    "command_output": "byte count; commits and PRs it confirms", "mcp_server_response": "byte count",
    "error": "errClass from the wording", "api_req_failed": "errClass from the wording",
}


def _text(sub: str, given: dict[str, Spec]) -> Spec:
    found = given.get(sub)
    if found is not None:
        return found
    return used(_TEXT_USE[sub], SHAPE) if sub in _TEXT_USE else SHAPE


def _message(kind: str, sub: str, text: Spec) -> Obj:
    return Obj({**_COMMON, "type": const(kind), kind: const(sub), "text": text})


def _case(kind: str, sub: str, how: str, given: dict[str, Spec]) -> Obj:
    found = _message(kind, sub, _text(sub, given))
    return used(how, found) if how.startswith("mapped") else found


SAY = used("dispatch (see the message tables)", Switch("say", {sub: _case("say", sub, how, TEXT_SAY)
                                                               for sub, how in SAYS.items()}))
ASK = used("dispatch (see the message tables)", Switch("ask", {sub: _case("ask", sub, how, TEXT_ASK)
                                                               for sub, how in ASKS.items()}))
#: a message of `api_conversation_history.json` (what was sent to the model: Anthropic messages),
#: read when a task folder has no ui_messages.json: a message with no `type` (it has a `role`)
_BLOCK = Switch("type", {
    "text": Obj({"type": const("text"), "text": used("a prompt (<task>, <feedback>, <answer>), a tool's result, or "
                                                   "the model's text: length; the model's XML tool calls "
                                                   "(tool, path, command, MCP server and tool)", SHAPE)}),
    "image": Obj({"type": const("image"), "source": DROP}),
    "tool_use": Obj({"type": const("tool_use"), "id": used("call id", ID),
                     "name": used("a tool call (see the history's tools)", ident("tool")),
                     "input": used("the path, command, MCP server and tool", SHAPE)}),
    "tool_result": Obj({"type": const("tool_result"), "tool_use_id": used("the call's result", ID),
                        "content": SHAPE, "is_error": used("err", BOOL)}),
})
HISTORY_MESSAGE = used("a task folder's api_conversation_history.json, when it has no ui_messages.json",
                       obj(role=used("a prompt and tool results (user), an llm event (assistant)",
                                     enum("user", "assistant")),
                           content=used("text, or a list of blocks", ByType(text=SHAPE, items=Many(_BLOCK))),
                           ts=used("event times (epoch ms), when present", NUMBER),
                           modelInfo=obj(providerId=SHAPE, modelId=used("llm model", ident("model")), mode=SHAPE)))
#: the tools Cline's model calls as XML tags in its text (the history's tools) -> event kind
HISTORY_TOOLS: dict[str, str] = {
    "read_file": "read", "write_to_file": "edit", "replace_in_file": "edit", "execute_command": "exec",
    "search_files": "search", "list_files": "search", "list_code_definition_names": "search",
    "use_mcp_tool": "mcp", "access_mcp_resource": "mcp", "web_fetch": "web", "browser_action": "tool",
    "ask_followup_question": "tool", "plan_mode_respond": "tool", "load_mcp_documentation": "tool",
    "new_task": "subagent",
}
#: the parameters the reader reads of a history tool call (an XML tag's children, a tool_use's input)
H_PATH, H_COMMAND, H_SERVER, H_TOOL, H_URI = "path", "command", "server_name", "tool_name", "uri"
HISTORY_PARAMS = (H_PATH, H_COMMAND, H_SERVER, H_TOOL, H_URI)
MESSAGE = used("dispatch: say or ask (no type: an API history message)",
               Switch("type", {"say": SAY, "ask": ASK}, default=HISTORY_MESSAGE))
DOCUMENT = Many(MESSAGE)

TABLE = Table(FORMAT, DOCUMENT, {}, jsonl=False)
