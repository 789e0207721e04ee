"""Tool names -> event kinds, for the formats whose tools are the harness's own (session-record
streams, teaagent, Agent Replay): one table instead of a guess per reader.

A tool's name is an identifier (`ident:tool`); its input is a blob of which only the fields named
here are read: `PATH_KEYS` for file tools (a path), `COMMAND_KEYS` for shell tools (a command, for
the verb engine), `URL_KEYS` for fetches (host only), `SUBAGENT_KEYS` for agent launches (an
identifier). Every other input field is content and never read. Names compare case-insensitively,
with `-` and ` ` read as `_`; MCP tools (`mcp__<server>__<tool>`) are recognised by their prefix.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redact.build.facts import ToolCall

#: normalised name -> (event kind, file op of an edit or None)
KINDS: dict[str, tuple[str, str | None]] = {}
for _names, _kind, _op in (
    (("read", "read_file", "readfile", "view", "view_file", "cat", "open_file", "notebookread",
      "read_many_files", "view_image"), "read", None),
    (("write", "write_file", "writefile", "create_file"), "edit", None),
    (("edit", "edit_file", "editfile", "multiedit", "str_replace", "str_replace_editor",
      "str_replace_based_edit_tool", "replace", "apply_patch", "patch", "patch_file", "notebookedit",
      "insert", "update_file"), "edit", "modify"),
    (("delete", "delete_file", "remove_file", "rm_file"), "edit", "delete"),
    (("grep", "glob", "ls", "list", "list_dir", "list_directory", "list_files", "find", "find_files",
      "search", "search_files", "grep_files", "codebase_search", "file_search", "ripgrep"),
     "search", None),
    (("bash", "shell", "shell_exec", "exec", "execute", "run", "run_command", "run_shell_command",
      "terminal", "run_terminal_cmd", "execute_command", "command", "exec_command", "powershell"),
     "exec", None),
    (("webfetch", "web_fetch", "fetch", "fetch_url", "http_get", "browse", "open_url"), "web", None),
    (("websearch", "web_search", "search_web", "google_search"), "web-search", None),
    (("task", "agent", "subagent", "spawn_agent", "delegate", "run_agent"), "subagent", None),
    (("skill",), "skill", None),
):
    for _name in _names:
        KINDS[_name] = (_kind, _op)

#: Claude Code's tool names that no plain spelling of the table above gives (`LS`, not `Ls`), which
#: session-record streams, teaagent logs and Agent Replay traces reuse. A test keeps it equal to the
#: names of Claude Code's own table that normalise to a name above (tests/formats/test_registry.py).
HARNESS_SPELLINGS = ("LS", "MultiEdit", "NotebookEdit", "NotebookRead")
PATH_KEYS = ("file_path", "path", "filepath", "filename", "notebook_path", "target_file", "file")
COMMAND_KEYS = ("command", "cmd", "script")
URL_KEYS = ("url", "uri")
SUBAGENT_KEYS = ("subagent_type", "agent_type", "agent")
SKILL_KEYS = ("skill", "name")


def normalise(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def kind_of(name: str) -> tuple[str, str | None]:
    """(event kind, edit op) of a tool name; `tool` when the name is not in the table."""
    return KINDS.get(normalise(name), ("tool", None))


def split_mcp(name: str) -> tuple[str, str]:
    """`mcp__server__tool_name` -> (server, tool); the server ends at the first `__`."""
    rest = name[5:]
    server, sep, tool = rest.partition("__")
    return (server, tool) if sep else (rest, "")


def first_str(inp: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = inp.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def make_call(name: str, inp: object, call_id: str, t: float, agent: str, *,
              kind_hint: str | None = None, command: object = None) -> ToolCall:
    """The ToolCall of tool `name` with input `inp` (a dict, or anything else: then nothing is read).

    `kind_hint` is an event kind the log states itself (a session-record `kind`); `command` is a
    command the log gives outside the input (a session-record result's `exec.command`)."""
    # imported here: the table above is read by the native tables (and so by the scanner's native
    # proof), which must not load the readers (tests/test_boundaries.py)
    from redact.build.facts import ToolCall
    from redact.formats.common import host_of

    args: dict[str, Any] = inp if isinstance(inp, dict) else {}
    if name.startswith("mcp__"):
        server, tool = split_mcp(name)
        return ToolCall(t, agent, call_id, name, "mcp", server=server, tool=tool)
    kind, op = kind_of(name)
    if kind_hint is not None and kind == "tool":
        kind = kind_hint
    if kind == "web-search":
        return ToolCall(t, agent, call_id, name, "web", host="search")
    call = ToolCall(t, agent, call_id, name, kind)  # type: ignore[arg-type]
    if kind in ("read", "edit"):
        path = first_str(args, PATH_KEYS)
        if path is not None:
            call.paths = (path,)
        call.op = op
    elif kind == "exec":
        cmd = command if isinstance(command, (str, list)) else args.get(next(
            (k for k in COMMAND_KEYS if k in args), "command"))
        if isinstance(cmd, list) and cmd and all(isinstance(w, str) for w in cmd):
            call.argv = tuple(cmd)
        else:
            call.command = cmd if isinstance(cmd, str) else ""
    elif kind == "web":
        url = first_str(args, URL_KEYS)
        call.host = host_of(url) if url else None
    elif kind == "subagent":
        sub = first_str(args, SUBAGENT_KEYS)
        call.subagent_type = sub if sub is not None and len(sub) <= 100 and " " not in sub else None
    elif kind == "skill":
        skill = first_str(args, SKILL_KEYS)
        call.skill = skill if skill is not None and len(skill) <= 100 and " " not in skill else None
    return call


def alias_markdown(aliases: dict[str, str], anything_else: str | None, note: str = "") -> list[str]:
    """A format's tool aliases onto this table as a Markdown table for docs/formats.md: one row per
    alias (`note` after each), then the row for any other name (`anything_else`) when given."""
    lines = ["| tool | read as |", "|---|---|"]
    lines += [f"| `{name}` | `{alias}`{note} |" for name, alias in aliases.items()]
    if anything_else is not None:
        lines.append(f"| {anything_else} |")
    return lines
