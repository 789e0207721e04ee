"""Crush's one table: the JSON Lines export of one session (`store.py`: the `sessions` row, then each
message with its `parts`, a JSON array of `{type, data}`) that the reader reads, with what it keeps.

Crush has no native output (`native.py` refuses `--to native`): the export is built from the store's
session tables, never copied. The table classifies every field the reader reads
(tests/formats/test_tables.py) and renders the field table of docs/formats.md.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, Many, Switch, Table, enum, ident, obj, tagged, used,
)

FORMAT = "crush"
#: finish reasons that are failures -> errClass of an llm error event
FINISH_ERRORS: dict[str, str] = {"error": "api_error", "canceled": "interrupted",
                                 "permission_denied": "interrupted"}
_KIND = used("record dispatch", enum("session", "message"))

SESSION = obj(
    crush=_KIND,
    id=used("session.id", ID),
    parent_session_id=used("role subagent, parentSessionId", ID),
    summary_message_id=used("the message that summarized the session so far: a compaction event", ID),
    created_at=used("first time seen", TIMESTAMP), updated_at=TIMESTAMP,
    title=SHAPE,
    # the session's token counts (Crush keeps no per-response usage): carried whole by the session's
    # last model response, never spread over the calls
    prompt_tokens=used("tokens: in of the last llm event", NUMBER),
    completion_tokens=used("tokens: out of the last llm event", NUMBER), cost=NUMBER,
    project=used("repository root: the folder holding .crush/ (never written)", PATH),
)

_IMAGE = used("images counted", SHAPE)
#: Part types: a layout whose node says what the reader keeps is read for facts (`mapped`); any other
#: type is counted by name in the report, never read (redact/tables/spec.py `handling`).
PART = tagged("type", {
    "text": used("length only", obj(data=obj(text=used("length only", SHAPE)))),
    "reasoning": used("presence only (thinking)", obj(data=obj(thinking=used("presence only (thinking)", SHAPE),
                                                               signature=DROP))),
    "image_url": used("counted on a prompt", obj(data=obj(url=DROP, detail=DROP))),
    "binary": used("an attachment: counted on a prompt when it is an image", obj(data=obj(
        mime_type=_IMAGE, MIMEType=_IMAGE, path=DROP, data=DROP, Path=DROP, Data=DROP))),
    "tool_call": used("a tool call", obj(data=obj(
        id=used("pairs call and result", ID),
        name=used("event kind (the shared tool table, after the aliases)", ident("tool")),
        input=used("JSON in a string: command (bash), file_path / path, url host", DROP),
        type=DROP, finished=BOOL, provider_executed=BOOL))),
    "tool_result": used("its result", obj(data=obj(
        tool_call_id=used("pairs call and result", ID),
        content=used("byte count; a shell output confirms commits and PRs", SHAPE),
        is_error=used("err; errClass from the wording", BOOL),
        name=DROP, metadata=DROP, data=DROP, mime_type=DROP))),
    "finish": used("stop reason; an error finish is an llm error event", obj(data=obj(
        reason=used(f"stop; {' / '.join(FINISH_ERRORS)}: an llm error event", SHAPE),
        time=TIMESTAMP, message=SHAPE, details=SHAPE))),
}, default=obj())

MESSAGE = obj(
    crush=_KIND,
    id=used("a session's summary message is found by it", ID),
    role=used("dispatch: user, assistant, tool", enum("user", "assistant", "tool")),
    created_at=used("event time", TIMESTAMP), finished_at=used("llm latency", TIMESTAMP),
    model=used("llm model", ident("model")),
    provider=DROP,
    parts=used("part dispatch (`type`)", Many(PART)),
)

RECORD = Switch("crush", {"session": SESSION, "message": MESSAGE})

TABLE = Table(FORMAT, RECORD)
