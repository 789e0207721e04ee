"""Codex's tool table: every built-in tool (`TOOLS`, the one list of them) with the event kind the
reader makes of a call, the arguments it reads and how each is classified, and the layouts the native
tree gives a function call's arguments and output (`native_table.py` builds on them). The atoms the
rest of the tree shares (an exit-code header line, a call id, a verb) are declared here too.
"""
from __future__ import annotations

from dataclasses import dataclass

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, RESULT, SHAPE, TOOL, VERB, ByType, JsonText, Many, Obj, Spec, Switch, const, enum, ident, lines, obj, used,
)

#: The header lines Codex writes before a command's output; the only lines a text output keeps.
OUTPUT_LINES = lines(r"Exit code: -?\d{1,5}", r"Wall time: \d{1,9}(?:\.\d{1,9})? seconds",
                     r"Process exited with code -?\d{1,5}")
#: A patch in Codex's apply_patch grammar keeps its frame and its file headers only.
PATCH = lines(r"\*\*\* Begin Patch", r"\*\*\* End Patch",
              r"\*\*\* (?:Add|Update|Delete) File: ?(?P<path>.+)", r"\*\*\* Move to: ?(?P<path>.+)")

_PATCH_READ = used("file header paths and ops only", PATCH)
STATUS = enum("completed", "in_progress", "incomplete", "failed", "cancelled", "searching", "declined")
PLAN = Many(obj(status=enum("pending", "in_progress", "completed"), step=DROP))
#: Codex's closed `codex_error_info` -> errClass of the error event (`events.error_class`).
PAIRS = used("pairs call and result", ID)
SHELL_VERB = used("verb (verb engine)", VERB)
#: A shell tool's command under the other spelling (`cmd` / `command`): read when its own is absent.
_OTHER_VERB = used("verb (verb engine), when the tool's own command field is absent", VERB)

# -- tools -----------------------------------------------------------------------------------------
_EXEC: dict[str, Spec] = {
    "workdir": used("the working directory relative paths start from", CWD), "timeout": NUMBER, "timeout_ms": NUMBER, "with_escalated_permissions": BOOL,
    "sandbox_permissions": enum("use_default", "require_escalated"), "justification": DROP, "prefix_rule": DROP,
    "login": BOOL, "tty": BOOL, "yield_time_ms": NUMBER, "max_output_tokens": NUMBER,
    "shell": enum("bash", "zsh", "sh", "powershell", "pwsh", "cmd"),
}


@dataclass(frozen=True)
class Tool:
    """A built-in tool, the format's one tool table (`TOOLS`): the event kind the reader makes of a
    call (`tools.make_call`), the arguments it reads, each by what it reads there, and the others that
    stay. The tree's layout of the tool's arguments (`layout`), the reader's argument keys (keys.py)
    and the docs' tool table (`table.markdown`) are all read off it.

    `args` None: the tree does not close the tool's name; every argument of its calls is content."""

    kind: str
    doc: str = "-"  # the docs' "arguments read", for what the roles below do not say
    args: dict[str, Spec] | None = None  # the other arguments that stay
    command: str = ""  # exec: the argument holding the command (the other spelling read when absent)
    argv: bool = False  # exec: that command is an argv array (else a string)
    paths: tuple[str, ...] = ()  # read: the path arguments, the first one present read
    patch: tuple[str, ...] = ()  # edit: the arguments holding the patch, the first one present read
    subagent: tuple[str, str] | None = None  # subagent: (the agent type's argument, the model's)
    session: str = ""  # the argument naming the running process a call polls (its exit code is not its own)
    waits_on_user: bool = False  # the call's duration is the user's (a question, a permission request)

    #: The role each event kind's reader needs (`tools.make_call`): a tool of that kind without it fails the import.
    _NEEDS = {"exec": "command", "read": "paths", "edit": "patch", "subagent": "subagent"}

    def __post_init__(self) -> None:
        need = self._NEEDS.get(self.kind)
        if need is not None and not getattr(self, need):
            raise ValueError(f"a {self.kind} tool names its `{need}` argument(s)")
        if need is not None and self.args is None:
            raise ValueError(f"a {self.kind} tool's arguments are read: the tree must close its name (args)")

    def layout(self) -> dict[str, Spec] | None:
        """The arguments that stay in the native tree, those the reader reads first."""
        if self.args is None:
            return None
        out: dict[str, Spec] = {}
        if self.command:
            other = "cmd" if self.command == "command" else "command"
            out |= {self.command: SHELL_VERB, other: _OTHER_VERB, **_EXEC}
        out |= {name: used("read target", PATH) for name in self.paths}
        out |= {name: _PATCH_READ for name in self.patch}
        if self.subagent:
            out |= {self.subagent[0]: used("subagentType", ident("subagent_type")),
                    self.subagent[1]: used("model", ident("model"))}
        if self.session:
            out[self.session] = NUMBER
        return out | self.args

    def reads(self) -> str:
        """What the reader reads of the arguments, for the docs' tool table."""
        if self.command:
            return f"`{self.command}` ({'argv array' if self.argv else 'string'}) -> verb"
        if self.paths:
            return " / ".join(f"`{name}`" for name in self.paths)
        if self.subagent:
            return f"`{self.subagent[0]}` (ident:subagent_type), `{self.subagent[1]}` (ident:model)"
        return self.doc


def _shell(command: str, *, argv: bool) -> Tool:
    return Tool("exec", args={}, command=command, argv=argv)


#: The tool a `local_shell_call` item calls (with no arguments of its own: its `action`).
LOCAL_SHELL = "local_shell"
_ASKS = Tool("tool", waits_on_user=True)  # a question to the user
_SUBAGENT_OTHER = Tool("tool")  # a subagent tool other than spawn_agent: a plain tool
#: Built-in tools by name (the one tool table). A name not here is a tool (kind `tool`), or MCP's
#: (`mcp__<server>__<tool>`, `<server>__<tool>`, or a `namespace` `mcp__<server>`).
TOOLS: dict[str, Tool] = {
    "shell": _shell("command", argv=True),
    "container.exec": _shell("cmd", argv=True),
    LOCAL_SHELL: _shell("command", argv=True),
    "shell_command": _shell("command", argv=False),
    "exec_command": _shell("cmd", argv=False),
    "apply_patch": Tool("edit", "the patch: `*** Add/Update/Delete File:` (and `*** Move to:`) paths only",
                        args={}, patch=("input", "patch")),
    "view_image": Tool("read", args={}, paths=("path",)),
    "read_file": Tool("read", args={"offset": NUMBER, "limit": NUMBER}, paths=("file_path", "path")),
    "list_dir": Tool("search", args={"offset": NUMBER, "limit": NUMBER, "depth": NUMBER}),
    "grep_files": Tool("search", args={"limit": NUMBER}),
    "spawn_agent": Tool("subagent", args={"message": DROP}, subagent=("agent_type", "model")),
    "send_input": _SUBAGENT_OTHER, "wait": _SUBAGENT_OTHER, "wait_agent": _SUBAGENT_OTHER,
    "close_agent": _SUBAGENT_OTHER, "resume_agent": _SUBAGENT_OTHER,
    "update_plan": Tool("tool", args={"plan": PLAN, "explanation": DROP}),
    "write_stdin": Tool("tool", "- (`session_id`: the exec_command call it polls, whose exit code is that call's)",
                        args={"chars": DROP, "yield_time_ms": NUMBER, "max_output_tokens": NUMBER},
                        session="session_id"),
    "web_search": Tool("web", "- (host: `search`)", args={}),
    "request_permissions": Tool("tool", "- (reason and permission profile never read)",
                                args={"scope": enum("turn", "session"), "reason": DROP, "permissions": DROP},
                                waits_on_user=True),
    "request_user_input": _ASKS, "ask_user_question": _ASKS,
}
#: The arguments that stay of the tools whose name the tree closes; every other argument is content.
ARGUMENTS: dict[str, dict[str, Spec]] = {
    name: layout for name, tool in TOOLS.items() if (layout := tool.layout()) is not None}


def tool_named(kind: str) -> str:
    """The one built-in tool of event kind `kind` (apply_patch: edit, web_search: web)."""
    (name,) = (name for name, tool in TOOLS.items() if tool.kind == kind)
    return name


PATCH_TOOL, WEB_TOOL = tool_named("edit"), tool_named("web")

OUTPUT = JsonText(obj(output=RESULT, metadata=obj(exit_code=NUMBER, duration_seconds=NUMBER),
                      agent_id=used("the spawned agent's thread (spawn_agent)", DROP)), text=OUTPUT_LINES)
_OUTPUT_USE = ("byte count; metadata.exit_code, metadata.duration_seconds; the header lines `Exit code: N`, "
               "`Process exited with code N`, `Wall time: X seconds`; errClass from the harness's wording; "
               "confirmations (outputs.py)")
OUTPUT_FIELD = used(_OUTPUT_USE, ByType(
    text=OUTPUT,
    obj=obj(content=ByType(text=OUTPUT, items=Many(obj(type=enum("input_text", "output_text", "text"),
                                                       text=SHAPE))), success=BOOL),
    items=Many(Switch("type", {
        "input_text": obj(type=const("input_text"), text=SHAPE),
        "output_text": obj(type=const("output_text"), text=SHAPE),
        "input_image": obj(type=const("input_image"), image_url=DROP, detail=enum("auto", "low", "high")),
    })),
))
_ARGUMENTS_USE = ("see the tool table; every other argument (justification, workdir, timeouts, chars, plan, "
                  "message...) is never read")
_NAME_USE = "event kind (the tool table); tool, mcp server/tool"


def reads(layouts: dict[str, Spec], what: dict[str, str]) -> dict[str, Spec]:
    """`layouts` with what the reader makes of each type it maps (`use` on its node)."""
    assert set(what) <= set(layouts)
    return {kind: used(what[kind], node) if kind in what else node for kind, node in layouts.items()}


def function_call(extra: dict[str, Spec]) -> Spec:
    """A call of a built-in tool keeps its (closed) name; any other name is an identifier."""
    return Switch("name", {
        name: Obj({**extra, "name": used(_NAME_USE, const(name)),
                   "arguments": used(_ARGUMENTS_USE, JsonText(Obj(args | {"workdir": args.get("workdir", _WORKDIR)})))})
        for name, args in ARGUMENTS.items()
    }, default=Obj({**extra, "name": used(_NAME_USE, TOOL),
                    "arguments": used(_ARGUMENTS_USE, JsonText(obj(workdir=_WORKDIR)))}))


#: The reader reads any call's `workdir` (relative paths start there); only a shell call writes it.
_WORKDIR = used("the working directory relative paths start from (read, not written)", DROP)


CALL_ENVELOPE: dict[str, Spec] = {"type": const("function_call"), "id": PAIRS, "call_id": PAIRS,
                                   "namespace": used("the MCP server", ident("mcp_server")), "status": STATUS}
#: A custom tool call's `namespace`: the reader reads it as a function call's; not written here (yet).
_CUSTOM_NAMESPACE = used("the MCP server", DROP)
CUSTOM_TOOL_CALL = Switch("name", {
    PATCH_TOOL: obj(type=const("custom_tool_call"), id=PAIRS, call_id=PAIRS,
                   name=used(_NAME_USE, const(PATCH_TOOL)), input=_PATCH_READ, status=STATUS,
                   namespace=_CUSTOM_NAMESPACE),
}, default=obj(type=const("custom_tool_call"), id=PAIRS, call_id=PAIRS, name=used(_NAME_USE, TOOL), input=DROP,
               status=STATUS,
               namespace=_CUSTOM_NAMESPACE))
