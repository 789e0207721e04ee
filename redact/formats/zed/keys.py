"""The keys Zed's reader and sniffer read, each named by its place in the format's one table
(`native_table.py`; redact/formats/slots.py): a place the table does not classify fails the import."""
from __future__ import annotations

from redact.formats.slots import Slots
from redact.formats.zed.native_table import TABLE

S = Slots(TABLE)
KIND = S.key("zed")
# -- the thread line
THREAD_ID, CREATED, UPDATED = S.key("session", "id"), S.key("session", "created_at"), S.key("session", "updated_at")
PARENT, FOLDERS, VERSION = S.key("session", "parent_id"), S.key("session", "folder_paths"), S.key("session", "version")
MODEL, MODEL_NAME = S.key("session", "model"), S.key("session", "model", "model")
MESSAGES, TURN_USAGE = S.key("session", "messages"), S.key("session", "request_token_usage")
SNAPSHOT = S.key("session", "initial_project_snapshot")
SNAPSHOT_AT = S.key("session", "initial_project_snapshot", "timestamp")
WORKTREES = S.key("session", "initial_project_snapshot", "worktree_snapshots")
WORKTREE_PATH = S.key("session", "initial_project_snapshot", "worktree_snapshots", "worktree_path")
GIT = S.key("session", "initial_project_snapshot", "worktree_snapshots", "git_state")
REMOTE = S.key("session", "initial_project_snapshot", "worktree_snapshots", "git_state", "remote_url")
# -- a message line
MESSAGE, USAGE = S.key("message", "message"), S.key("message", "usage")
IN, OUT, CACHE_WRITE, CACHE_READ = (S.key("message", "usage", name) for name in (
    "input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
USER, AGENT = S.key("message", "message", "User"), S.key("message", "message", "Agent")
USER_ID, USER_CONTENT = S.key("message", "message", "User", "id"), S.key("message", "message", "User", "content")
USER_TEXT, MENTION, IMAGE = (S.key("message", "message", "User", "content", name)
                             for name in ("Text", "Mention", "Image"))
AGENT_CONTENT = S.key("message", "message", "Agent", "content")
RESULTS = S.key("message", "message", "Agent", "tool_results")
TEXT, THINKING, REDACTED, TOOL_USE = (S.key("message", "message", "Agent", "content", name)
                                      for name in ("Text", "Thinking", "RedactedThinking", "ToolUse"))
CALL_ID, CALL_NAME = (S.key("message", "message", "Agent", "content", "ToolUse", name) for name in ("id", "name"))
CALL_INPUT = S.blob("message", "message", "Agent", "content", "ToolUse", "input")
RESULT_CALL, RESULT_ERROR, RESULT_CONTENT = (S.key("message", "message", "Agent", "tool_results", name)
                                             for name in ("tool_use_id", "is_error", "content"))
RESULT_TEXT = S.key("message", "message", "Agent", "tool_results", "content", "Text")
#: the kinds of a user's and an agent's content items (each item's one key)
USER_KINDS, AGENT_KINDS = (USER_TEXT, MENTION, IMAGE), (TEXT, THINKING, REDACTED, TOOL_USE)
