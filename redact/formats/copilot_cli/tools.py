"""Copilot CLI tools: a `tool.execution_start` -> ToolCall, its `tool.execution_complete` -> ToolResult.

Only the argument fields the tool table names are read: the shell command (bash, powershell; for the
verb engine), the `path` of file tools (by `str_replace_editor`'s `command`: view reads, create and
str_replace edit), a fetch's URL host, the `agent_type` of `task`, the `skill` of `skill`. MCP calls
are named by the start event's `mcpServerName` / `mcpToolName` (a request names only its tool and
arguments). A result is read for its shape: byte
count, the exit code Copilot appends to a shell's output (`<exited with exit code N>`), an error
class from the harness's wording, and the commits or PRs it confirms.
"""
from __future__ import annotations

import re
from typing import Any

from redact.build import outputs
from redact.build.facts import ToolCall, ToolResult
from redact.formats.common import byte_len, host_of
from redact.formats.copilot_cli.keys import (
    AGENT_TYPE, COMMAND, ERROR, ERROR_MESSAGE, PATH, RESULT, RESULT_CONTENT, SKILL, SUCCESS, URL,
)
from redact.formats.copilot_cli.native_table import EDITOR_COMMANDS, TOOLS
from redact.formats.wording import error_class

_EXIT = re.compile(r"<exited with exit code (-?\d{1,5})>\s*$")
_NAME = re.compile(r"[A-Za-z0-9_.@/-]{1,100}")


def make_call(found: object, arguments: object, call_id: str, t: float, agent: str, server: object = None,
              tool: object = None) -> ToolCall:
    """A call to the tool named `found` with its `arguments`; `server` and `tool` name an MCP call
    (the start event's `mcpServerName` / `mcpToolName`)."""
    name = found if isinstance(found, str) and found else "unknown"
    args: dict[str, Any] = arguments if isinstance(arguments, dict) else {}
    if isinstance(server, str) and server and isinstance(tool, str) and tool:
        return ToolCall(t, agent, call_id, name, "mcp", server=server, tool=tool)
    builtin = TOOLS.get(name)
    kind = builtin.kind if builtin is not None else "tool"
    op = builtin.op if builtin is not None else None
    if name == "str_replace_editor":
        command = args.get(COMMAND)
        kind, op = EDITOR_COMMANDS.get(command, ("edit", "modify")) if isinstance(command, str) else ("edit", None)
    call = ToolCall(t, agent, call_id, name, kind,  # type: ignore[arg-type]
                    waits_on_user=builtin is not None and builtin.waits_on_user)
    if kind in ("read", "edit"):
        path = args.get(PATH)
        if isinstance(path, str) and path:
            call.paths = (path,)
        call.op = op if kind == "edit" else None
    elif kind == "exec":
        command = args.get(COMMAND)
        call.command = command if isinstance(command, str) else ""
        if name == "powershell":  # the session's shell decides the grammar: this tool runs PowerShell
            call.shell = "powershell"
    elif kind == "web":
        call.host = host_of(args.get(URL))
    elif kind == "subagent":
        sub = args.get(AGENT_TYPE)
        call.subagent_type = sub if isinstance(sub, str) and _NAME.fullmatch(sub) else None
    elif kind == "skill":
        skill = args.get(SKILL)
        call.skill = skill if isinstance(skill, str) and _NAME.fullmatch(skill) else None
    return call


def make_result(data: dict[str, Any], call: ToolCall, t: float) -> ToolResult:
    result = data.get(RESULT)
    content = result.get(RESULT_CONTENT) if isinstance(result, dict) else None
    text = content if isinstance(content, str) else ""
    error = data.get(ERROR)
    message = error.get(ERROR_MESSAGE) if isinstance(error, dict) else error
    message = message if isinstance(message, str) else ""
    res = ToolResult(t, call.call_id, data.get(SUCCESS) is False,
                     out_bytes=byte_len(text) if isinstance(content, str) else None)
    if call.kind == "exec":
        m = _EXIT.search(text[-200:])
        res.exit_code = int(m.group(1)) if m else None
        if res.exit_code not in (None, 0) and not res.is_error:
            res.is_error = True
    if res.is_error:
        if call.kind == "exec" and res.exit_code not in (None, 0):
            res.err_class = "exit_code"
        else:
            res.err_class = error_class(message or text, call.name)
            low = message[:200].lower()
            if call.kind == "edit" and ("no match found" in low or "multiple matches" in low):
                res.err_class = "patch_failed"
            if "rejected" in low or "denied by the user" in low:
                res.err_class = "permission_denied"
            if call.kind == "subagent" and res.err_class not in ("interrupted", "permission_denied"):
                res.err_class = "subagent_failed"
    if call.kind == "exec" and call.command:
        res.outputs = outputs.shell_outputs(call.command, text, res.is_error)
    elif call.kind == "mcp":
        res.outputs = outputs.mcp_outputs(call.tool or "", text, res.is_error)
    return res
