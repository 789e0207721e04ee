"""The keys Gemini CLI's reader, native scrubber and sniffers read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import.

Names read inside a shape the table keeps whole (a tool call's `result`, a prompt's list of parts) are
the table's own constants (`RESULT_PATH`, `PART_TEXT`...), which its `use` text is written from."""
from __future__ import annotations

from redact.formats.gemini_cli.native_table import (
    MODEL_TYPE, PART_IMAGE, PART_TEXT, RESULT_ERROR, RESULT_OUTPUT, RESULT_PATH, TABLE, TARGET_ARGS, TOOLS,
)
from redact.formats.gemini_record_table import RecordKeys
from redact.formats.slots import Slots

S = Slots(TABLE)
# -- the metadata (the single-JSON document, the JSONL first line, a `$set` update) and the lines
TYPE = S.key("type")
SESSION_ID, PROJECT_HASH, START = S.key("sessionId"), S.key("projectHash"), S.key("startTime")
KIND, DIRECTORIES, MESSAGES = S.key("kind"), S.key("directories"), S.key("messages")
SET, REWIND = S.key("$set"), S.key("$rewindTo")
SET_DIRECTORIES, SET_MESSAGES = S.key("$set", "directories"), S.key("$set", "messages")
# -- a message
MESSAGE_KINDS = S.cases("<message>")
MESSAGE_TYPE, MESSAGE_ID, AT = S.key("<message>", "type"), S.key("<message>", "id"), S.key("<message>", "timestamp")
CONTENT = S.key("<message>", "content")  # every message type's
MODEL, TOKENS, THOUGHTS = (S.key("<message>", MODEL_TYPE, name) for name in ("model", "tokens", "thoughts"))
IN, CACHED, OUT, THINKING = (S.key("<message>", MODEL_TYPE, "tokens", name)
                             for name in ("input", "cached", "output", "thoughts"))
TOOL_CALLS = S.key("<message>", MODEL_TYPE, "toolCalls")
# -- a tool call
_CALL = ("<message>", MODEL_TYPE, "toolCalls")
CALL_ID, CALL_NAME, CALL_ARGS = S.key(*_CALL, "id"), S.key(*_CALL, "name"), S.key(*_CALL, "args")
CALL_STATUS, CALL_DONE = S.key(*_CALL, "status"), S.key(*_CALL, "timestamp")
CALL_RESULT = S.blob(*_CALL, "result")
#: the path arguments of a read or edit tool, in the order the reader tries them (each classified
#: for every read and edit tool)
PATH_ARGS = tuple(dict.fromkeys(S.key(*_CALL, tool, "args", name) for tool, kind in TOOLS.items()
                                if kind in ("read", "edit") for name in TARGET_ARGS))
COMMAND = S.key(*_CALL, "run_shell_command", "args", "command")
PROMPT, URL = S.key(*_CALL, "web_fetch", "args", "prompt"), S.key(*_CALL, "web_fetch", "args", "url")
# -- inside a shape the table keeps whole, read by the reader (native_table.py says so in its `use`)
FUNCTION_RESPONSE, RESPONSE = RESULT_PATH
OUTPUT, ERROR = RESULT_OUTPUT, RESULT_ERROR
TEXT, INLINE_DATA = PART_TEXT, PART_IMAGE


def _record() -> RecordKeys:
    return RecordKeys(
        session_id=SESSION_ID, start=START, kind=KIND, directories=DIRECTORIES, messages=MESSAGES,
        message_kinds=MESSAGE_KINDS, message_type=MESSAGE_TYPE, message_id=MESSAGE_ID, at=AT, content=CONTENT,
        model=MODEL, tokens=TOKENS, thoughts=THOUGHTS, tokens_in=IN, cached=CACHED, tokens_out=OUT,
        thinking=THINKING, tool_calls=TOOL_CALLS, call_id=CALL_ID, call_name=CALL_NAME, call_args=CALL_ARGS,
        call_status=CALL_STATUS, call_done=CALL_DONE, call_result=CALL_RESULT, path_args=PATH_ARGS,
        command=COMMAND, prompt=PROMPT, url=URL, function_response=FUNCTION_RESPONSE, response=RESPONSE,
        output=OUTPUT, error=ERROR, text=TEXT, inline_data=INLINE_DATA)


#: The names the shared chat-record reader reads (redact/formats/gemini_record.py).
RECORD = _record()
