"""The keys Kiro's session-store reader, sniffer and scrubber read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import."""
from __future__ import annotations

from redact.formats.kiro_ide_log.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
D = Slots(TABLE, TABLE.document)
EVENT_ID, AT, PAYLOAD = S.key("id"), S.key("timestamp"), S.key("payload")
TYPES = S.cases("payload")
TYPE = S.key("payload", "type")
CONTENT = S.same(("payload", "user", "content"), ("payload", "assistant", "content"),
                 ("payload", "tool_result", "content"))
IMAGES = S.key("payload", "user", "images")
OPERATION = S.key("payload", "assistant", "operationType")
CALL_ID = S.same(("payload", "tool_call", "toolCallId"), ("payload", "tool_result", "toolCallId"))
CALL_NAME, CALL_ARGS = S.key("payload", "tool_call", "toolName"), S.key("payload", "tool_call", "args")
IS_ERROR, STATUS = S.key("payload", "tool_result", "isError"), S.key("payload", "tool_result", "status")
SUB_ID = S.same(("payload", "sub_agent_start", "subSessionId"), ("payload", "sub_agent_complete", "subSessionId"))
SUB_NAME, SUB_RESPONSE = S.key("payload", "sub_agent_start", "subAgentName"), \
    S.key("payload", "sub_agent_complete", "response")
STOP = S.key("payload", "turn_end", "stopReason")
# -- session.json
SESSION_ID, WORKSPACES, ROOTS, MODEL = (D.key(n) for n in ("id", "workspacePaths", "rootPaths", "model"))
PARENT, REASON, MODIFIED = (D.key(n) for n in ("parentSessionId", "createdReason", "lastModifiedAt"))
STATE = D.key("status")
