"""The keys Codex's reader, its helpers and its sniffers read, each named by its place in the format's
one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the
import.

The rollout lines are walked from the table's root (`S`); the single-JSON rollout from the table's
one-document layout (`D`, `Table.document`). A response item is named at its place in a
`response_item` line; the reader reads the same fields of the August-2025 layout's bare items and of
the single-JSON rollout's items, which it turns into response items (`layouts.chat_items`). The
arguments of a tool call are JSON in a string: their fields are named through it (`JsonText`).
"""
from __future__ import annotations


from redact.formats.codex.native_table import DOCUMENT, TABLE
from redact.formats.codex.tool_table import PATCH_TOOL, TOOLS
from redact.formats.slots import Slots
from redact.tables.spec import Obj

S = Slots(TABLE)
D = Slots(TABLE, root=DOCUMENT)  # the single-JSON rollout (`TABLE.document`)


# -- a line: its envelope, the August-2025 header, the single-JSON rollout --------------------------
KIND = S.key("type")
TIME = S.key("event_msg", "timestamp")
PAYLOAD = S.key("event_msg", "payload")
RECORD_TYPE = S.key("record_type")
DOC_SESSION, DOC_ITEMS = D.key("session"), D.key("items")


def _header(name: str) -> str:
    """A field of both headers: the August-2025 header line and the single-JSON rollout's `session`
    (`reader.legacy_header` reads either)."""
    D.key(DOC_SESSION, name)
    return S.key(name)


HEADER_ID, HEADER_TIME, HEADER_GIT = _header("id"), _header("timestamp"), _header("git")
#: The fields of a header (the August-2025 header line holds only these; its sniffer checks it).
_SESSION = D.node(DOC_SESSION)
HEADER_FIELDS = frozenset(_header(name) for name in (_SESSION.fields if isinstance(_SESSION, Obj) else ()))

# -- session_meta, turn_context ---------------------------------------------------------------------
_META = ("session_meta", PAYLOAD)
META_ID, META_TIME, META_CWD = S.key(*_META, "id"), S.key(*_META, "timestamp"), S.key(*_META, "cwd")
META_GIT, REMOTE = S.key(*_META, "git"), S.key(*_META, "git", "repository_url")
SOURCE, SUBAGENT = S.key(*_META, "source"), S.key(*_META, "source", "subagent")
THREAD_SPAWN = S.key(*_META, "source", "subagent", "thread_spawn")
PARENT_THREAD = S.key(*_META, "source", "subagent", "thread_spawn", "parent_thread_id")
TURN_MODEL, TURN_CWD = S.key("turn_context", PAYLOAD, "model"), S.key("turn_context", PAYLOAD, "cwd")

# -- response items -------------------------------------------------------------------------------
_ITEM = ("response_item", PAYLOAD)
ITEM_TYPE = S.key(*_ITEM, "type")
ROLE, CONTENT = S.key(*_ITEM, "message", "role"), S.key(*_ITEM, "message", "content")
PART_TYPE = S.key(*_ITEM, "message", CONTENT, "type")
PART_TEXT = S.at("text", *((*_ITEM, "message", CONTENT, part) for part in ("input_text", "output_text", "text")))
# the call items (`calls.call`): a function call, a custom tool call, a local shell call
_CALLS = tuple((*_ITEM, kind) for kind in ("function_call", "custom_tool_call", "local_shell_call"))
ITEM_ID, CALL_ID = S.at("id", *_CALLS, (*_ITEM, "web_search_call")), S.at("call_id", *_CALLS)
CALL_NAME, NAMESPACE = S.at("name", *_CALLS[:2]), S.at("namespace", *_CALLS[:2])
ARGUMENTS = S.key(*_ITEM, "function_call", "arguments")
#: A custom tool's input is read as its arguments; only apply_patch's is opened (its file headers).
CUSTOM_INPUT = S.blob(*_ITEM, "custom_tool_call", "apply_patch", "input")
ACTION = S.key(*_ITEM, "local_shell_call", "action")
ACTION_COMMAND = S.key(*_ITEM, "local_shell_call", ACTION, "command")
ACTION_WORKDIR = S.key(*_ITEM, "local_shell_call", ACTION, "working_directory")
WEB_ACTION, WEB_STATUS = S.key(*_ITEM, "web_search_call", "action"), S.key(*_ITEM, "web_search_call", "status")
WEB_ACTION_TYPE = S.key(*_ITEM, "web_search_call", WEB_ACTION, "type")
WEB_URL = S.key(*_ITEM, "web_search_call", WEB_ACTION, "url")
SEARCH_CALL_ID = S.key(*_ITEM, "tool_search_call", "call_id")
SEARCH_OUTPUT_CALL_ID = S.key(*_ITEM, "tool_search_output", "call_id")
SEARCH_STATUS = S.key(*_ITEM, "tool_search_output", "status")
SEARCH_EXECUTION = S.key(*_ITEM, "tool_search_output", "execution")

# a call's output: a JSON `{"output", "metadata"}` document in a string, plain text, a list of content
# items, or the older `{"content", "success"}` object (`tools.output_text`)
_OUT = (*_ITEM, "function_call_output")
OUTPUT_CALL_ID = S.key(*_OUT, "call_id")
OUTPUT = S.at("output", _OUT, (*_ITEM, "custom_tool_call_output"))
OUT_CONTENT, OUT_SUCCESS = S.key(*_OUT, OUTPUT, "content"), S.key(*_OUT, OUTPUT, "success")
OUT_TEXT = S.at("text", (*_OUT, OUTPUT, "output_text"), (*_OUT, OUTPUT, OUT_CONTENT))  # either list
OUT_OUTPUT, OUT_METADATA = S.key(*_OUT, OUTPUT, "output"), S.key(*_OUT, OUTPUT, "metadata")
OUT_EXIT_CODE = S.key(*_OUT, OUTPUT, OUT_METADATA, "exit_code")
OUT_DURATION = S.key(*_OUT, OUTPUT, OUT_METADATA, "duration_seconds")
OUT_AGENT_ID = S.key(*_OUT, OUTPUT, "agent_id")

# -- tool arguments (JSON in the `arguments` string) ------------------------------------------------


def _arg(tool: str, name: str) -> str:
    return S.key(*_ITEM, "function_call", tool, ARGUMENTS, name)


WORKDIR = S.key(*_ITEM, "function_call", ARGUMENTS, "workdir")  # any call's (the default layout's)
#: Each argument a tool of the tool table (`native_table.TOOLS`) reads, named by its tool and role.
#: A shell tool -> the argument holding its command (argv array or string).
EXEC_COMMAND = {name: _arg(name, tool.command) for name, tool in TOOLS.items() if tool.command}
#: Either spelling, read of any shell tool whose own argument is absent.
_SHELLS = tuple((*_ITEM, "function_call", tool, ARGUMENTS) for tool in EXEC_COMMAND)
COMMAND, CMD = S.at("command", *_SHELLS), S.at("cmd", *_SHELLS)
#: The arguments holding apply_patch's patch, the first one present read.
PATCH_ARGS = tuple(S.blob(*_ITEM, "function_call", PATCH_TOOL, ARGUMENTS, name) for name in TOOLS[PATCH_TOOL].patch)
#: A file tool -> its path arguments, the first one present read.
READ_TOOLS = {name: tuple(_arg(name, path) for path in tool.paths) for name, tool in TOOLS.items() if tool.paths}
#: A subagent tool -> (its agent type's argument, its model's).
SUBAGENT_ARGS = {name: (_arg(name, tool.subagent[0]), _arg(name, tool.subagent[1]))
                 for name, tool in TOOLS.items() if tool.subagent}
#: A tool polling a running process -> the argument naming that process's session.
POLL_SESSION = {name: _arg(name, tool.session) for name, tool in TOOLS.items() if tool.session}

# -- events ---------------------------------------------------------------------------------------
_EVENT = ("event_msg", PAYLOAD)
EVENT_TYPE = S.key(*_EVENT, "type")
MESSAGE = S.key(*_EVENT, "user_message", "message")
IMAGES, LOCAL_IMAGES = S.key(*_EVENT, "user_message", "images"), S.key(*_EVENT, "user_message", "local_images")
INFO = S.key(*_EVENT, "token_count", "info")
LAST_USAGE = S.key(*_EVENT, "token_count", INFO, "last_token_usage")
TOTAL_USAGE = S.key(*_EVENT, "token_count", INFO, "total_token_usage")


def _tokens(name: str) -> str:
    """A count of both usages: one request's (`last_token_usage`) and the running total."""
    S.key(*_EVENT, "token_count", INFO, LAST_USAGE, name)
    return S.key(*_EVENT, "token_count", INFO, TOTAL_USAGE, name)


INPUT_TOKENS, CACHED_TOKENS = _tokens("input_tokens"), _tokens("cached_input_tokens")
OUTPUT_TOKENS, TOTAL_TOKENS = _tokens("output_tokens"), _tokens("total_tokens")
#: The counts a usage is compared and subtracted by (`events.usage_key`, `events.delta`).
USAGE_FIELDS = (INPUT_TOKENS, CACHED_TOKENS, OUTPUT_TOKENS, TOTAL_TOKENS)

_MCP, _SPAWN = (*_EVENT, "mcp_tool_call_end"), (*_EVENT, "collab_agent_spawn_end")
END_CALL_ID = S.at("call_id", *((*_EVENT, end) for end in (
    "exec_command_end", "patch_apply_end", "mcp_tool_call_end", "collab_agent_spawn_end")))
EXIT_CODE = S.key(*_EVENT, "exec_command_end", "exit_code")
DURATION = S.at("duration", (*_EVENT, "exec_command_end"), _MCP)
SECS = S.at("secs", (*_EVENT, "exec_command_end", DURATION), (*_MCP, DURATION))
NANOS = S.at("nanos", (*_EVENT, "exec_command_end", DURATION), (*_MCP, DURATION))
SUCCESS = S.key(*_EVENT, "patch_apply_end", "success")
INVOCATION = S.key(*_MCP, "invocation")
SERVER, TOOL = S.key(*_MCP, INVOCATION, "server"), S.key(*_MCP, INVOCATION, "tool")
RESULT, OK, ERR = S.key(*_MCP, "result"), S.key(*_MCP, "result", "Ok"), S.key(*_MCP, "result", "Err")
IS_ERROR, IS_ERROR_SNAKE = S.key(*_MCP, RESULT, OK, "isError"), S.key(*_MCP, RESULT, OK, "is_error")
NEW_AGENT_ROLE, SPAWN_MODEL = S.key(*_SPAWN, "new_agent_role"), S.key(*_SPAWN, "model")
SPAWN_STATUS = S.key(*_SPAWN, "status")
_GUARDIAN = (*_EVENT, "guardian_assessment")
GUARDIAN_ID, GUARDIAN_STATUS = S.key(*_GUARDIAN, "id"), S.key(*_GUARDIAN, "status")
STARTED_MS, COMPLETED_MS = S.key(*_GUARDIAN, "started_at_ms"), S.key(*_GUARDIAN, "completed_at_ms")
ABORT_REASON = S.key(*_EVENT, "turn_aborted", "reason")
_ERRORS = ((*_EVENT, "error"), (*_EVENT, "stream_error"))
ERROR_INFO, ERROR_MESSAGE = S.at("codex_error_info", *_ERRORS), S.at("message", *_ERRORS)
#: The HTTP status of an error whose `codex_error_info` is an object (`{"<info>": {...}}`).
HTTP_STATUS = S.key(*_EVENT, "error", ERROR_INFO, "other", "http_status_code")

# -- the single-JSON rollout's chat-completions items ------------------------------------------------
CHAT_ROLE = D.key(DOC_ITEMS, "role")
CHAT_CONTENT = D.key(DOC_ITEMS, "user", "content")
for _role in ("assistant", "tool"):
    D.key(DOC_ITEMS, _role, CHAT_CONTENT)
TOOL_CALL_ID = D.key(DOC_ITEMS, "tool", "tool_call_id")
REASONING = D.key(DOC_ITEMS, "assistant", "reasoning")
TOOL_CALLS = D.key(DOC_ITEMS, "assistant", "tool_calls")
CHAT_CALL_ID = D.key(DOC_ITEMS, "assistant", TOOL_CALLS, "id")
FUNCTION = D.key(DOC_ITEMS, "assistant", TOOL_CALLS, "function")
FUNCTION_NAME = D.key(DOC_ITEMS, "assistant", TOOL_CALLS, FUNCTION, "name")
FUNCTION_ARGUMENTS = D.key(DOC_ITEMS, "assistant", TOOL_CALLS, FUNCTION, "arguments")
