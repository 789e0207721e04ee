"""Kiro / Amazon Q Developer CLI ConversationState under `--to native`: one JSON document.

Text (prompts, replies, text tool results) becomes the placeholder string `TEXT_PLACEHOLDER`, because
the CLI's `/load` reads each of these slots as a string (a shape object `{"chars": N}` would not load;
the lengths are the map's to say); a `Json` result item keeps its shape (it holds any JSON); the
`transcript` that repeats the text and the summary are dropped; a tool call's arguments keep only what the shared tool table reads (a command as
its verb, a path in the path mode); request metadata keeps its times, sizes and model; the tool
specifications, the context manager (context file paths), the file line tracker (absolute paths as
keys), the environment variables and anything unknown are dropped and counted.
"""
from __future__ import annotations

from redact.formats.toolnames import kind_of
from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, SHAPE, TIMESTAMP, Many, Obj, Spec, Switch, Table, const, enum, ident, mask,
    tool, used,
)
from redact.formats.tooltable import inputs_of

FORMAT = "kiro-legacy"
#: The CLI's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "execute_bash": "bash", "execute_cmd": "bash", "fs_read": "read", "fs_write": "edit_file",
    "use_subagent": "task", "web_fetch": "web_fetch", "web_search": "web_search",
}
#: tool_use_results[].status -> error
STATUS: dict[str, bool] = {"Success": False, "Error": True}
#: fs_read's arguments: the operations, each with a path (the first one's is the call's path)
OPERATIONS, OPERATION_PATH = "operations", "path"
#: What a text slot (prompt, reply, text tool result) holds under `--to native`: a string, as `/load` reads it.
TEXT_PLACEHOLDER = "[REDACTED]"
_TEXT = mask(TEXT_PLACEHOLDER)
_TOOL = tool(*ALIASES)
_OPERATION = Obj({"mode": enum("Line", "Directory", "Search", "Image"),
                  OPERATION_PATH: used("the path of a read (the first operation's)", inputs_of("read")["path"]),
                  "start_line": NUMBER, "end_line": NUMBER, "depth": NUMBER})


def _inputs(name: str) -> dict[str, Spec]:
    kind = kind_of(ALIASES.get(name, name))[0]
    found = inputs_of("web" if kind == "web-search" else kind)
    if kind == "read":
        found[OPERATIONS] = used("the first operation's path", Many(_OPERATION))
    if kind == "edit":
        found["command"] = used("create or modify", enum("create", "str_replace", "append", "insert"))
    return {**found, "summary": DROP}


def _tool_use(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return Obj({"id": used("pairs call and result", ID),
                "name": used("event kind (the shared tool table, after the aliases)", name),
                "orig_name": name, "args": used("command (verb), path", Obj(inputs)), "orig_args": Obj(inputs)})


TOOL_USE = Switch("name", {name: _tool_use(const(name), _inputs(name)) for name in ALIASES},
                  default=_tool_use(_TOOL, {}))
_RESULT_ITEM = Obj({"Text": used("byte count", _TEXT), "Json": used("byte count", SHAPE), "Image": DROP})
_RESULT = Obj({"tool_use_id": used("pairs call and result", ID),
               "content": used("byte count", Many(_RESULT_ITEM)),
               "status": used("Success / Error", enum(*STATUS))})
_RESULTS = Obj({"tool_use_results": used("results", Many(_RESULT))})
_ENV_STATE = Obj({"operating_system": enum("macos", "linux", "windows"),
                  "current_working_directory": used("the working directory (repository root)", CWD),
                  "environment_variables": DROP})
USER = Obj({
    "additional_context": DROP, "images": used("counted on a prompt", DROP),
    "env_context": Obj({"env_state": _ENV_STATE}),
    "content": used("dispatch: Prompt, ToolUseResults, CancelledToolUses", Obj({
        "Prompt": used("a prompt", Obj({"prompt": used("length only", _TEXT)})),
        "ToolUseResults": used("tool results", _RESULTS),
        "CancelledToolUses": used("a prompt that cancelled tool calls: the prompt, the calls interrupted",
                                  Obj({"prompt": used("length only", _TEXT),
                                       "tool_use_results": used("results", Many(_RESULT))}))})),
    "timestamp": used("a prompt's time", TIMESTAMP),
})
ASSISTANT = Obj({
    "Response": used("a reply", Obj({"message_id": ID, "content": used("length only", _TEXT)})),
    "ToolUse": used("a reply with tool calls", Obj({"message_id": ID, "content": used("length only", _TEXT),
                                                     "tool_uses": used("tool calls", Many(TOOL_USE))})),
})
_DURATION = Obj({"secs": NUMBER, "nanos": NUMBER})
REQUEST = Obj({
    "request_id": ID, "message_id": ID, "context_usage_percentage": NUMBER,
    "request_start_timestamp_ms": used("the request's time (epoch ms)", NUMBER),
    "stream_end_timestamp_ms": used("the response's time (epoch ms); latency from the start", NUMBER),
    "time_to_first_chunk": _DURATION, "time_between_chunks": DROP, "user_prompt_length": NUMBER,
    "response_size": NUMBER, "chat_conversation_type": enum("ToolUse", "NotToolUse"),
    "tool_use_ids_and_names": DROP, "model_id": used("llm model", ident("model")),
    "message_meta_tags": Many(enum("Compact")),
})
TURN = Obj({"user": USER, "assistant": ASSISTANT, "request_metadata": used("times, model", REQUEST)})
MODEL_INFO = Obj({"model_name": ident("model"), "model_id": used("llm model (when a request names none)", ident("model")),
                  "description": DROP, "context_window_tokens": NUMBER, "rate_multiplier": NUMBER,
                  "rate_unit": used("evidence the Kiro CLI wrote it (Amazon Q CLI wrote no rate)", enum("Credit"))})
CONTEXT = Obj({"max_context_files_size": NUMBER,
               "current_profile": used("evidence of the writer: `q_cli_default` Amazon Q CLI, `kiro_default` Kiro",
                                       enum("q_cli_default", "kiro_default")),
               "paths": DROP, "hooks": DROP})
CONVERSATION = Obj({
    "conversation_id": used("session.id", ID), "next_message": DROP, "history": used("the turns", Many(TURN)),
    "valid_history_range": Many(NUMBER), "transcript": DROP, "tools": DROP,
    "context_manager": CONTEXT, "context_message_length": NUMBER, "latest_summary": DROP,
    "model_info": used("llm model, the writer", MODEL_INFO), "file_line_tracker": DROP, "checkpoint_manager": DROP,
    "mcp_enabled": BOOL, "mcp_last_checked": DROP, "mcp_server_versions": DROP,
    "mcp_disabled_due_to_api_failure": BOOL, "user_turn_metadata": DROP,
})
TABLE = Table(FORMAT, CONVERSATION, {}, jsonl=False)
