"""opencode's one table: the JSON Lines export of one session (`store.py` for the 1.x SQLite store,
`tree.py` for the pre-1.x JSON tree) that the reader reads, field by field, with what it keeps.

opencode has no native output (`native.py` refuses `--to native`): the export is built from the
store's session tables, never copied. The table classifies every field the reader reads
(tests/formats/test_tables.py) and renders the field table of docs/formats.md.
"""
from __future__ import annotations

from redact.formats.opencode.table import ERRORS, PART_TYPES
from redact.native.spec import (
    BOOL,
    DROP,
    ID,
    NUMBER,
    PATH,
    SHAPE,
    TIMESTAMP,
    VERSION,
    Obj,
    Spec,
    Switch,
    Table,
    enum,
    ident,
    obj,
    used,
)

FORMAT = "opencode"

SESSION = obj(
    opencode=used("record dispatch", enum("session", "message", "part")),
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
MESSAGE = obj(opencode=used("record dispatch", enum("session", "message", "part")), id=ID,
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
_TYPE = enum(*PART_TYPES)
_TEXT: dict[str, Spec] = {"type": _TYPE, "text": SHAPE, "synthetic": BOOL, "ignored": BOOL, "time": DROP,
                          "id": ID, "sessionID": ID, "messageID": ID}
PART_DATA = Switch("type", {
    "text": used("a prompt's chars, a reply's textChars", Obj({
        **_TEXT, "text": used("length only", SHAPE),
        "synthetic": used("a synthetic part is not the user's: skipped", BOOL),
        "ignored": used("an ignored part is skipped", BOOL)})),
    "reasoning": used("thinking", Obj({**_TEXT, "text": used("presence only (thinking)", SHAPE)})),
    "tool": used("a tool call and its result", obj(
        tool=used("event kind (the shared tool table)", ident("tool")),
        callID=used("pairs call and result", ID), state=_STATE, type=_TYPE, id=ID, sessionID=ID,
        messageID=ID)),
    "file": used("images counted on a prompt", obj(mime=used("images counted", SHAPE), type=_TYPE, id=ID,
                                                   filename=DROP, url=DROP, source=DROP)),
    "compaction": used("a compaction", obj(auto=used("trigger (auto or manual)", BOOL), type=_TYPE, id=ID)),
    "retry": used("an API error that was retried", obj(type=_TYPE, id=ID, error=DROP, attempt=NUMBER)),
    **{kind: obj(type=_TYPE) for kind, how in PART_TYPES.items() if how == "skipped"},
}, default=obj(type=_TYPE))
PART = obj(opencode=used("record dispatch", enum("session", "message", "part")), id=ID,
           message_id=used("the message the part belongs to", ID), time_created=TIMESTAMP,
           data=used("part dispatch (`type`)", PART_DATA))

RECORD = Switch("opencode", {"session": SESSION, "message": MESSAGE, "part": PART})

TABLE = Table(FORMAT, RECORD)
