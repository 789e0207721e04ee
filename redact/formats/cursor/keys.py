"""The keys Cursor's reader, sniffer and store read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import.

The export's keys (the records the reader reads, which `store.py` also writes) are places of the
record switch; the keys `store.py` reads from the store's own JSON values are places of the named
nodes `<STORED_COMPOSER>`, `<STORED_BUBBLE>` and `<CHATDATA>`."""
from __future__ import annotations

from redact.formats.cursor.native_table import TABLE
from redact.formats.slots import Slots
from redact.tables.spec import Obj

S = Slots(TABLE)

# -- the export (store.py writes it, the reader reads it) ------------------------------------------
KIND = S.key("cursor")
ID = S.key("id")
VERSION, CREATED, UPDATED = (S.key("composer", name) for name in ("v", "createdAt", "lastUpdatedAt"))
MODEL, MODE, ROOT = (S.key("composer", name) for name in ("model", "mode", "root"))
GIT_REPOS = S.key("composer", "gitRepos")
NAME, PARENT = S.key("composer", "name"), S.key("composer", "parent")
LAST_SEND, TITLE = S.key("tab", "lastSendTime"), S.key("tab", "title")
BUBBLE_TYPE, AT, TIME = S.key("bubble", "type"), S.key("bubble", "createdAt"), S.key("bubble", "time")
TOKENS = S.key("bubble", "tokenCount")
INPUT_TOKENS = S.key("bubble", "tokenCount", "inputTokens")
OUTPUT_TOKENS = S.key("bubble", "tokenCount", "outputTokens")
BUBBLE_MODEL, TEXT = S.key("bubble", "model"), S.key("bubble", "text")
THINKING, TOOL = S.key("bubble", "thinking"), S.key("bubble", "tool")
TOOL_NAME, CALL_ID = S.key("bubble", "tool", "name"), S.key("bubble", "tool", "toolCallId")
PARAMS, RAW_ARGS = S.blob("bubble", "tool", "params"), S.blob("bubble", "tool", "rawArgs")
STATUS = S.key("bubble", "tool", "status")
ADDITIONAL_STATUS = S.key("bubble", "tool", "additionalStatus")
RESULT, ERROR = S.key("bubble", "tool", "result"), S.key("bubble", "tool", "error")

# -- the store's own JSON values (store.py reads them) ---------------------------------------------
C_VERSION, C_CREATED, C_UPDATED = (S.key("<STORED_COMPOSER>", name) for name in ("_v", "createdAt", "lastUpdatedAt"))
C_MODEL_CONFIG = S.key("<STORED_COMPOSER>", "modelConfig")
C_MODEL_NAME = S.key("<STORED_COMPOSER>", "modelConfig", "modelName")
C_MODE, C_NAME = S.key("<STORED_COMPOSER>", "unifiedMode"), S.key("<STORED_COMPOSER>", "name")
C_WORKSPACE = S.key("<STORED_COMPOSER>", "workspaceIdentifier")
C_URI = S.key("<STORED_COMPOSER>", "workspaceIdentifier", "uri")
C_FS_PATH = S.key("<STORED_COMPOSER>", "workspaceIdentifier", "uri", "fsPath")
C_GIT_REPOS, C_REPO_PATH = (S.key("<STORED_COMPOSER>", "trackedGitRepos"),
                            S.key("<STORED_COMPOSER>", "trackedGitRepos", "repoPath"))
#: the lists naming a composer's subagents, in the order they are looked at
C_SUBAGENTS = tuple(S.key("<STORED_COMPOSER>", name) for name in ("subagentComposerIds", "subComposerIds"))
C_HEADERS = S.key("<STORED_COMPOSER>", "fullConversationHeadersOnly")
C_HEADER_BUBBLE = S.key("<STORED_COMPOSER>", "fullConversationHeadersOnly", "bubbleId")
C_CONVERSATION = S.key("<STORED_COMPOSER>", "conversation")
C_SUMMARY = S.key("<STORED_COMPOSER>", "latestConversationSummary")
C_SUMMARY_INNER = S.key("<STORED_COMPOSER>", "latestConversationSummary", "summary")
C_CUT = S.key("<STORED_COMPOSER>", "latestConversationSummary", "summary", "truncationLastBubbleIdInclusive")
C_LAST_BUBBLE = S.key("<STORED_COMPOSER>", "latestConversationSummary", "lastBubbleId")
COMPACTED = S.key("composer", "compactedThrough")

B_ID, B_TYPE, B_CREATED = (S.key("<STORED_BUBBLE>", name) for name in ("bubbleId", "type", "createdAt"))
B_TOKENS, B_TEXT = S.key("<STORED_BUBBLE>", "tokenCount"), S.key("<STORED_BUBBLE>", "text")
B_MODEL_INFO = S.key("<STORED_BUBBLE>", "modelInfo")
B_MODEL_NAME = S.key("<STORED_BUBBLE>", "modelInfo", "modelName")
B_THINKING = S.key("<STORED_BUBBLE>", "thinking")
B_THINKING_TEXT = S.key("<STORED_BUBBLE>", "thinking", "text")
B_TOOL = S.key("<STORED_BUBBLE>", "toolFormerData")
B_ADDITIONAL = S.key("<STORED_BUBBLE>", "toolFormerData", "additionalData")
B_ADDITIONAL_STATUS = S.key("<STORED_BUBBLE>", "toolFormerData", "additionalData", "status")


def _fields(*place: str) -> Obj:
    found = S.node(*place)
    if not isinstance(found, Obj):
        raise TypeError(f"cursor: {'.'.join(place)} is not an object")
    return found


#: toolFormerData's fields copied into the export's `tool` under the same name: those both classify,
#: in the export's order
TOOL_COPIED: tuple[str, ...] = tuple(name for name in _fields("bubble", "tool").fields
                                     if name in _fields("<STORED_BUBBLE>", "toolFormerData").fields)

TABS = S.key("<CHATDATA>", "tabs")
TAB_ID, TAB_SENT, TAB_TITLE = (S.key("<CHATDATA>", "tabs", name) for name in ("tabId", "lastSendTime", "chatTitle"))
TAB_BUBBLES = S.key("<CHATDATA>", "tabs", "bubbles")
T_ID, T_TYPE, T_TIMESTAMP, T_CACHE_TIME, T_MODEL, T_TEXT, T_RAW_TEXT = (
    S.key("<CHATDATA>", "tabs", "bubbles", name)
    for name in ("id", "type", "timestamp", "contextCacheTimestamp", "modelType", "text", "rawText"))
