"""The keys Crush's reader and sniffer read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import."""
from __future__ import annotations

from redact.formats.crush.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
KIND = S.key("crush")
SESSION_ID, PROJECT = S.key("session", "id"), S.key("session", "project")
PARENT, CREATED = S.key("session", "parent_session_id"), S.key("session", "created_at")
SUMMARY, MESSAGE_ID = S.key("session", "summary_message_id"), S.key("message", "id")
PROMPT_TOKENS, COMPLETION_TOKENS = S.key("session", "prompt_tokens"), S.key("session", "completion_tokens")
ROLE, AT, FINISHED = S.key("message", "role"), S.key("message", "created_at"), S.key("message", "finished_at")
MODEL, PARTS = S.key("message", "model"), S.key("message", "parts")
PART_TYPE, DATA = S.key("message", "parts", "type"), S.key("message", "parts", "text", "data")
PART_TYPES = S.cases("message", "parts")
TEXT = S.key("message", "parts", "text", "data", "text")
MIME, MIME_GO = (S.key("message", "parts", "binary", "data", name) for name in ("mime_type", "MIMEType"))
CALL_ID, CALL_NAME = (S.key("message", "parts", "tool_call", "data", name) for name in ("id", "name"))
CALL_INPUT = S.blob("message", "parts", "tool_call", "data", "input")
RESULT_CALL, RESULT_ERROR, RESULT_CONTENT = (S.key("message", "parts", "tool_result", "data", name)
                                             for name in ("tool_call_id", "is_error", "content"))
REASON = S.key("message", "parts", "finish", "data", "reason")
