"""opencode's one table: the JSON Lines export of one session (`store.py` for the 1.x SQLite store,
`tree.py` for the pre-1.x JSON tree) that the reader reads, field by field, with what it keeps.

opencode has no native output (`native.py` refuses `--to native`): the export is built from the
store's session tables, never copied. The table classifies every field the reader reads
(tests/formats/test_tables.py) and renders the field table of docs/formats.md. Its named node
`session_file` is the pre-1.x tree's session file, which `tree.py` reads into the export's `session` row.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERSION, Obj, Spec, Switch, Table, enum, ident, obj,
    tagged, used,
)

FORMAT = "opencode"
#: `error.name` of an assistant message -> errClass of an llm error event
ERRORS: dict[str, str] = {
    "ProviderAuthError": "auth", "APIError": "api_error", "MessageAbortedError": "interrupted",
    "MessageOutputLengthError": "api_error", "UnknownError": "api_error",
}
_KIND = used("record dispatch", enum("session", "message", "part"))

SESSION = obj(
    opencode=_KIND,
    id=used("session.id", ID),
    parent_id=used("role subagent, parentSessionId", ID),
    directory=used("repository root (never written)", PATH),
    version=VERSION,
    time_created=used("first time seen", TIMESTAMP),
    time_updated=TIMESTAMP,
    title=SHAPE, project_id=ID, agent=DROP, model=DROP, slug=DROP,
)

_TOKENS = obj(input=NUMBER, output=NUMBER, reasoning=NUMBER, cache=obj(read=NUMBER, write=NUMBER))
MESSAGE_DATA = obj(
    role=used("dispatch: user, assistant", enum("user", "assistant")),
    time=obj(created=used("event time", TIMESTAMP), completed=used("llm latency", TIMESTAMP)),
    modelID=used("llm model", ident("model")),
    model=obj(modelID=used("llm model", ident("model")), providerID=DROP),
    tokens=used("in, out (output + reasoning), cr, cw", _TOKENS),
    finish=used("stop", SHAPE),
    error=obj(name=used("llm error event (errClass)", enum(*ERRORS)), data=DROP),
    path=DROP, system=DROP, summary=DROP, cost=NUMBER, providerID=DROP, mode=DROP, agent=DROP,
    parentID=ID, id=ID, sessionID=ID,
)
MESSAGE = obj(opencode=_KIND, id=ID,
              time_created=used("event time when the message has none", TIMESTAMP), data=MESSAGE_DATA)

_STATE = obj(
    status=used("completed / error: a result; pending / running: no result",
                enum("pending", "running", "completed", "error")),
    input=used("command (bash): verb; filePath / path: targets; url (webfetch): host only; the rest: -",
               DROP),
    output=used("byte count; a shell output confirms commits and PRs", SHAPE),
    error=used("errClass from the wording", SHAPE),
    metadata=obj(exit=used("exit code (bash)", NUMBER), exists=used("a write that created its file", BOOL)),
    time=obj(start=used("call time", TIMESTAMP), end=used("result time", TIMESTAMP)),
    title=DROP,
)
_TEXT: dict[str, Spec] = {"text": SHAPE, "synthetic": BOOL, "ignored": BOOL, "time": DROP,
                          "id": ID, "sessionID": ID, "messageID": ID}
#: Part types: a layout whose node says what the reader keeps is read for facts (`mapped`); any other
#: type is counted by name in the report, never read (redact/tables/spec.py `handling`). Every part
#: file of the pre-1.x tree is read for its `id` (`tree.py`), whatever its type.
PART_DATA = tagged("type", {
    "text": used("a prompt's chars, a reply's textChars", Obj({
        **_TEXT, "text": used("length only", SHAPE),
        "synthetic": used("a synthetic part is not the user's: skipped", BOOL),
        "ignored": used("an ignored part is skipped", BOOL)})),
    "reasoning": used("thinking", Obj({**_TEXT, "text": used("presence only (thinking)", SHAPE)})),
    "tool": used("a tool call and its result", obj(
        tool=used("event kind (the shared tool table)", ident("tool")),
        callID=used("pairs call and result", ID), state=_STATE, id=ID, sessionID=ID, messageID=ID)),
    "file": used("images counted on a prompt", obj(mime=used("images counted", SHAPE), id=ID,
                                                   filename=DROP, url=DROP, source=DROP)),
    "compaction": used("a compaction", obj(auto=used("trigger (auto or manual)", BOOL), id=ID)),
    "retry": used("an API error that was retried", obj(id=ID, error=DROP, attempt=NUMBER)),
    "step-start": obj(id=ID),  # a snapshot id
    "step-finish": obj(id=ID),  # per-step tokens: the message's tokens are used, never both
    "patch": obj(id=ID),  # a snapshot hash and the files it touched (the tool calls say it)
    "snapshot": obj(id=ID),
    "agent": obj(id=ID),
    "subtask": obj(id=ID),
}, default=obj(id=ID))
PART = obj(opencode=_KIND, id=ID,
           message_id=used("the message the part belongs to", ID), time_created=TIMESTAMP,
           data=used("part dispatch (`type`)", PART_DATA))

RECORD = Switch("opencode", {"session": SESSION, "message": MESSAGE, "part": PART})

#: A session file of the pre-1.x tree (`storage/session/<projectID>/ses_*.json`): `tree.py` recognises
#: it and writes it as the export's `session` row.
SESSION_FILE = obj(
    id=used("session.id (a session file's id starts with ses_)", ID),
    projectID=used("recognises a session file", ID),
    directory=used("repository root (never written)", PATH),
    parentID=used("role subagent, parentSessionId", ID),
    version=VERSION, title=SHAPE, slug=DROP,
    time=obj(created=used("first time seen", TIMESTAMP), updated=TIMESTAMP),
)

TABLE = Table(FORMAT, RECORD, {"session_file": SESSION_FILE})
