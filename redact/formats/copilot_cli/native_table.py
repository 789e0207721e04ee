"""GitHub Copilot CLI event logs under `--to native`: every event type of the reader's table, each
event's `data` by class.

Prompts, replies, reasoning, tool output, summaries and notifications become their shape; a tool
call keeps its id, name and, of its arguments, what the tool table reads (paths in the path mode,
the shell command as its verb, numbers and flags); hook inputs (which repeat a tool's arguments and
result), telemetry, per-model metrics and opaque reasoning are dropped. An event type the table does
not know is dropped and counted.

It is also the reader's table: the event types it maps say what it reads of them (`_reads`), and the
tool table (`TOOLS`), `str_replace_editor`'s commands and the hook types are the lists the tree is
built from.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from redact.tables.spec import (
    BOOL, BRANCH, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, URL_HOST, VERB, VERSION, Many, Obj, Spec,
    Switch, Table, const, enum, ident, obj, tool, used,
)

FORMAT = "copilot-cli"

#: str_replace_editor's `command` -> (kind, op)
EDITOR_COMMANDS: dict[str, tuple[str, str | None]] = {
    "view": ("read", None), "create": ("edit", "create"), "str_replace": ("edit", "modify"),
    "insert": ("edit", "modify"), "undo_edit": ("edit", "modify"),
}
#: `hookType` -> the hook event of a failed hook's error event (None: no event name)
HOOK_EVENTS: dict[str, str | None] = {
    "preToolUse": "PreToolUse", "postToolUse": "PostToolUse", "userPromptSubmitted": "UserPromptSubmit",
    "sessionStart": "SessionStart", "sessionEnd": "SessionEnd", "errorOccurred": None, "agentStop": None,
    "subagentStop": None,
}

_SHELL: dict[str, Spec] = {"command": used("verb (verb engine)", VERB), "description": SHAPE, "initial_wait": NUMBER, "timeout": NUMBER,
                           "async": BOOL, "mode": enum("sync", "async"), "sessionId": ID, "shellId": ID}
_SHELL_IO: dict[str, Spec] = {"sessionId": ID, "shellId": ID, "delay": NUMBER, "input": SHAPE}
_SEARCH: dict[str, Spec] = {"pattern": SHAPE, "path": PATH, "glob": SHAPE, "type": SHAPE, "head_limit": NUMBER,
                            "output_mode": enum("content", "files_with_matches", "count"),
                            "-n": BOOL, "-i": BOOL, "-A": NUMBER, "-B": NUMBER, "-C": NUMBER,
                            "multiline": BOOL}
_TARGET = used("targets (read, edit)", PATH)
_HOST = used("host only", URL_HOST)
_READ: dict[str, Spec] = {"path": _TARGET, "view_range": Many(NUMBER)}
_FETCH: dict[str, Spec] = {"url": _HOST, "max_length": NUMBER, "start_index": NUMBER, "raw": BOOL}


@dataclass(frozen=True)
class Tool:
    """A tool of the one tool table (`TOOLS`): the event kind of its calls, the arguments that stay
    (every other argument is content), the op of an edit, and whether its duration is the user's."""

    kind: str
    args: dict[str, Spec] = field(default_factory=dict)
    op: str | None = None
    waits_on_user: bool = False


_IO = Tool("tool", _SHELL_IO)
#: tool name -> its Tool (the tree's closed tool names, the reader's kinds, the docs' tool table).
TOOLS: dict[str, Tool] = {
    "bash": Tool("exec", _SHELL), "powershell": Tool("exec", _SHELL), "shell": Tool("exec", _SHELL),
    "view": Tool("read", _READ), "read": Tool("read", _READ), "read_file": Tool("read", _READ),
    "edit": Tool("edit", {"path": _TARGET, "old_str": SHAPE, "new_str": SHAPE}, op="modify"),
    "create": Tool("edit", {"path": _TARGET, "file_text": SHAPE}, op="create"),
    "write": Tool("edit", {"path": _TARGET, "file_text": SHAPE, "content": SHAPE}),
    "str_replace_editor": Tool("edit", {  # its op is its command's (EDITOR_COMMANDS)
        "command": used("view reads; the other commands edit", enum(*EDITOR_COMMANDS)), "path": _TARGET,
        "file_text": SHAPE, "old_str": SHAPE, "new_str": SHAPE, "view_range": Many(NUMBER), "insert_line": NUMBER}),
    "grep": Tool("search", _SEARCH), "glob": Tool("search", {"pattern": SHAPE, "path": PATH}),
    "rg": Tool("search", _SEARCH),
    "web_fetch": Tool("web", _FETCH), "fetch": Tool("web", _FETCH),
    "task": Tool("subagent", {"agent_type": used("subagentType", ident("subagent_type")), "name": SHAPE,
                              "prompt": SHAPE, "description": SHAPE, "mode": enum("sync", "background")}),
    "skill": Tool("skill", {"skill": used("skill", ident("skill"))}),
    "read_bash": _IO, "write_bash": _IO, "stop_bash": _IO, "list_bash": Tool("tool"),
    "read_powershell": _IO, "write_powershell": _IO, "stop_powershell": _IO,
    "list_powershell": Tool("tool"), "read_agent": Tool("tool", {"agent_id": ID, "timeout": NUMBER, "wait": BOOL}),
    "report_intent": Tool("tool", {"intent": SHAPE}), "task_complete": Tool("tool", {"summary": SHAPE}),
    "ask_user": Tool("tool", {"question": SHAPE, "choices": SHAPE, "allow_freeform": BOOL}, waits_on_user=True),
    "store_memory": Tool("tool"), "think": Tool("tool"), "update_todo": Tool("tool"),
}
#: Tools whose duration is the user's (a question): never a delay.
WAITS_ON_USER = frozenset(name for name, t in TOOLS.items() if t.waits_on_user)
_TOOL_NAME = used("event kind (see the tool table)", tool(*TOOLS))


def _calls(key: str, fields: dict[str, Spec]) -> Switch:
    """A tool call (its name under `key`) with its arguments by the tool table."""
    cases: dict[str, Spec] = {
        name: Obj({**fields, key: const(name), "arguments": Obj(t.args)}) for name, t in TOOLS.items()}
    return used("event kind (see the tool table)",
                Switch(key, cases, default=Obj({**fields, key: _TOOL_NAME, "arguments": SHAPE})))


_LANE = used("subagent lane", ID)
_PAIRS = used("pairs call and result", ID)
_REQUEST = used("calls whose start was not logged", _calls(
    "name", {"toolCallId": used("calls whose start was not logged", ID), "type": enum("function"),
             "intentionSummary": SHAPE}))
_ROOT = used("repository root (never written)", CWD)
_CONTEXT = obj(cwd=_ROOT, gitRoot=_ROOT, branch=BRANCH, headCommit=ID, baseCommit=ID,
               repository=used("remote (github only)", ident("repo")),
               hostType=enum("github", "ado", "gitlab", "bitbucket", "other"))
_EFFORT = enum("low", "medium", "high", "xhigh", "minimal", "none")
_MODE = enum("interactive", "plan", "autopilot")
_HOOK = enum(*HOOK_EVENTS)


def _reads(what: str, data: Spec) -> Spec:
    """An event type the reader maps, and what it reads of it."""
    return used(what, data)


#: Each event type's `data`. An event type the reader maps says what it reads (`_reads`); the others
#: are skipped, counted by name (the reader's EVENT_TYPES is read off this, `keys.py`).
DATA: dict[str, Spec] = {
    "session.start": _reads("session id, start, working directory and git root, repository", obj(sessionId=used("session.id", ID), version=NUMBER,
                         producer=used("detection", enum("copilot-agent")), copilotVersion=VERSION,
                         startTime=TIMESTAMP, reasoningEffort=_EFFORT, context=_CONTEXT, alreadyInUse=BOOL,
                         selectedModel=ident("model"))),
    "session.resume": _reads("working directory when none is known yet", obj(
        resumeTime=TIMESTAMP, eventCount=NUMBER, context=_CONTEXT, alreadyInUse=BOOL)),
    "user.message": _reads("a prompt: length, images, URL count", obj(content=used("length and URL count", SHAPE), transformedContent=SHAPE, agentMode=_MODE, interactionId=ID, source=SHAPE,
                        attachments=used("images counted", Many(obj(type=enum("file", "image", "directory", "selection"), path=PATH,
                                             displayName=DROP, mentionIndex=NUMBER))))),
    "system.message": obj(content=SHAPE, role=enum("system", "developer")),
    "assistant.turn_start": obj(turnId=ID, interactionId=ID),
    "assistant.turn_end": obj(turnId=ID, interactionId=ID),
    "assistant.message": _reads("an llm event: outputTokens, reasoning, text length, tool requests", obj(
        messageId=ID, content=used("length only (textChars)", SHAPE),
                             toolRequests=Many(_REQUEST), interactionId=ID,
                             reasoningOpaque=used("presence only (thinking)", DROP),
                             reasoningText=used("presence only (thinking)", SHAPE), encryptedContent=DROP,
                             outputTokens=used("out (no input tokens are recorded per request)", NUMBER),
                             parentToolCallId=_LANE)),
    "assistant.reasoning": obj(reasoningId=ID, content=SHAPE, parentToolCallId=_LANE),
    "tool.execution_start": _reads("a tool call (its kind: see the tool table)", _calls("toolName", {
        "toolCallId": _PAIRS, "mcpServerName": used("mcp server", ident("mcp_server")),
        "mcpToolName": used("mcp tool", ident("mcp_tool")), "parentToolCallId": _LANE})),
    "tool.execution_complete": _reads("its result: success, error, output size, exit code, model", obj(
        toolCallId=_PAIRS, model=used("the model of the response that asked", ident("model")), interactionId=ID,
        success=used("err", BOOL),
        result=obj(content=used("byte count; exit code (`<exited with exit code N>`); commits and PRs it "
                                "confirms", SHAPE), detailedContent=SHAPE),
        error=obj(message=used("errClass from the wording", SHAPE),
                  code=enum("failure", "denied", "rejected", "error")),
        toolTelemetry=DROP, parentToolCallId=_LANE, isUserRequested=BOOL)),
    "hook.start": obj(hookInvocationId=ID, hookType=_HOOK, input=DROP),
    "hook.end": _reads("when it failed: an error event (hook)", obj(
        hookInvocationId=ID, hookType=used("a failed hook is an error event", _HOOK),
        success=used("a failed hook is an error event", BOOL), error=SHAPE)),
    "session.error": _reads("an error event: llm for model calls, else orchestration", obj(errorType=used("source (model_call: llm)", enum(
        "model_call", "query", "mcp", "system_enotconn", "authentication", "rate_limit", "context_limit")),
                         message=used("errClass from the wording", SHAPE),
                         stack=used("errClass from the wording", DROP),
                         statusCode=NUMBER)),
    "session.info": obj(infoType=enum("model", "mcp", "auth", "session", "configuration"), message=SHAPE),
    "session.warning": obj(warningType=enum("mcp", "model", "auth", "session", "configuration"), message=SHAPE),
    "session.model_change": _reads("the model of later responses", obj(
        previousModel=ident("model"), newModel=used("llm model", ident("model")),
        previousReasoningEffort=_EFFORT, reasoningEffort=_EFFORT)),
    "session.mode_changed": obj(previousMode=_MODE, newMode=_MODE),
    "session.task_complete": obj(summary=SHAPE, success=BOOL),
    # its per-model totals of the run it ends: the input and cache tokens Copilot records nowhere else
    "session.shutdown": _reads("the run's input and cache tokens, per model", obj(
                            shutdownType=enum("routine", "error"), totalPremiumRequests=NUMBER,
                            totalApiDurationMs=NUMBER, sessionStartTime=NUMBER,
                            modelMetrics=used("per model: usage.inputTokens / cacheReadTokens / cacheWriteTokens "
                                              "(the run's last llm event of that model)", DROP),
                            codeChanges=obj(linesAdded=NUMBER, linesRemoved=NUMBER, filesModified=Many(PATH)),
                            currentModel=ident("model"), currentTokens=NUMBER, systemTokens=NUMBER,
                            conversationTokens=NUMBER, toolDefinitionsTokens=NUMBER)),
    "session.compaction_start": obj(systemTokens=NUMBER, conversationTokens=NUMBER, toolDefinitionsTokens=NUMBER),
    "session.compaction_complete": _reads("a compaction, with the tokens before it", obj(
        success=BOOL, preCompactionTokens=used("compaction preTokens", NUMBER), preCompactionMessagesLength=NUMBER,
                                       summaryContent=SHAPE, checkpointNumber=NUMBER, checkpointPath=PATH,
                                       compactionTokensUsed=obj(input=NUMBER, output=NUMBER, cachedInput=NUMBER),
                                       requestId=ID, error=SHAPE)),
    "subagent.started": _reads("a subagent lane and its type", obj(
        toolCallId=used("the task call whose lane it is", ID),
        agentName=used("lane subagentType", ident("subagent_type")), agentDisplayName=DROP,
        agentDescription=SHAPE)),
    "subagent.completed": obj(toolCallId=ID, agentName=ident("subagent_type"), agentDisplayName=DROP),
    "system.notification": obj(content=SHAPE, kind=DROP),
    "skill.invoked": obj(name=ident("skill"), path=PATH, content=SHAPE),
    "abort": _reads("an error event: interrupted", obj(reason=SHAPE)),
}



#: What the reader reads inside `session.shutdown`'s modelMetrics (a blob keyed by model name, so the
#: tree drops it whole): each model's usage block and its token counts
METRICS_USAGE = "usage"
METRICS_TOKENS = ("inputTokens", "cacheReadTokens", "cacheWriteTokens")


def _event(kind: str, data: Spec) -> Obj:
    """One event type's line; what the reader reads of it (its data's `use`) is the line's. A `data`
    that is a switch (a tool call by its name) keeps its use too: it is its key's."""
    return Obj({"type": const(kind), "id": ID, "parentId": ID, "timestamp": used("event times", TIMESTAMP),
                "data": data if isinstance(data, Switch) else replace(data, use="")}, use=data.use)


LINE = used("event dispatch", Switch("type", {kind: _event(kind, data) for kind, data in DATA.items()}))

TABLE = Table(FORMAT, LINE, {})
