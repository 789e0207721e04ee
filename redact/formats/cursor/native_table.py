"""Cursor's one table: the JSON Lines export of one chat (`store.py`: a composer of globalStorage, or an
older workspaceStorage aichat tab, then its bubbles in order) that the reader reads, with what it keeps.

The export picks these fields out of the store's JSON values (named in each use text); nothing else
of a composer or a bubble is exported (its `*EncryptionKey` values, `toolCallBinary`, ... never are).
Cursor has no native output (`native.py` refuses `--to native`). The table classifies every field
the reader reads (tests/formats/test_tables.py) and renders the field table of docs/formats.md.
"""
from __future__ import annotations

from redact.native.spec import (
    DROP,
    ID,
    NUMBER,
    PATH,
    SHAPE,
    TIMESTAMP,
    VERSION,
    ByType,
    Switch,
    Table,
    enum,
    ident,
    obj,
    used,
)

FORMAT = "cursor"
_KIND = used("record dispatch", enum("composer", "tab", "bubble"))

COMPOSER = obj(
    cursor=_KIND,
    id=used("session.id (composerData.composerId)", ID),
    v=VERSION,
    createdAt=used("first time seen", TIMESTAMP), lastUpdatedAt=TIMESTAMP,
    model=used("llm model (composerData.modelConfig.modelName)", ident("model")),
    mode=DROP,
    root=used("repository root, never written (composerData.workspaceIdentifier.uri.fsPath)", PATH),
    name=SHAPE,
    parent=used("the composer listing this one in subagentComposerIds / subComposerIds: role subagent, "
                "parentSessionId", ID),
)
TAB = obj(
    cursor=_KIND,
    id=used("session.id (workspaceStorage aichat tab.tabId)", ID),
    lastSendTime=used("first time seen", TIMESTAMP),
    title=SHAPE,
)
_TOOL = obj(
    toolCallId=used("call id", ID),
    name=used("event kind (the shared tool table, after the aliases)", ident("tool")),
    status=used("completed: a result; error / cancelled: a failed result", SHAPE),
    additionalStatus=used("a failed result (toolFormerData.additionalData.status)", SHAPE),
    params=used("JSON in a string: command, targetFile / relativeWorkspacePath / path, url host", DROP),
    rawArgs=used("JSON in a string, when params has none", DROP),
    result=used("byte count", SHAPE),
    error=used("errClass from the wording", SHAPE),
)
_TYPE = used("1 / user: a prompt; 2 / ai: the agent's turn", ByType(text=enum("user", "ai"), scalar=NUMBER))
BUBBLE = obj(
    cursor=_KIND,
    id=ID,
    type=_TYPE,
    createdAt=used("event time", TIMESTAMP),
    time=used("event time (an aichat bubble's timestamp)", TIMESTAMP),
    tokenCount=obj(inputTokens=used("in (summed over a turn)", NUMBER),
                   outputTokens=used("out (summed over a turn)", NUMBER)),
    model=used("llm model (modelInfo.modelName, an aichat bubble's modelType)", ident("model")),
    text=used("length only (text, an aichat bubble's rawText)", SHAPE),
    thinking=used("presence only (thinking.text)", SHAPE),
    tool=_TOOL,
)

RECORD = Switch("cursor", {"composer": COMPOSER, "tab": TAB, "bubble": BUBBLE})

TABLE = Table(FORMAT, RECORD)
