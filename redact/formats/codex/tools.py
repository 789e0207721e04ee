"""Codex tools: function/custom/local-shell calls -> ToolCall, their outputs -> ToolResult.

Arguments and outputs are JSON documents held in strings. Only the fields the tool table
(`native_table.TOOLS`, the arguments named in keys.py) names are read: the shell command (argv array or string, for the verb engine),
the paths of file tools, the file headers of a patch, `agent_type`/`model` of spawn_agent. An output
is read for its shape only: its byte count, the exit code and duration Codex states
(`metadata.exit_code`, `metadata.duration_seconds`, or the header lines `Exit code: N`,
`Process exited with code N`, `Wall time: X seconds`), an error class from the harness's own
wording, and the confirmations `redact.build.outputs` recognises.
"""
from __future__ import annotations

import re
import shlex
from typing import Any

from redact.build import outputs
from redact.build.facts import ToolCall, ToolResult
from redact.formats.codex.keys import (
    CMD, COMMAND, EXEC_COMMAND, OUT_CONTENT, OUT_DURATION, OUT_EXIT_CODE, OUT_METADATA, OUT_OUTPUT, OUT_SUCCESS,
    OUT_TEXT, PATCH_ARGS, POLL_SESSION, READ_TOOLS, SUBAGENT_ARGS, WEB_ACTION, WEB_ACTION_TYPE, WEB_STATUS, WEB_URL,
    WORKDIR,
)
from redact.formats.codex.tool_table import PATCH_TOOL, TOOLS, WEB_TOOL
from redact.formats.common import as_float, as_int, byte_len, host_of, is_model_name, parse_json_string
from redact.formats.patches import join, patch_targets
from redact.formats.toolnames import split_mcp
from redact.formats import wording

#: The tools by event kind, whether each waits on the user, and the arguments each reads are the tool
#: table's (`native_table.TOOLS`); the argument keys (EXEC_COMMAND, READ_TOOLS, ...) are in keys.py.

_PATCH_LINE = re.compile(r"""\s*(?:cd\s+(?:"[^"\n]*"|'[^'\n]*'|[^\s;&|'"]+)\s*&&\s*)?apply_patch(?=\s|$)""")
_CD = re.compile(r"""^\s*cd\s+("[^"\n]*"|'[^'\n]*'|[^\s;&|'"]+)\s*&&""")
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish"})
_EXIT = re.compile(r"^(?:Exit code:|Process exited with code) (-?\d{1,5})[ \t]*$", re.MULTILINE)
_WALL = re.compile(r"^Wall time: (\d{1,9}(?:\.\d{1,9})?) seconds[ \t]*$", re.MULTILINE)
_RUNNING = re.compile(r"^Process running with session ID (\d{1,12})[ \t]*$", re.MULTILINE)
#: Tools polling (or typing into) a process an exec_command call left running (write_stdin).
POLL_TOOLS = frozenset(POLL_SESSION)
_HEAD_CHARS = 1024  # the header lines of an output are within its first characters


def _argv(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and value and all(isinstance(w, str) for w in value):
        return tuple(value)
    return None


def script_of(argv: tuple[str, ...]) -> str:
    """The command line of an argv array: the script of `bash -lc SCRIPT`, else the words quoted."""
    if len(argv) >= 3 and argv[0].rsplit("/", 1)[-1] in _SHELLS and argv[1].startswith("-") and \
            "c" in argv[1]:
        return argv[2]
    return shlex.join(argv)


def is_windows_path(path: str) -> bool:
    """`C:\\Users\\kim\\proj`, `d:/src`, `\\\\server\\share`: a working directory on Windows."""
    return re.match(r"^[A-Za-z]:[\\/]", path) is not None or path.startswith("\\\\")


def _cd_base(script: str, base: str | None) -> str | None:
    m = _CD.match(script)
    if not m:
        return base
    target = m.group(1)
    if target[:1] in ("'", '"'):
        target = target[1:-1]
    return join(base, target) if target else base


def patch_call(call: ToolCall, patch: str, base: str | None) -> ToolCall:
    call.kind = "edit"
    call.paths, call.path_ops = patch_targets(patch, base)
    call.op = "modify"
    return call


def make_call(name: str, args: Any, call_id: str, t: float, agent: str, base: str | None, *,
              namespace: object = None, verb_of: Any = None) -> ToolCall:
    """The ToolCall of a function call `name` with its parsed `args` (None when they did not parse).

    `base` is the working directory relative paths are taken from; `verb_of` (a callable) gives the
    main verb of a shell command, to recognise `apply_patch` run through the shell."""
    inp: dict[str, Any] = args if isinstance(args, dict) else {}
    if isinstance(namespace, str) and namespace.startswith("mcp__"):
        return ToolCall(t, agent, call_id, name, "mcp", server=namespace[5:], tool=name)
    if name.startswith("mcp__"):
        server, tool = split_mcp(name)
        return ToolCall(t, agent, call_id, name, "mcp", server=server, tool=tool)
    if "__" in name:
        server, _, tool = name.partition("__")
        return ToolCall(t, agent, call_id, name, "mcp", server=server, tool=tool)
    workdir = inp.get(WORKDIR) if isinstance(inp.get(WORKDIR), str) else None
    here = join(base, workdir) if workdir else base
    builtin = TOOLS.get(name)
    kind = builtin.kind if builtin is not None else "tool"
    if kind == "exec":
        value = inp.get(EXEC_COMMAND[name])
        if value is None:
            value = inp.get(COMMAND, inp.get(CMD))
        return exec_call(name, value, call_id, t, agent, here, verb_of)
    if kind == "edit":
        call = ToolCall(t, agent, call_id, name, "edit")
        patch = args if isinstance(args, str) else next((inp[key] for key in PATCH_ARGS if key in inp), None)
        return patch_call(call, patch if isinstance(patch, str) else "", here)
    if kind == "read":
        call = ToolCall(t, agent, call_id, name, "read")
        for key in READ_TOOLS[name]:
            value = inp.get(key)
            if isinstance(value, str) and value:
                call.paths = (join(here, value),)
                break
        return call
    if kind == "search":
        return ToolCall(t, agent, call_id, name, "search")
    if kind == "subagent":
        call = ToolCall(t, agent, call_id, name, "subagent")
        type_key, model_key = SUBAGENT_ARGS[name]
        agent_type = inp.get(type_key)
        call.subagent_type = agent_type if isinstance(agent_type, str) and agent_type and len(agent_type) <= 100 \
            else "default"
        model = inp.get(model_key)
        if is_model_name(model):
            call.subagent_model = model
        return call
    if kind == "web":
        return ToolCall(t, agent, call_id, name, "web", host="search")
    return ToolCall(t, agent, call_id, name, "tool", waits_on_user=builtin is not None and builtin.waits_on_user)


def exec_call(name: str, value: object, call_id: str, t: float, agent: str, base: str | None,
              verb_of: Any) -> ToolCall:
    call = ToolCall(t, agent, call_id, name, "exec", cwd=base)
    argv = _argv(value)
    if argv is not None:
        call.argv = argv
        line = script_of(argv)
    else:
        line = value if isinstance(value, str) else ""
        call.command = line
        if base is not None and is_windows_path(base):
            call.shell = "powershell"  # Codex runs a string command through PowerShell on Windows
    if line and "apply_patch" in line[:200] and (
            _PATCH_LINE.match(line) or (argv is not None and argv[0] == PATCH_TOOL) or
            (verb_of is not None and verb_of(argv if argv is not None else line) == PATCH_TOOL)):
        call.name = PATCH_TOOL
        body = argv[1] if argv is not None and len(argv) == 2 else line
        return patch_call(call, body, _cd_base(line, base))
    return call


def shell_line(call: ToolCall) -> str:
    """The command line of a shell call, for the confirmations of `redact.build.outputs`."""
    if call.argv is not None:
        return script_of(call.argv)
    return call.command or ""


def output_text(raw: object) -> tuple[str, dict[str, Any], bool | None]:
    """(text, metadata, success) of a function_call_output's `output`: a JSON `{"output",
    "metadata"}` document in a string, a plain string, a list of content items, or the older
    `{"content", "success"}` object."""
    success: bool | None = None
    if isinstance(raw, dict):
        content = raw.get(OUT_CONTENT)
        success = raw.get(OUT_SUCCESS) if isinstance(raw.get(OUT_SUCCESS), bool) else None
        raw = content
    if isinstance(raw, list):
        parts = [item.get(OUT_TEXT) for item in raw if isinstance(item, dict)]
        return "\n".join(p for p in parts if isinstance(p, str)), {}, success
    if not isinstance(raw, str):
        return "", {}, success
    doc = parse_json_string(raw) if raw[:1] == "{" else None
    if isinstance(doc, dict) and isinstance(doc.get(OUT_OUTPUT), str):
        meta = doc.get(OUT_METADATA)
        return doc[OUT_OUTPUT], meta if isinstance(meta, dict) else {}, success
    return raw, {}, success


def error_class(text: str, name: str) -> str:
    """errClass of a failed Codex call, from the harness's own wording."""
    low = text[:400].lower()
    if name == PATCH_TOOL and ("verification failed" in low or low.startswith("error:") or
                               "failed to find" in low or "invalid hunk" in low):
        return "patch_failed"
    if low.startswith("aborted") or "interrupted" in low:
        return "interrupted"
    if "rejected by user" in low or "declined" in low:
        return "permission_denied"
    if "timed out" in low or "timeout" in low:
        return "timeout"
    if "sandbox" in low and ("denied" in low or "operation not permitted" in low):
        return "blocked"
    return wording.error_class(text, name)


def unified_state(raw: object) -> tuple[str | None, int | None]:
    """(session id of a process still running, exit code of a process that exited) from the header
    lines of an exec_command / write_stdin output (`Process running with session ID N`, `Process
    exited with code N`)."""
    text, meta, _ = output_text(raw)
    if meta:
        return None, None
    head = text[:_HEAD_CHARS]
    running = _RUNNING.search(head)
    exited = _EXIT.search(head)
    return (running.group(1) if running else None), (int(exited.group(1)) if exited else None)


def make_result(raw: object, call: ToolCall, t: float) -> ToolResult:
    """The ToolResult of `call` from its output (function_call_output / custom_tool_call_output)."""
    text, meta, success = output_text(raw)
    res = ToolResult(t, call.call_id, False, out_bytes=byte_len(text))
    exit_code = as_int(meta.get(OUT_EXIT_CODE))
    seconds = as_float(meta.get(OUT_DURATION))
    if exit_code is None or seconds is None:
        head = text[:_HEAD_CHARS]
        if exit_code is None and not meta:
            m = _EXIT.search(head)
            exit_code = int(m.group(1)) if m else None
        if seconds is None and not meta:
            m = _WALL.search(head)
            seconds = float(m.group(1)) if m else None
    if seconds is not None and seconds >= 0:
        res.dur = seconds * 1000.0
    res.exit_code = exit_code if call.kind in ("exec", "edit") else None
    low = text[:160].lower()
    if call.name in POLL_TOOLS:
        exit_code = None  # the exit code of the polled process is its exec_command call's (codex_calls)
    failed = success is False or (exit_code is not None and exit_code != 0)
    if not failed and exit_code is None:
        failed = low.startswith(("failed in sandbox", "exec_command failed", "error:", "err:", "aborted",
                                 "apply_patch verification failed", "exec command rejected"))
    if failed:
        res.is_error = True
        res.err_class = "exit_code" if exit_code not in (None, 0) and call.kind == "exec" \
            else error_class(text, call.name)
        if call.kind == "edit" and res.err_class in ("exit_code", "other", "validation", "not_found"):
            res.err_class = "patch_failed"
        if call.kind == "subagent" and res.err_class not in ("interrupted",):
            res.err_class = "subagent_failed"
    if call.kind == "exec":
        res.outputs = outputs.shell_outputs(shell_line(call), text, res.is_error)
    elif call.kind == "mcp":
        res.outputs = outputs.mcp_outputs(call.tool or "", text, res.is_error)
    return res


def web_call(p: dict[str, Any], call_id: str, t: float, agent: str) -> tuple[ToolCall, ToolResult]:
    """A web_search_call item: the call and its result at once (the item is written when done)."""
    action = p.get(WEB_ACTION)
    action = action if isinstance(action, dict) else {}
    host = "search" if action.get(WEB_ACTION_TYPE) in (None, "search") else host_of(action.get(WEB_URL))
    call = ToolCall(t, agent, call_id, WEB_TOOL, "web", host=host or "search")
    status = p.get(WEB_STATUS)
    failed = status in ("failed", "incomplete", "cancelled")
    res = ToolResult(t, call_id, failed, err_class="other" if failed else None)
    return call, res
