"""The keys Qwen Code's reader, native scrubber and sniffers read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import. The chat record's names (the `tmp/<hash>/chats/session-*.json` layout) are proven
against the table's document (`RECORD`, for redact/formats/gemini_record.py)."""
from __future__ import annotations

from redact.formats.gemini_record_table import (
    PART_IMAGE, PART_TEXT, RESULT_ERROR, RESULT_OUTPUT, RESULT_PATH, TARGET_ARGS, RecordKeys,
)
from redact.formats.qwen_code.native_table import (
    DOCUMENT, MODEL_TYPE, RESPONSE_ERROR, RESPONSE_OUTPUT, SKILL_ARG, SUBAGENT_ARG, TABLE, TOOLS,
)
from redact.formats.slots import Slots

S = Slots(TABLE)
# -- the JSON Lines layout: the envelope
RECORD_TYPES = S.cases()
KIND, UUID, PARENT, SESSION_ID, AT = (S.key(name) for name in ("type", "uuid", "parentUuid", "sessionId", "timestamp"))
CWD, BRANCH = S.key("cwd"), S.key("gitBranch")
MESSAGE = S.same(("user", "message"), ("assistant", "message"), ("tool_result", "message"))
PARTS = S.key("user", "message", "parts")
TEXT, THOUGHT, FUNCTION_CALL, FUNCTION_RESPONSE, INLINE = (
    S.key("user", "message", "parts", name)
    for name in ("text", "thought", "functionCall", "functionResponse", "inlineData"))
CALL_ID, CALL_NAME, CALL_ARGS = (S.key("assistant", "message", "parts", "functionCall", name)
                                 for name in ("id", "name", "args"))
RESPONSE_ID = S.key("tool_result", "message", "parts", "functionResponse", "id")
RESPONSE = S.blob("tool_result", "message", "parts", "functionResponse", "response")
OUTPUT, ERROR = RESPONSE_OUTPUT, RESPONSE_ERROR  # inside the response (a shape the table keeps whole)
MODEL, USAGE = S.key("assistant", "model"), S.key("assistant", "usageMetadata")
PROMPT_TOKENS, CACHED_TOKENS, OUT_TOKENS, THOUGHT_TOKENS = (
    S.key("assistant", "usageMetadata", name)
    for name in ("promptTokenCount", "cachedContentTokenCount", "candidatesTokenCount", "thoughtsTokenCount"))
CALL_RESULT = S.key("tool_result", "toolCallResult")
RESULT_STATUS, ERROR_TYPE = S.key("tool_result", "toolCallResult", "status"), S.key("tool_result", "toolCallResult", "errorType")
SUBTYPE = S.key("system", "subtype")
SUBTYPES = S.cases("system")
PAYLOAD = S.key("system", "ui_telemetry", "systemPayload")
UI_EVENT = S.key("system", "ui_telemetry", "systemPayload", "uiEvent")
EVENT_NAME, DURATION, EVENT_ERROR = (S.key("system", "ui_telemetry", "systemPayload", "uiEvent", name)
                                     for name in ("event.name", "duration_ms", "error"))
COMPRESSION_INFO = S.key("system", "chat_compression", "systemPayload", "info")
BEFORE, AFTER = (S.key("system", "chat_compression", "systemPayload", "info", name)
                 for name in ("originalTokenCount", "newTokenCount"))
SUBAGENT_TYPE = S.key("assistant", "message", "parts", "functionCall", "task", "args", SUBAGENT_ARG)
SKILL = S.key("assistant", "message", "parts", "functionCall", "skill", "args", SKILL_ARG)
PATH_ARGS = tuple(dict.fromkeys(S.key("assistant", "message", "parts", "functionCall", tool, "args", name)
                                for tool, kind in TOOLS.items() if kind in ("read", "edit") for name in TARGET_ARGS))
COMMAND = S.key("assistant", "message", "parts", "functionCall", "run_shell_command", "args", "command")
FETCH_PROMPT, FETCH_URL = (S.key("assistant", "message", "parts", "functionCall", "web_fetch", "args", name)
                           for name in ("prompt", "url"))

# -- the chat record (the single-JSON layout)
D = Slots(TABLE, root=DOCUMENT)
_CALL = ("<message>", MODEL_TYPE, "toolCalls")
RECORD = RecordKeys(
    session_id=D.key("sessionId"), start=D.key("startTime"), kind=D.key("kind"), directories=D.key("directories"),
    messages=D.key("messages"), message_kinds=D.cases("<message>"), message_type=D.key("<message>", "type"),
    message_id=D.key("<message>", "id"), at=D.key("<message>", "timestamp"), content=D.key("<message>", "content"),
    model=D.key("<message>", MODEL_TYPE, "model"), tokens=D.key("<message>", MODEL_TYPE, "tokens"),
    thoughts=D.key("<message>", MODEL_TYPE, "thoughts"), tokens_in=D.key("<message>", MODEL_TYPE, "tokens", "input"),
    cached=D.key("<message>", MODEL_TYPE, "tokens", "cached"),
    tokens_out=D.key("<message>", MODEL_TYPE, "tokens", "output"),
    thinking=D.key("<message>", MODEL_TYPE, "tokens", "thoughts"), tool_calls=D.key("<message>", MODEL_TYPE, "toolCalls"),
    call_id=D.key(*_CALL, "id"), call_name=D.key(*_CALL, "name"), call_args=D.key(*_CALL, "args"),
    call_status=D.key(*_CALL, "status"), call_done=D.key(*_CALL, "timestamp"), call_result=D.blob(*_CALL, "result"),
    path_args=tuple(dict.fromkeys(D.key(*_CALL, tool, "args", name) for tool, kind in TOOLS.items()
                                  if kind in ("read", "edit") for name in TARGET_ARGS)),
    command=D.key(*_CALL, "run_shell_command", "args", "command"),
    prompt=D.key(*_CALL, "web_fetch", "args", "prompt"), url=D.key(*_CALL, "web_fetch", "args", "url"),
    function_response=RESULT_PATH[0], response=RESULT_PATH[1], output=RESULT_OUTPUT, error=RESULT_ERROR,
    text=PART_TEXT, inline_data=PART_IMAGE)
