"""The keys the Kiro IDE reader, sniffer and assembler read, each named by its place in the format's
one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the
import."""
from __future__ import annotations

from redact.formats.kiro_ide.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
D = Slots(TABLE, TABLE.document)
ASSEMBLY_TAG, ASSEMBLY_SESSION, EXECUTIONS = D.key("kiroIde"), D.key("session"), D.key("executions")
SESSION_ID, WORKSPACE, CREATED = S.key("sessionId"), S.key("workspaceDirectory"), S.key("dateCreated")
MODEL, HISTORY = S.key("selectedModel"), S.key("history")
MESSAGE, EXECUTION_ID = S.key("history", "message"), S.key("history", "executionId")
ROLE, CONTENT = S.key("history", "message", "role"), S.key("history", "message", "content")
BLOCKS = S.cases("history", "message", "content")
BLOCK_TYPE, TEXT = S.key("history", "message", "content", "type"), S.key("history", "message", "content", "text", "text")
CALL_ID, CALL_NAME, CALL_INPUT = (S.key("history", "message", "content", "tool_use", name)
                                  for name in ("id", "name", "input"))
# -- an execution log
X_ID = S.key("<execution>", "executionId")
X_MESSAGES = S.key("<execution>", "messagesFromExecutionId")
X_ROLES = S.cases("<execution>", "messagesFromExecutionId")
X_ROLE = S.key("<execution>", "messagesFromExecutionId", "role")
X_ENTRIES = S.same(("<execution>", "messagesFromExecutionId", "bot", "entries"),
                   ("<execution>", "messagesFromExecutionId", "tool", "entries"))
X_TYPES = S.cases("<execution>", "messagesFromExecutionId", "bot", "entries")
X_TYPE = S.key("<execution>", "messagesFromExecutionId", "bot", "entries", "type")
X_TEXT = S.key("<execution>", "messagesFromExecutionId", "bot", "entries", "text", "text")
X_CALL_ID, X_CALL_NAME, X_CALL_INPUT = (S.key("<execution>", "messagesFromExecutionId", "bot", "entries", "toolUse", n)
                                        for n in ("id", "name", "input"))
