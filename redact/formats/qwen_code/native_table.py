"""Qwen Code sessions under `--to native`: its own JSON Lines layout (`~/.qwen/projects/<slug>/chats/
<uuid>.jsonl`: one record per line, a tree through `uuid`/`parentUuid`, Gemini API `parts` in each
message) and the chat record it inherited from Gemini CLI (`~/.qwen/tmp/<hash>/chats/
session-*.json`, its model messages `qwen`; the parts are redact/formats/gemini_record_table.py).

Text (prompts, replies, thoughts, tool output, slash commands' output) becomes its shape; a tool
call keeps its id and name and, of its arguments, what the tool table reads (paths in the path mode,
the shell command as its verb); usage numbers and models stay; thought signatures, inline data, the
UI's copies of a call (`resultDisplay`, telemetry's `function_args`), compressed histories and
anything unknown are dropped and counted.
"""
from __future__ import annotations

from collections.abc import Mapping

from redact.formats.gemini_record_table import (
    ARGS as GEMINI_ARGS, META, SEARCH, SHELL, message_switch, message_types,
)
from redact.formats.gemini_record_table import TOOLS as GEMINI_TOOLS
from redact.tables.spec import (
    BOOL, BRANCH, CWD, DROP, ID, NUMBER, SHAPE, TIMESTAMP, VERSION, Many, Obj, Spec, Switch, Table, const, enum,
    fields_of, ident, tagged, tool, used,
)

FORMAT = "qwen-code"
#: The type of Qwen Code's model messages in the chat record it inherited.
MODEL_TYPE = "qwen"
MESSAGE_TYPES: dict[str, str] = message_types(MODEL_TYPE)
#: Qwen Code's tools -> event kind: Gemini CLI's, and its own on top.
TOOLS: dict[str, str] = {
    **GEMINI_TOOLS, "todo_write": "tool", "web_search": "web", "task": "subagent", "skill": "skill",
    "ask_user_question": "tool", "exit_plan_mode": "tool", "save_memory": "tool", "lsp": "tool",
}
WAITS_ON_USER = frozenset({"ask_user_question", "ask_user"})
#: The argument of `task` that names the subagent type, and of `skill` the skill.
SUBAGENT_ARG, SKILL_ARG = "subagent_type", "skill"
ARGS: dict[str, dict[str, Spec]] = {
    **GEMINI_ARGS,
    "run_shell_command": {**SHELL, "timeout": NUMBER},
    "read_file": {**GEMINI_ARGS["read_file"]},
    "glob": {**SEARCH, "glob": SHAPE},
    "grep_search": {**SEARCH, "glob": SHAPE, "limit": NUMBER},
    "web_search": {"query": SHAPE},
    "task": {SUBAGENT_ARG: used("subagentType", ident("subagent_type")), "description": SHAPE, "prompt": SHAPE},
    "skill": {SKILL_ARG: used("skill", ident("skill"))},
    "todo_write": {"todos": SHAPE},
    "ask_user_question": {"questions": SHAPE},
}
#: toolCallResult.errorType -> the map's errClass (any other: from the error's wording)
ERROR_TYPES: dict[str, str] = {
    "file_not_found": "not_found", "invalid_tool_params": "validation", "permission_denied": "permission_denied",
    "path_not_in_workspace": "permission_denied", "edit_no_occurrence_found": "patch_failed",
    "edit_expected_occurrence_mismatch": "patch_failed", "edit_no_change": "patch_failed",
    "file_write_failure": "other", "shell_execute_error": "other", "execution_failed": "other",
    "unhandled_exception": "other", "tool_not_registered": "validation", "discovered_tool_execution_error": "other",
}
#: What the reader opens inside a functionResponse's `response` (a shape): its output and error.
RESPONSE_OUTPUT, RESPONSE_ERROR = "output", "error"


def _function_call(name: Spec, args: Mapping[str, Spec]) -> Obj:
    return Obj({"id": used("pairs call and result", ID), "name": used("event kind (see the tool table)", name),
                "args": used("targets, command, subagent type, skill (see the tool table)", Obj(dict(args)))})


FUNCTION_CALL = Switch("name", {name: _function_call(const(name), ARGS.get(name, {})) for name in TOOLS},
                       default=_function_call(tool(*TOOLS), {}))
_FUNCTION_RESPONSE = Obj({
    "id": used("pairs call and result", ID), "name": tool(*TOOLS),
    "response": used(f"`{RESPONSE_OUTPUT}`: byte count, exit code (`Exit Code: N`), commits and PRs; "
                     f"`{RESPONSE_ERROR}`: errClass from the wording", SHAPE)})
#: A Gemini API part: which of its fields is present says what it is.
PART = Obj({
    "text": used("length (a prompt's; a reply's when not a thought)", SHAPE),
    "thought": used("a thought: thinking", BOOL), "thoughtSignature": DROP,
    "functionCall": used("a tool call", FUNCTION_CALL),
    "functionResponse": used("a tool result", _FUNCTION_RESPONSE),
    "inlineData": used("counted on a prompt (images)", Obj({"mimeType": SHAPE, "data": DROP})),
    "fileData": DROP, "executableCode": DROP, "codeExecutionResult": DROP,
})
_MESSAGE = Obj({"role": enum("user", "model"), "parts": Many(PART)})
_USAGE = Obj({
    "promptTokenCount": used("in (prompt - cached)", NUMBER), "cachedContentTokenCount": used("cr", NUMBER),
    "candidatesTokenCount": used("out (candidates + thoughts)", NUMBER),
    "thoughtsTokenCount": used("out (candidates + thoughts)", NUMBER), "totalTokenCount": NUMBER,
    "toolUsePromptTokenCount": NUMBER})
_STATUS = enum("success", "error", "cancelled")
_EVENT = fields_of({
    "event.name": used("`qwen-code.api_response`: the latency of the response it precedes; "
                       "`qwen-code.api_error`: an llm error event", enum(
                           "qwen-code.api_response", "qwen-code.api_error", "qwen-code.api_request",
                           "qwen-code.tool_call", "qwen-code.user_prompt")),
    "event.timestamp": TIMESTAMP, "response_id": ID, "model": ident("model"), "status_code": NUMBER,
    "duration_ms": used("latency (api_response)", NUMBER), "input_token_count": NUMBER, "output_token_count": NUMBER,
    "cached_content_token_count": NUMBER, "thoughts_token_count": NUMBER, "tool_token_count": NUMBER,
    "total_token_count": NUMBER, "prompt_id": DROP, "auth_type": enum("qwen-oauth", "openai", "gemini", "anthropic"),
    "error": used("errClass from the wording (api_error)", SHAPE), "error_type": SHAPE,
    "function_name": tool(*TOOLS), "function_args": DROP, "decision": enum("accept", "auto_accept", "reject", "modify"),
    "success": BOOL, "tool_type": enum("native", "mcp"), "content_length": NUMBER, "metadata": DROP,
    "status": _STATUS,
})
_SYSTEM = tagged("subtype", {
    "ui_telemetry": used("api_response: latency; api_error: an llm error event",
                         Obj({"systemPayload": Obj({"uiEvent": Obj(_EVENT)})})),
    "chat_compression": used("a compaction (tokens before and after)", Obj({"systemPayload": Obj({
        "info": Obj({"originalTokenCount": used("compaction preTokens", NUMBER),
                     "newTokenCount": used("compaction postTokens", NUMBER), "compressionStatus": NUMBER}),
        "compressedHistory": DROP})})),
    "slash_command": Obj({"systemPayload": DROP}),
    "at_command": Obj({"systemPayload": DROP}),
}, default=Obj({"systemPayload": DROP}), use="system record dispatch")
_ENVELOPE: dict[str, Spec] = {
    "uuid": used("the telemetry a response follows (parentUuid)", ID),
    "parentUuid": used("the telemetry a response follows", ID),
    "sessionId": used("session.id", ID), "timestamp": used("event times", TIMESTAMP),
    "cwd": used("repository root (never written)", CWD), "version": VERSION,
    "gitBranch": used("git evidence (the working directory is a work tree)", BRANCH),
}
#: record `type` -> its layout beside the envelope
RECORDS: dict[str, Spec] = {
    "user": used("a prompt: length, images, URL count", Obj({"message": _MESSAGE})),
    "assistant": used("an llm event: model, tokens, thinking, text length, tool calls", Obj({
        "model": used("llm model", ident("model")), "message": _MESSAGE, "usageMetadata": _USAGE,
        "contextWindowSize": NUMBER})),
    "tool_result": used("its results: status, error type, output size, exit code", Obj({
        "message": _MESSAGE, "toolCallResult": Obj({
            "callId": ID, "status": used("error, cancelled: the result's error", _STATUS),
            "errorType": used("errClass", enum(*ERROR_TYPES)), "resultDisplay": DROP})})),
    "system": used("by subtype", Obj({"subtype": SHAPE})),
}


def _record(kind: str, layout: Spec) -> Spec:
    if kind == "system":
        cases = {sub: Obj({**_ENVELOPE, "type": const("system"), "subtype": const(sub), **node.fields},
                          use=node.use) if isinstance(node, Obj) else node for sub, node in _SYSTEM.cases.items()}
        default = _SYSTEM.default
        assert isinstance(default, Obj)
        return used(layout.use, Switch("subtype", cases, default=Obj(
            {**_ENVELOPE, "type": const("system"), "subtype": SHAPE, **default.fields})))
    assert isinstance(layout, Obj)
    return Obj({**_ENVELOPE, "type": const(kind), **layout.fields}, use=layout.use)


LINE = used("record dispatch", Switch("type", {kind: _record(kind, layout) for kind, layout in RECORDS.items()}))
#: The chat record's message, with Qwen Code's model type and tools.
MESSAGE = message_switch(MODEL_TYPE, TOOLS, ARGS)
#: The chat record's single-JSON layout (`tmp/<hash>/chats/session-*.json`).
DOCUMENT = Obj(META)

TABLE = Table(FORMAT, LINE, {"message": MESSAGE}, document=DOCUMENT, document_key="messages")

