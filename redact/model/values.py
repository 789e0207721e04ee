"""The closed value sets of the agentplay/v1 map's enum fields (seed 000): each is the whole language
of its field, for the models (redact/model/agentplay.py), their JSON Schema and the scanner's grammar."""
from __future__ import annotations

from typing import Literal

#: The map's schema ids (its `schema` field): the current one, and the name it had before.
SCHEMA_IDS = ("agentplay/v1", "entelligence.session-map/v1")

PathMode = Literal["relative", "dirs_only", "hashed"]
Outcome = Literal[
    "pr_created", "interrupted", "blocked", "verified", "unresolved_errors", "incomplete", "completed"
]
Category = Literal[
    "file", "shell", "vcs", "test", "cloud", "http", "fs", "package", "build", "mcp", "subagent",
    "skill", "web", "tool",
]
ToolErrClass = Literal[
    "exit_code", "timeout", "not_found", "validation", "needs_approval", "permission_denied", "blocked",
    "browser", "patch_failed", "stale_file", "model_unavailable", "rate_limit", "api_error",
    "interrupted", "no_result", "subagent_failed", "subagent_killed", "other",
]
EventErrClass = Literal[
    "rate_limit", "usage_limit", "spend_limit", "overloaded", "server_error", "auth", "bad_request",
    "api_error", "refusal_fallback", "hook_blocking", "hook_error", "interrupted",
]
AnyErrClass = Literal[ToolErrClass, EventErrClass]  # the union, in that order (Literal flattens it)
ErrSource = Literal["tool", "mcp", "llm", "hook", "orchestration"]
StopReason = Literal[
    "end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal",
    "model_context_window_exceeded", "other",
]
HookEvent = Literal[
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "Notification", "UserPromptSubmit",
    "SessionStart", "SessionEnd", "Stop", "SubagentStart", "SubagentStop", "PreCompact",
    "PermissionRequest",
]
FileOp = Literal["create", "modify", "delete", "rename-from", "rename-to"]
Touch = Literal["hit", "read", "edit"]
Provider = Literal["git", "github", "gitlab", "bitbucket"]
