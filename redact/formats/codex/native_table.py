"""Codex CLI rollouts under `--to native`: what every field of every record becomes.

The format's one table: the record, response item and event types (and whether the reader maps
each) are read off it, and the reader names every key it reads by its place here (`keys.py`), the
arguments of the tools included. All three layouts are covered: `{"timestamp", "type", "payload"}`
lines; the August-2025 lines (a bare header, bare response items, `{"record_type": "state"}`); the
single-JSON `.json` rollout (`{"session", "items"}`, chat-completions items).

JSON held in strings (`arguments`, `output`) is parsed, scrubbed by its own node and written back as
compact JSON text. An output that is plain text keeps only the harness's header lines (`Exit code: N`,
`Wall time: X seconds`, `Process exited with code N`); an apply_patch input keeps only its file
headers, with each path in the path mode. A shell command becomes its verb, as an argv list when the
harness wrote an argv list.
"""
from __future__ import annotations

from dataclasses import dataclass

from redact.native.spec import (
    BOOL, BRANCH, CWD, DROP, ID, NUMBER, PATH, RESULT, SHAPE, TIMESTAMP, TOOL, URL_HOST, VERB, VERSION,
    ByType, JsonText, Many, Obj, Spec, Switch, Table, const, enum, handling, ident, lines, obj, used,
)

FORMAT = "codex"

#: The header lines Codex writes before a command's output; the only lines a text output keeps.
OUTPUT_LINES = lines(r"Exit code: -?\d{1,5}", r"Wall time: \d{1,9}(?:\.\d{1,9})? seconds",
                     r"Process exited with code -?\d{1,5}")
#: A patch in Codex's apply_patch grammar keeps its frame and its file headers only.
PATCH = lines(r"\*\*\* Begin Patch", r"\*\*\* End Patch",
              r"\*\*\* (?:Add|Update|Delete) File: ?(?P<path>.+)", r"\*\*\* Move to: ?(?P<path>.+)")

_PATCH_READ = used("file header paths and ops only", PATCH)
_STATUS = enum("completed", "in_progress", "incomplete", "failed", "cancelled", "searching", "declined")
_EFFORT = enum("minimal", "low", "medium", "high", "xhigh", "none")
_PLAN = Many(obj(status=enum("pending", "in_progress", "completed"), step=DROP))
#: Codex's closed `codex_error_info` -> errClass of the error event (`events.error_class`).
ERROR_CLASSES: dict[str, str] = {
    "context_window_exceeded": "bad_request", "usage_limit_exceeded": "usage_limit",
    "internal_server_error": "server_error", "unauthorized": "auth", "bad_request": "bad_request",
    "http_connection_failed": "api_error", "response_stream_connection_failed": "api_error",
    "response_stream_disconnected": "api_error", "response_too_many_failed_attempts": "api_error",
    "sandbox_error": "api_error", "server_overloaded": "overloaded", "other": "api_error",
}
ERROR_INFO = used("errClass", ByType(text=enum(*ERROR_CLASSES),
                                     obj=Obj({k: obj(http_status_code=NUMBER) for k in ERROR_CLASSES})))
#: A guardian (automatic reviewer) verdict -> (failed, errClass). `in_progress` is not a verdict.
GUARDIAN_VERDICTS: dict[str, tuple[bool, str | None]] = {
    "approved": (False, None), "denied": (True, "blocked"), "timed_out": (True, "timeout"),
    "aborted": (True, "interrupted"),
}
_PAIRS = used("pairs call and result", ID)
_VERB = used("verb (verb engine)", VERB)
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
            out |= {self.command: _VERB, other: _OTHER_VERB, **_EXEC}
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
    "update_plan": Tool("tool", args={"plan": _PLAN, "explanation": DROP}),
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


def _reads(layouts: dict[str, Spec], what: dict[str, str]) -> dict[str, Spec]:
    """`layouts` with what the reader makes of each type it maps (`use` on its node)."""
    assert set(what) <= set(layouts)
    return {kind: used(what[kind], node) if kind in what else node for kind, node in layouts.items()}


def _function_call(extra: dict[str, Spec]) -> Spec:
    """A call of a built-in tool keeps its (closed) name; any other name is an identifier."""
    return Switch("name", {
        name: Obj({**extra, "name": used(_NAME_USE, const(name)),
                   "arguments": used(_ARGUMENTS_USE, JsonText(Obj(args | {"workdir": args.get("workdir", _WORKDIR)})))})
        for name, args in ARGUMENTS.items()
    }, default=Obj({**extra, "name": used(_NAME_USE, TOOL),
                    "arguments": used(_ARGUMENTS_USE, JsonText(obj(workdir=_WORKDIR)))}))


#: The reader reads any call's `workdir` (relative paths start there); only a shell call writes it.
_WORKDIR = used("the working directory relative paths start from (read, not written)", DROP)


_CALL_ENVELOPE: dict[str, Spec] = {"type": const("function_call"), "id": _PAIRS, "call_id": _PAIRS,
                                   "namespace": used("the MCP server", ident("mcp_server")), "status": _STATUS}
#: A custom tool call's `namespace`: the reader reads it as a function call's; not written here (yet).
_CUSTOM_NAMESPACE = used("the MCP server", DROP)
CUSTOM_TOOL_CALL = Switch("name", {
    PATCH_TOOL: obj(type=const("custom_tool_call"), id=_PAIRS, call_id=_PAIRS,
                   name=used(_NAME_USE, const(PATCH_TOOL)), input=_PATCH_READ, status=_STATUS,
                   namespace=_CUSTOM_NAMESPACE),
}, default=obj(type=const("custom_tool_call"), id=_PAIRS, call_id=_PAIRS, name=used(_NAME_USE, TOOL), input=DROP,
               status=_STATUS,
               namespace=_CUSTOM_NAMESPACE))

# -- response items --------------------------------------------------------------------------------
_TEXT = used("length only (chars, textChars); the August-2025 layout: the <environment_context> cwd is the "
             "root when nothing else names one", SHAPE)
_CONTENT = ByType(text=_TEXT, items=Many(Switch("type", {
    "input_text": obj(type=const("input_text"), text=_TEXT),
    "output_text": obj(type=const("output_text"), text=_TEXT, annotations=DROP, logprobs=DROP),
    "input_image": used("count only (images)", obj(type=const("input_image"), image_url=DROP,
                                                   detail=enum("auto", "low", "high"))),
    "refusal": obj(type=const("refusal"), refusal=SHAPE),
    "text": obj(type=const("text"), text=SHAPE),
})))
RESPONSE_ITEMS: dict[str, Spec] = {
    "message": obj(type=const("message"), id=ID, role=used("user / assistant / developer", enum(
        "user", "assistant", "developer", "system")),
                   content=_CONTENT, phase=enum("commentary", "final_answer"), end_turn=BOOL, status=_STATUS),
    "reasoning": used("presence only (thinking)", obj(type=const("reasoning"), id=ID, summary=Many(obj(type=enum("summary_text"), text=SHAPE)),
                     content=ByType(text=SHAPE, items=Many(obj(type=enum("reasoning_text", "text"), text=SHAPE))),
                     encrypted_content=DROP)),
    "function_call": _function_call(_CALL_ENVELOPE),
    "function_call_output": obj(type=const("function_call_output"), call_id=_PAIRS, output=OUTPUT_FIELD),
    "custom_tool_call": CUSTOM_TOOL_CALL,
    "custom_tool_call_output": obj(type=const("custom_tool_call_output"), call_id=_PAIRS, output=OUTPUT_FIELD),
    "local_shell_call": obj(type=const("local_shell_call"), id=_PAIRS, call_id=_PAIRS, status=_STATUS, action=obj(
        type=enum("exec"), command=_VERB, timeout_ms=NUMBER, working_directory=CWD, env=DROP, user=DROP)),
    "web_search_call": obj(type=const("web_search_call"), id=ID, status=used("err when failed", _STATUS), action=obj(
        type=enum("search", "open_page", "find_in_page"), query=DROP, queries=DROP, url=used("host only", URL_HOST), pattern=DROP,
        sources=DROP)),
    "compaction": obj(type=const("compaction"), id=ID, encrypted_content=DROP),
    "compaction_summary": obj(type=const("compaction_summary"), id=ID, encrypted_content=DROP, summary=DROP),
    "ghost_snapshot": obj(type=const("ghost_snapshot"), ghost_commit=DROP),
    "tool_search_call": obj(type=const("tool_search_call"), id=ID, call_id=_PAIRS, status=_STATUS,
                            execution=enum("client", "server"), arguments=DROP),
    "tool_search_output": obj(type=const("tool_search_output"), call_id=_PAIRS, status=used("err when failed", _STATUS),
                              execution=used("a client-side search is the input of a new request",
                                             enum("client", "server")), tools=DROP),
}

#: What the reader makes of each response item it maps (the others are skipped, counted by name).
RESPONSE_ITEMS = _reads(RESPONSE_ITEMS, {
    "message": "user: a prompt when no user_message events exist; assistant: textChars",
    "reasoning": "thinking: true (presence only)",
    "function_call": "a tool call (see the tool table); arguments is JSON inside a string",
    "function_call_output": "its result: exit code, duration, byte count, confirmations",
    "custom_tool_call": "apply_patch (edit targets from the patch's file headers), others",
    "custom_tool_call_output": "its result",
    "local_shell_call": "exec (argv)",
    "web_search_call": "web (host: search, or the page's host)",
    "tool_search_call": "tool (`tool_search`): the model searching loadable tools",
    "tool_search_output": "its result (failed or not), paired by call_id",
    "compaction": "-> compaction",
    "compaction_summary": "-> compaction",
    # ghost_snapshot: the harness's own undo snapshot commit, not the session's work
})
#: Response item types: "mapped" (read for facts) or "skipped".
RESPONSE_ITEM_TYPES: dict[str, str] = handling(Switch("type", RESPONSE_ITEMS))

# -- events ----------------------------------------------------------------------------------------
TOKENS = obj(input_tokens=used("in (input - cached)", NUMBER), cached_input_tokens=used("cr (cached)", NUMBER),
             output_tokens=used("out", NUMBER), reasoning_output_tokens=NUMBER, total_tokens=NUMBER)
_TOTALS = used("repeat detection; usage when last_token_usage is absent", obj(
    input_tokens=NUMBER, cached_input_tokens=NUMBER, output_tokens=NUMBER, reasoning_output_tokens=NUMBER,
    total_tokens=NUMBER))
_WINDOW = obj(used_percent=NUMBER, window_minutes=NUMBER, resets_at=NUMBER, resets_in_seconds=NUMBER)
_INVOCATION = obj(server=used("server", ident("mcp_server")), tool=used("tool", ident("mcp_tool")), arguments=DROP)
_DURATION = ByType(obj=obj(secs=NUMBER, nanos=NUMBER), scalar=NUMBER)
_IMAGES = used("count only (images)", DROP)


def event(event_type: str, **fields: Spec) -> Obj:
    return Obj({"type": const(event_type), **fields})


EVENT_MSGS: dict[str, Spec] = {
    "user_message": event("user_message", message=used("length and URL count (chars, urls)", SHAPE),
                          kind=enum("plain"), images=_IMAGES, local_images=_IMAGES,
                          text_elements=DROP),
    "token_count": event("token_count", info=obj(last_token_usage=TOKENS, total_token_usage=_TOTALS,
                                                 model_context_window=NUMBER),
                         rate_limits=obj(primary=_WINDOW, secondary=_WINDOW, credits=obj(
                             has_credits=BOOL, unlimited=BOOL, balance=DROP),
                             plan_type=enum("free", "plus", "pro", "team", "business", "enterprise", "edu"),
                             limit_id=DROP, limit_name=DROP)),
    "exec_command_end": event("exec_command_end", call_id=_PAIRS, turn_id=ID, process_id=ID,
                              exit_code=used("exitCode", NUMBER), duration=used("dur", _DURATION), command=VERB, cwd=CWD, parsed_cmd=DROP, stdout=SHAPE,
                              stderr=SHAPE, aggregated_output=SHAPE, formatted_output=SHAPE,
                              source=enum("agent", "user_shell", "unified_exec_startup", "unified_exec_interaction"),
                              status=enum("completed", "failed", "declined")),
    "patch_apply_end": event("patch_apply_end", call_id=_PAIRS, turn_id=ID, success=used("err", BOOL), stdout=SHAPE, stderr=SHAPE,
                             changes=DROP, status=enum("completed", "failed", "declined")),
    "mcp_tool_call_end": event("mcp_tool_call_end", call_id=_PAIRS, invocation=_INVOCATION, duration=_DURATION,
                               result=used("error or not only", obj(Ok=obj(isError=BOOL, is_error=used("error or not", DROP), content=DROP,
                                                 structuredContent=DROP), Err=SHAPE))),
    "collab_agent_spawn_end": event("collab_agent_spawn_end", call_id=ID, sender_thread_id=ID, new_thread_id=ID,
                                    new_agent_role=used("subagentType", ident("subagent_type")),
                                    model=used("model", ident("model")),
                                    status=used("subagent_failed when errored", ByType(text=enum("pending_init", "running", "completed", "errored",
                                                            "shutdown", "not_found"))),
                                    prompt=DROP, new_agent_nickname=DROP),
    "guardian_assessment": event("guardian_assessment", id=ID, target_item_id=ID, turn_id=ID,
                                 started_at_ms=used("dur", NUMBER), completed_at_ms=used("dur", NUMBER),
                                 status=used("approved / blocked / timeout / interrupted", enum(
                                     "in_progress", *GUARDIAN_VERDICTS)),
                                 risk_level=enum("low", "medium", "high", "critical"),
                                 user_authorization=DROP, decision_source=DROP, rationale=DROP, action=DROP),
    "request_permissions": event("request_permissions", call_id=ID, turn_id=ID, reason=DROP, permissions=DROP,
                                 suggested_scope=enum("turn", "session")),
    "turn_aborted": event("turn_aborted", reason=used("interrupted", enum("interrupted", "replaced", "review_ended")),
                          turn_id=ID),
    "error": event("error", message=used("errClass only", SHAPE), codex_error_info=ERROR_INFO),
    "stream_error": event("stream_error", message=used("errClass only", SHAPE), codex_error_info=ERROR_INFO,
                          additional_details=DROP),
    "context_compacted": event("context_compacted"),
    "agent_message": event("agent_message", message=SHAPE, phase=enum("commentary", "final_answer"),
                           memory_citation=DROP),
    "agent_reasoning": event("agent_reasoning", text=SHAPE),
    "agent_reasoning_raw_content": event("agent_reasoning_raw_content", text=SHAPE),
    "agent_reasoning_section_break": event("agent_reasoning_section_break", item_id=ID, summary_index=NUMBER),
    "task_started": event("task_started", turn_id=ID, model_context_window=NUMBER,
                          collaboration_mode_kind=enum("default", "plan", "execute", "pair_programming")),
    "task_complete": event("task_complete", turn_id=ID, last_agent_message=SHAPE),
    "exec_command_begin": event("exec_command_begin", call_id=ID, turn_id=ID, process_id=ID, command=VERB,
                                cwd=CWD, parsed_cmd=DROP,
                                source=enum("agent", "user_shell", "unified_exec_startup",
                                            "unified_exec_interaction")),
    "exec_command_output_delta": event("exec_command_output_delta", call_id=ID, stream=enum("stdout", "stderr"),
                                       chunk=DROP),
    "terminal_interaction": event("terminal_interaction", call_id=ID, process_id=ID, stdin=DROP),
    "patch_apply_begin": event("patch_apply_begin", call_id=ID, turn_id=ID, auto_approved=BOOL, changes=DROP),
    "mcp_tool_call_begin": event("mcp_tool_call_begin", call_id=ID, invocation=_INVOCATION),
    "web_search_begin": event("web_search_begin", call_id=ID),
    "web_search_end": event("web_search_end", call_id=ID, query=DROP, action=DROP),
    "view_image_tool_call": event("view_image_tool_call", call_id=ID, path=PATH),
    "plan_update": event("plan_update", plan=_PLAN, explanation=DROP),
    "turn_diff": event("turn_diff", unified_diff=DROP),
    "warning": event("warning", message=SHAPE),
    **{kind: event(kind, call_id=ID, sender_thread_id=ID, receiver_thread_id=ID, new_thread_id=ID, prompt=DROP,
                   status=DROP)
       for kind in ("collab_agent_spawn_begin", "collab_agent_interaction_begin", "collab_agent_interaction_end",
                    "collab_waiting_begin", "collab_waiting_end", "collab_close_begin", "collab_close_end")},
    "entered_review_mode": event("entered_review_mode", target=DROP, user_facing_hint=DROP),
    "exited_review_mode": event("exited_review_mode", review_output=DROP),
}

#: What the reader makes of each event it maps. Events that repeat a response item are skipped
#: (agent_message, web_search_end, plan_update, ...), so nothing is counted twice.
EVENT_MSGS = _reads(EVENT_MSGS, {
    "user_message": "the prompt (shape only): the source of user turns when present",
    "token_count": "usage of one model request (repeats of the same total are ignored)",
    "exec_command_end": "exit code and duration of a shell call",
    "patch_apply_end": "success of apply_patch",
    "mcp_tool_call_end": "MCP server and tool, success, duration",
    "collab_agent_spawn_end": "the spawned agent's role, model and status",
    "guardian_assessment": "-> tool `guardian_assessment`: approved, or blocked (err)",
    "turn_aborted": "-> error (orchestration, interrupted)",
    "error": "-> error (llm)",
    "stream_error": "-> error (llm), retried",
    "context_compacted": "-> compaction (merged with an adjacent compacted record)",
})
#: Event types: "mapped" (read for facts) or "skipped".
EVENT_MSG_TYPES: dict[str, str] = handling(Switch("type", EVENT_MSGS))

# -- records ---------------------------------------------------------------------------------------
GIT = obj(commit_hash=ID, branch=BRANCH, repository_url=used("repos[].remote", ident("remote")))
_SESSION_ID = used("session.id", ID)
SESSION_META = obj(
    id=_SESSION_ID, timestamp=used("startedAt of an empty session", TIMESTAMP),
    cwd=used("repository root (never written)", CWD), cli_version=VERSION, instructions=DROP, base_instructions=DROP,
    originator=enum("codex_cli_rs", "codex-tui", "codex_vscode", "codex_exec", "codex_sdk_ts", "codex_mcp"),
    model_provider=enum("openai", "azure", "ollama", "lmstudio", "openrouter", "anthropic", "gemini", "mistral"),
    source=used("role: a thread_spawn subagent, or a helper (review, compact)", ByType(
        text=enum("cli", "vscode", "exec", "mcp", "unknown"), obj=obj(
        subagent=ByType(text=enum("review", "compact", "other"), obj=obj(
            thread_spawn=obj(parent_thread_id=used("parentSessionId", ID), depth=NUMBER,
                             agent_role=ident("subagent_type"), agent_nickname=DROP)))))),
    git=GIT, forked_from_id=ID, dynamic_tools=DROP, agent_nickname=DROP, agent_role=ident("subagent_type"),
)
TURN_CONTEXT = obj(
    turn_id=ID, cwd=used("working directory of relative paths; the root when session_meta has none", CWD),
    model=used("the model of later requests", ident("model")), effort=_EFFORT, summary=enum("auto", "concise", "detailed", "none"),
    approval_policy=enum("untrusted", "on-failure", "on-request", "never"),
    sandbox_policy=obj(type=enum("workspace-write", "read-only", "danger-full-access", "external-sandbox"),
                       network_access=BOOL, exclude_tmpdir_env_var=BOOL, exclude_slash_tmp=BOOL,
                       writable_roots=Many(PATH)),
    personality=enum("pragmatic", "friendly", "none"),
    truncation_policy=obj(mode=enum("tokens", "bytes"), limit=NUMBER),
    collaboration_mode=obj(mode=enum("default", "plan", "execute", "pair_programming"), settings=obj(
        model=ident("model"), reasoning_effort=_EFFORT, developer_instructions=DROP)),
    user_instructions=DROP, developer_instructions=DROP, base_instructions=DROP, current_date=DROP, timezone=DROP,
    realtime_active=BOOL, final_output_json_schema=DROP,
)


def _line(kind: str, payload: Spec) -> Obj:
    return Obj({"timestamp": used("event times", TIMESTAMP), "type": const(kind), "payload": payload})


#: The `{"timestamp", "type", "payload"}` lines, and what the reader makes of each.
LINES: dict[str, Spec] = _reads({
    "session_meta": _line("session_meta", SESSION_META),
    "turn_context": _line("turn_context", TURN_CONTEXT),
    "response_item": _line("response_item", used("RESPONSE_ITEMS", Switch("type", RESPONSE_ITEMS))),
    "event_msg": _line("event_msg", used("EVENT_MSGS", Switch("type", EVENT_MSGS))),
    "compacted": _line("compacted", obj(message=SHAPE, replacement_history=DROP)),
}, {
    "session_meta": "session id, working directory (root), git remote; role of a subagent",
    "turn_context": "the model and working directory of the turn",
    "response_item": "see the response items",
    "event_msg": "see the events",
    "compacted": "-> compaction (merged with an adjacent context_compacted)",
})
#: Top-level record types (`type` of a rollout line): "mapped" (read for facts) or "skipped".
RECORD_TYPES: dict[str, str] = handling(Switch("type", LINES))

RECORD = used("record dispatch", Switch("type", {
    **LINES,
    # the August-2025 layout: response items written bare, without an envelope or a time
    **RESPONSE_ITEMS,
}, default=Switch("record_type", {"state": obj(record_type=const("state"))},
                  default=obj(id=_SESSION_ID, timestamp=TIMESTAMP, instructions=DROP, git=GIT,  # its header line
                              payload=used("the type of an unknown record's payload, for the report", DROP)))))

# The single-JSON rollout: `session`, then chat-completions items.
_CHAT_CALL = obj(id=ID, index=NUMBER, type=enum("function"),
                 function=_function_call({}))
CHAT_ITEM = Switch("role", {
    "user": obj(role=const("user"), content=_CONTENT),
    "assistant": obj(role=const("assistant"), content=_CONTENT, reasoning=SHAPE, tool_calls=Many(_CHAT_CALL)),
    "tool": obj(role=const("tool"), tool_call_id=ID, content=OUTPUT_FIELD),
    "system": obj(role=const("system"), content=_CONTENT),
    "developer": obj(role=const("developer"), content=_CONTENT),
})
DOCUMENT = obj(session=obj(id=_SESSION_ID, timestamp=TIMESTAMP, instructions=DROP, git=GIT), items=Many(CHAT_ITEM))

TABLE = Table(FORMAT, RECORD, {}, document=DOCUMENT, document_key="items")
