"""Hermes Agent sessions under `--to native`: the session document (`session_<time>_<hex>.json`:
`{session_id, model, platform, session_start, last_updated, system_prompt, tools[], messages[]}`),
and the JSON Lines log (`<id>.jsonl`: a `session_meta` line, then one message per line), each
message by its `role` (OpenAI chat messages: `user`, `assistant` with `tool_calls`, `tool`).

Text (prompts, replies, reasoning, the system prompt, tool output) becomes its shape; a tool call
keeps its ids and name and, of its arguments (a JSON text), what the shared tool table reads (a path
in the path mode, a command as its verb); the model and platform stay; the tool schemas and the
API's base URL are dropped; anything unknown is dropped and counted.

It is also the reader's table: a layout the reader maps says what it reads of it (`used`); the
roles the reader maps are read off the tree (`keys.py`).
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERB, JsonText, Many, Obj, Ref, Spec, Switch, Table, const,
    enum, ident, tagged, tool, used,
)

FORMAT = "hermes"
#: Hermes's tools -> the shared tool table's spelling (redact/formats/toolnames.py); the names the
#: shared table already spells (terminal, read_file, write_file, patch, search_files, web_search)
#: map to themselves.
ALIASES: dict[str, str] = {
    "terminal": "terminal", "read_file": "read_file", "write_file": "write_file", "patch": "patch",
    "search_files": "search_files", "web_search": "web_search", "web_extract": "webfetch",
    "skill_view": "skill", "delegate_task": "task",
}
#: Where Hermes says it ran: the CLI and the messaging gateways (any other value is dropped).
PLATFORMS = ("cli", "telegram", "discord", "slack", "whatsapp", "signal", "email", "homeassistant",
             "matrix", "mattermost", "sms", "webhook", "api", "cron", "acp", "tui")
#: `finish_reason` -> the map's stop reason
STOPS: dict[str, str] = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens",
                         "content_filter": "refusal"}

_TARGET = used("targets (read, edit)", PATH)
_ARGS: dict[str, dict[str, Spec]] = {
    "terminal": {"command": used("verb (verb engine)", VERB), "timeout": NUMBER, "background": BOOL,
                 "workdir": PATH, "pty": BOOL, "check_interval": NUMBER},
    "read_file": {"path": _TARGET, "offset": NUMBER, "limit": NUMBER},
    "write_file": {"path": _TARGET, "content": SHAPE},
    "patch": {"path": _TARGET, "old_string": SHAPE, "new_string": SHAPE, "replace_all": BOOL,
              "mode": enum("replace", "patch"), "patch": SHAPE},
    "search_files": {"pattern": SHAPE, "target": enum("content", "files"), "path": PATH, "file_glob": SHAPE,
                     "limit": NUMBER, "offset": NUMBER, "output_mode": enum("content", "files_only", "count"),
                     "context": NUMBER},
    "web_search": {"query": SHAPE},
    "web_extract": {"urls": SHAPE},
    "skill_view": {"name": SHAPE, "file_path": DROP},
    "delegate_task": {"goal": SHAPE, "context": SHAPE, "toolsets": DROP, "tasks": SHAPE},
}


def _function(name: Spec, args: dict[str, Spec]) -> Obj:
    return Obj({"name": used("event kind (the shared tool table, after the aliases)", name),
                "arguments": used("path (read, edit), command (terminal)", JsonText(Obj(args), text=SHAPE))})


FUNCTION = Switch("name", {name: _function(const(name), args) for name, args in _ARGS.items()},
                  default=_function(tool(*_ARGS), {}))
TOOL_CALL = Obj({"id": used("pairs call and result", ID), "call_id": ID, "response_item_id": ID,
                 "type": const("function"), "function": used("a tool call (see the tool table)", FUNCTION)})
_AT = used("event times (the JSON Lines log; the document's messages have none)", TIMESTAMP)
#: `role` -> a message's layout (beside `role`)
ROLES: dict[str, Spec] = {
    "user": used("a prompt: length, URL count", Obj({"content": used("length and URL count", SHAPE),
                                                      "timestamp": _AT})),
    "assistant": used("an llm event: stop reason, reasoning, text length, tool calls", Obj({
        "content": used("length only (textChars)", SHAPE), "timestamp": _AT,
        "reasoning": used("presence only (thinking)", SHAPE), "reasoning_content": SHAPE, "reasoning_details": DROP,
        "codex_reasoning_items": DROP, "finish_reason": used("stop", enum(*STOPS)),
        "tool_calls": used("its tool calls", Many(TOOL_CALL))})),
    "tool": used("its result: output size, exit code, error, commits and PRs it confirms", Obj({
        "tool_call_id": used("pairs call and result", ID), "timestamp": _AT, "name": tool(*_ARGS),
        "content": used("byte count; a JSON result's `exit_code` and `error` (a terminal's)", SHAPE)})),
    "system": Obj({"content": SHAPE, "timestamp": _AT}),
}
MESSAGE = tagged("role", ROLES, use="role dispatch")
#: The session's token totals (the store's `sessions` columns, carried on the header of its export).
TOKEN_COLUMNS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens")
_TOKENS_USE = {"input_tokens": "the session's input tokens (in)", "output_tokens": "the session's output tokens (out)",
               "cache_read_tokens": "the session's cache-read tokens (cr)",
               "cache_write_tokens": "the session's cache-write tokens (cw)",
               "reasoning_tokens": "not added: a part of the output tokens as providers count them"}
#: The JSON Lines log's first line.
META = used("the header: model, start time", Obj({
    "model": used("llm model", ident("model")), "platform": enum(*PLATFORMS),
    "timestamp": used("the session's start", TIMESTAMP), "tools": DROP, "base_url": DROP,
    "session_id": used("session id", ID), "cwd": CWD,
    "ended_at": used("the session's end (the store's)", TIMESTAMP),
    **{column: used(_TOKENS_USE[column], NUMBER) for column in TOKEN_COLUMNS}}))
LINE = tagged("role", {"session_meta": META, **ROLES}, use="role dispatch")
#: The session document (`session_<time>_<hex>.json`).
DOCUMENT = used("the session document", Obj({
    "session_id": used("session id", ID), "model": used("llm model", ident("model")),
    "base_url": DROP, "platform": enum(*PLATFORMS),
    "session_start": used("the session's start: the time of every message (they have none)", TIMESTAMP),
    "last_updated": used("the session's end", TIMESTAMP), "system_prompt": SHAPE, "tools": DROP,
    "message_count": NUMBER, "messages": used("its messages, by role", Many(Ref("message")))}))

TABLE = Table(FORMAT, LINE, {"message": MESSAGE}, document=DOCUMENT, document_key="messages")
