"""Cursor's one table: the JSON Lines export of one chat (`store.py`: a composer of globalStorage, or an
older workspaceStorage aichat tab, then its bubbles in order) that the reader reads, with what it keeps.

The export picks these fields out of the store's JSON values, which the named nodes classify as
`store.py` reads them (`STORED_COMPOSER`, `STORED_BUBBLE`, `CHATDATA`); nothing else of a composer or a
bubble is exported (its `*EncryptionKey` values, `toolCallBinary`, ... never are).
Cursor has no native output (`native.py` refuses `--to native`). The table classifies every field
the reader reads (tests/formats/test_tables.py) and renders the field table of docs/formats.md.
"""
from __future__ import annotations

from redact.tables.spec import (
    DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERSION, ByType, Many, Ref, Switch, Table, enum, ident, obj,
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
    root=used("the workspace folder: the repository root unless a tracked git repository holds it, never "
              "written (composerData.workspaceIdentifier.uri.fsPath)", PATH),
    gitRepos=used("the git repository holding the workspace is the repository root, never written "
                  "(composerData.trackedGitRepos[].repoPath)", Many(PATH)),
    name=SHAPE,
    parent=used("the composer listing this one in subagentComposerIds / subComposerIds: role subagent, "
                "parentSessionId", ID),
    compactedThrough=used("a compaction event after this bubble (composerData.latestConversationSummary; "
                          "built from public descriptions of the store, no sample)", ID),
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
#: bubble `type`: 1 (or "user") is the user's, 2 (or "ai") the agent's
USER_TYPES = (1, "user")
AI_TYPES = (2, "ai")
_TYPE = used("1 / user: a prompt; 2 / ai: the agent's turn", ByType(
    text=enum(*(t for t in USER_TYPES + AI_TYPES if isinstance(t, str))), scalar=NUMBER))
_TOKENS = obj(inputTokens=used("in (summed over a turn)", NUMBER),
              outputTokens=used("out (summed over a turn)", NUMBER))
BUBBLE = obj(
    cursor=_KIND,
    id=ID,
    type=_TYPE,
    createdAt=used("event time", TIMESTAMP),
    time=used("event time (an aichat bubble's timestamp)", TIMESTAMP),
    tokenCount=_TOKENS,
    model=used("llm model (modelInfo.modelName, an aichat bubble's modelType)", ident("model")),
    text=used("length only (text, an aichat bubble's rawText)", SHAPE),
    thinking=used("presence only (thinking.text)", SHAPE),
    tool=_TOOL,
)

RECORD = Switch("cursor", {"composer": COMPOSER, "tab": TAB, "bubble": BUBBLE})


# -- the store's own JSON values, as `store.py` reads them to build the export above -------------------

_EXPORTED = "exported as"
#: a bubble value (`bubbleId:<composerId>:<bubbleId>` of cursorDiskKV, or an item of an older
#: composer's inline `conversation`); toolFormerData's fields that the export's `tool` also has are
#: copied under the same names
STORED_BUBBLE = obj(
    bubbleId=used(f"{_EXPORTED} bubble.id (the key's, when the value is stored under its own key)", ID),
    type=used(f"{_EXPORTED} bubble.type", _TYPE),
    createdAt=used(f"{_EXPORTED} bubble.createdAt", TIMESTAMP),
    tokenCount=used(f"{_EXPORTED} bubble.tokenCount (the object as it is)", _TOKENS),
    modelInfo=obj(modelName=used(f"{_EXPORTED} bubble.model", ident("model"))),
    text=used(f"{_EXPORTED} bubble.text", SHAPE),
    richText=SHAPE,
    thinking=obj(text=used(f"{_EXPORTED} bubble.thinking", SHAPE)),
    toolFormerData=used(f"{_EXPORTED} bubble.tool (the fields both have)", obj(
        **{name: spec for name, spec in _TOOL.fields.items() if name != "additionalStatus"},
        additionalData=obj(status=used(f"{_EXPORTED} bubble.tool.additionalStatus", SHAPE)),
        toolCallBinary=DROP)),
)
#: a composer value (`composerData:<composerId>` of cursorDiskKV)
_SUBAGENTS = used("a composer listing another is its parent (exported as composer.parent)", Many(ID))
STORED_COMPOSER = obj(
    composerId=ID,
    _v=used(f"{_EXPORTED} composer.v", VERSION),
    createdAt=used(f"{_EXPORTED} composer.createdAt; orders the sessions", TIMESTAMP),
    lastUpdatedAt=used(f"{_EXPORTED} composer.lastUpdatedAt", TIMESTAMP),
    modelConfig=obj(modelName=used(f"{_EXPORTED} composer.model", ident("model"))),
    unifiedMode=used(f"{_EXPORTED} composer.mode", SHAPE),
    workspaceIdentifier=obj(uri=obj(fsPath=used(f"{_EXPORTED} composer.root", PATH))),
    trackedGitRepos=Many(obj(repoPath=used(f"{_EXPORTED} composer.gitRepos", PATH), branches=DROP)),
    name=used(f"{_EXPORTED} composer.name", SHAPE),
    text=SHAPE, richText=SHAPE,
    subagentComposerIds=_SUBAGENTS, subComposerIds=_SUBAGENTS,
    fullConversationHeadersOnly=used("the bubbles, in order", Many(obj(
        bubbleId=used("the bubble's key", ID)))),
    conversation=used("the bubbles, inline (older composers)", Many(Ref("STORED_BUBBLE"))),
    blobEncryptionKey=DROP, speculativeSummarizationEncryptionKey=DROP,
    # the summary Cursor wrote when it compacted the chat (built from public descriptions of the
    # store, no sample): where it cut, never its text; older composers: `summary` a plain string
    latestConversationSummary=obj(
        summary=used("the summary: its text never read; an object names the cut", obj(
            summary=DROP,
            truncationLastBubbleIdInclusive=used(f"{_EXPORTED} composer.compactedThrough", ID),
            clientShouldStartSendingFromInclusiveBubbleId=ID, previousConversationSummaryBubbleId=ID,
            includesToolResults=SHAPE)),
        lastBubbleId=used(f"{_EXPORTED} composer.compactedThrough, when the summary names no cut", ID)),
)
#: ItemTable's `workbench.panel.aichat.view.aichat.chatdata` (workspaceStorage): its tabs are the chats
CHATDATA = obj(tabs=used("the chats", Many(obj(
    tabId=used(f"{_EXPORTED} tab.id", ID),
    lastSendTime=used(f"{_EXPORTED} tab.lastSendTime", TIMESTAMP),
    chatTitle=used(f"{_EXPORTED} tab.title", SHAPE),
    bubbles=used("the chat's bubbles, in order", Many(obj(
        id=used(f"{_EXPORTED} bubble.id", ID),
        type=used(f"{_EXPORTED} bubble.type", _TYPE),
        timestamp=used(f"{_EXPORTED} bubble.time", TIMESTAMP),
        contextCacheTimestamp=used(f"{_EXPORTED} bubble.time, when it has no timestamp", TIMESTAMP),
        modelType=used(f"{_EXPORTED} bubble.model", ident("model")),
        text=used(f"{_EXPORTED} bubble.text", SHAPE),
        rawText=used(f"{_EXPORTED} bubble.text, when it has no text", SHAPE),
    ))),
))))

TABLE = Table(FORMAT, RECORD, named={"STORED_COMPOSER": STORED_COMPOSER, "STORED_BUBBLE": STORED_BUBBLE,
                                     "CHATDATA": CHATDATA})
