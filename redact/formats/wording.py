"""Error classes from a harness's own wording, for every reader: the errClass of a failed tool call
(`error_class`) and of a failed model request (`api_error_class`), and how a failed command's exit
code is written at the start of a tool result (`EXIT_CODE`, Claude Code's wording).

Only the first characters of the text are read, for fixed phrases; only the class leaves.
"""
from __future__ import annotations

import re

#: How Claude Code writes a failed command's exit code at the start of a tool_result.
EXIT_CODE = r"^Exit code (-?\d{1,5})\b"

_EXIT = re.compile(EXIT_CODE)


def error_class(text: str, name: str) -> str:
    """The seed's errClass for a failed tool call, from the harness's own wording."""
    head = text[:400]
    low = head.lower()
    if _EXIT.match(head):
        return "exit_code"
    if head.startswith("[Request interrupted") or "interrupted by user" in low:
        return "interrupted"
    if "doesn't want to proceed" in low or "user rejected" in low or "permission to use" in low:
        return "permission_denied"
    if "hook" in low and ("block" in low or "denied" in low):
        return "blocked"
    if "timed out" in low or "timeout" in low:
        return "timeout"
    if "to replace not found" in low or "matches of the string" in low:
        return "patch_failed"
    if "modified since" in low or "has not been read yet" in low or "unexpectedly modified" in low:
        return "stale_file"
    if ("does not exist" in low or "no such file" in low or "not found" in low
            or "status code 404" in low):
        return "not_found"
    if "permission denied" in low or "eacces" in low or "operation not permitted" in low:
        return "permission_denied"
    if "inputvalidationerror" in low or "exceeds maximum" in low or "invalid" in low:
        return "validation"
    if "429" in head or "rate limit" in low:
        return "rate_limit"
    if name in ("Task", "Agent"):
        return "subagent_failed"
    return "other"


def api_error_class(message: object) -> str:
    """errClass of a failed model request from the fixed wording of its error message (only the
    class leaves this function)."""
    low = message[:300].lower() if isinstance(message, str) else ""
    if "usage limit" in low:
        return "usage_limit"
    if "rate limit" in low or "429" in low:
        return "rate_limit"
    if "context window" in low:
        return "bad_request"
    if "401" in low or "unauthorized" in low:
        return "auth"
    if re.search(r"\b5\d\d\b", low) or "internal server error" in low:
        return "server_error"
    return "api_error"
