"""The keys the session-record reader, its record handlers, the native scrubber and the sniffer read,
each named by its place in the format's one table (`native_table.py`; redact/formats/slots.py): a
place the table does not classify fails the import."""
from __future__ import annotations

from redact.formats.session_record.native_table import TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
TYPE, TS = S.key("type"), S.key("ts")

# the `session` header
SESSION_ID, FORMAT_VERSION = S.key("session", "sessionId"), S.key("session", "formatVersion")
AGENT, AGENT_NAME = S.key("session", "agent"), S.key("session", "agent", "name")
STARTED_AT, PROFILES = S.key("session", "startedAt"), S.key("session", "profiles")
LINEAGE, LINEAGE_ROOT = S.key("session", "lineage"), S.key("session", "lineage", "root")
PARENT, PARENT_SESSION = S.key("session", "lineage", "parent"), S.key("session", "lineage", "parent", "sessionId")
WORKSPACE, ROOTS = S.key("session", "workspace"), S.key("session", "workspace", "roots")
ROOT_ID, ROOT_PATH = S.key("session", "workspace", "roots", "id"), S.key("session", "workspace", "roots", "path")
ROOT_VCS = S.key("session", "workspace", "roots", "vcs")
ROOT_REMOTE = S.key("session", "workspace", "roots", "vcs", "remote")
CONTENT_LEVEL = S.key("session", "contentLevel")
PRODUCER, LOSSY = S.key("session", "producer"), S.key("session", "producer", "lossy")

# `message`, and the content parts of a message or a tool result
ROLE, AUTHOR, ORIGIN = (S.key("message", name) for name in ("role", "author", "origin"))
CONTENT, MESSAGE_INFERENCE = S.key("message", "content"), S.key("message", "inferenceId")
PART_TYPE = S.key("message", "content", "type")
PART_TEXT = S.key("message", "content", "text", "text")
RESULT_TEXT = S.key("tool_result", "content", "text", "text")

# `inference` and `usage_summary`
INFERENCE_ID, MODEL = S.key("inference", "inferenceId"), S.key("inference", "model")
MODEL_ID, USAGE = S.key("inference", "model", "id"), S.key("inference", "usage")
USAGE_INPUT, USAGE_OUTPUT = S.key("inference", "usage", "input"), S.key("inference", "usage", "output")
UNCACHED, CACHE_READ, CACHE_WRITE = (S.key("inference", "usage", "input", name)
                                     for name in ("uncached", "cacheRead", "cacheWrite"))
OUTPUT_TOTAL = S.key("inference", "usage", "output", "total")
LATENCY, DURATION_MS = S.key("inference", "latency"), S.key("inference", "latency", "durationMs")
STOP_REASON = S.key("inference", "stopReason")
SUMMARY_USAGE, SUMMARY_SCOPE = S.key("usage_summary", "usage"), S.key("usage_summary", "scope")

# `tool_call` and `tool_result`
CALL_ID, CALL_NAME, CALL_KIND = (S.key("tool_call", name) for name in ("callId", "name", "kind"))
CALL_INPUT, CALL_INFERENCE = S.key("tool_call", "input"), S.key("tool_call", "inferenceId")
RESULT_CALL, RESULT_CONTENT = S.key("tool_result", "callId"), S.key("tool_result", "content")
RESULT_STATUS_KEY, RESULT_DURATION = S.key("tool_result", "status"), S.key("tool_result", "durationMs")
EXEC, EXIT_CODE = S.key("tool_result", "exec"), S.key("tool_result", "exec", "exitCode")
EXEC_COMMAND = S.key("tool_result", "exec", "command")

# `file_change`
CAUSE, CAUSE_CALL = S.key("file_change", "cause"), S.key("file_change", "cause", "callId")
CAUSE_ACTOR, CHANGE_STATUS = S.key("file_change", "cause", "actor"), S.key("file_change", "status")
CHANGES = S.key("file_change", "changes")
CHANGE_ROOT, CHANGE_PATH, CHANGE_OP, CHANGE_FROM = (S.key("file_change", "changes", name)
                                                    for name in ("root", "path", "op", "from"))

# `vcs`, `state`, `compaction`
VCS_ACTION, VCS_COMMIT, VCS_EVIDENCE = (S.key("vcs", name) for name in ("action", "commit", "evidence"))
VCS_CAUSE, VCS_CAUSE_CALL = S.key("vcs", "cause"), S.key("vcs", "cause", "callId")
STATE = S.key("state", "state")
TRIGGER = S.key("compaction", "trigger")
