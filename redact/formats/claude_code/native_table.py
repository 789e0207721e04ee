"""Claude Code transcripts under `--to native`: what every field of every record becomes.

The format's one table. The tool table (with its path inputs) and the hook tables are here, and the
tree is built from them, so a tool the reader learns to read as a path is scrubbed as a path here
too; the record types and system subtypes the reader maps (`RECORD_TYPES`, `SYSTEM_SUBTYPES`) are
read off the tree (a layout is mapped when its node says what the reader reads of it). The scrubber and the native scan both walk
this tree (`redact/tables/spec.py` explains the nodes).

Kept so a transcript viewer still works: every record in its order, the `uuid`/`parentUuid` chain,
`type`, `role`, timestamps, content blocks with their `type`, `tool_use` ids and names, tool_result
pairing, usage numbers. Text becomes `{"chars": N}`; a Bash command becomes its verb; paths follow
the path mode; `cwd` is `.` at the repository root; `toolUseResult` keeps sizes, flags, exit codes and
the file names a search returned. Everything else is dropped and counted.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from redact.tables.spec import (
    BOOL, BRANCH, CWD, DROP, ID, NUMBER, PATH, RESULT, SHAPE, TIMESTAMP, TOOL, URL_HOST, VERB, VERSION,
    ByType, Leaf, Many, Obj, Ref, Spec, Switch, Table, const, enum, fields_of, ident, obj, handling, shape,
    used,
)

FORMAT = "claude-code"

HOOK_ATTACHMENTS: dict[str, str] = {
    "hook_blocking_error": "hook_blocking",
    "hook_stopped_continuation": "hook_blocking",
    "hook_non_blocking_error": "hook_error",
    "hook_error_during_execution": "hook_error",
}
HOOK_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "Notification", "UserPromptSubmit", "SessionStart",
    "SessionEnd", "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PermissionRequest",
})


@dataclass(frozen=True)
class Tool:
    """A built-in tool of the one tool table (`TOOLS`): the event kind of its calls, the input fields
    that hold a path, the other input fields that stay (besides those its kind reads: `_tool_input`),
    and whether its duration is the user's (a question, a plan approval: never a delay)."""

    kind: str = "tool"
    paths: tuple[str, ...] = ()
    inputs: dict[str, Spec] = field(default_factory=dict)
    waits_on_user: bool = False

    @property
    def closed(self) -> bool:
        """Whether the tree keeps the tool's name and lays out its input (else all its input is content)."""
        return self.kind != "tool" or bool(self.paths or self.inputs)


_WAITS = Tool(waits_on_user=True)
#: tool name -> its Tool. Names not here: `mcp__server__tool` -> mcp; anything else -> tool.
TOOLS: dict[str, Tool] = {
    "Read": Tool("read", ("file_path",), {"offset": NUMBER, "limit": NUMBER}),
    "NotebookRead": Tool("read", ("notebook_path",)),
    "Grep": Tool("search", inputs={
        "output_mode": enum("content", "files_with_matches", "count"), "-n": BOOL, "-i": BOOL, "multiline": BOOL,
        "-A": NUMBER, "-B": NUMBER, "-C": NUMBER, "context": NUMBER, "head_limit": NUMBER, "offset": NUMBER}),
    "Glob": Tool("search"), "LS": Tool("search"),
    "Edit": Tool("edit", ("file_path",), {"replace_all": BOOL}),
    "MultiEdit": Tool("edit", ("file_path",)), "Write": Tool("edit", ("file_path",)),
    "NotebookEdit": Tool("edit", ("notebook_path",), {"cell_type": enum("code", "markdown"),
                                                      "edit_mode": enum("replace", "insert", "delete")}),
    "Bash": Tool("exec"),
    "Skill": Tool("skill"),
    "Task": Tool("subagent"), "Agent": Tool("subagent"),
    "WebFetch": Tool("web", inputs={"url": used("host only", URL_HOST)}), "WebSearch": Tool("web"),
    "TodoWrite": Tool(inputs={"todos": Many(obj(status=enum("pending", "in_progress", "completed"), priority=enum(
        "high", "medium", "low"), id=ID))}),
    "BashOutput": Tool(inputs={"bash_id": ID}), "KillShell": Tool(inputs={"shell_id": ID}),
    "KillBash": Tool(inputs={"shell_id": ID}),
    "TaskOutput": Tool(inputs={"task_id": ID, "block": BOOL, "timeout": NUMBER}), "TaskStop": Tool(inputs={"task_id": ID}),
    "AskUserQuestion": _WAITS, "ExitPlanMode": _WAITS, "EnterPlanMode": _WAITS,
}
#: tool name -> event kind, of the tools whose kind is not plain `tool` (read off TOOLS).
TOOL_KINDS: dict[str, str] = {name: tool.kind for name, tool in TOOLS.items() if tool.kind != "tool"}
#: tool name -> the input fields that hold a path (every other input field is content).
PATH_INPUTS: dict[str, tuple[str, ...]] = {name: tool.paths for name, tool in TOOLS.items() if tool.paths}
#: Tools whose duration is the user's (a question, a plan approval): never a delay.
WAITS_ON_USER = frozenset(name for name, tool in TOOLS.items() if tool.waits_on_user)

#: An API error assistant message's closed `error` field -> errClass (the tree's enum is its keys).
API_ERRORS: dict[str, str] = {
    "rate_limit": "rate_limit", "authentication_failed": "auth", "billing_error": "spend_limit",
    "invalid_request": "bad_request", "server_error": "server_error", "overloaded": "overloaded",
    "max_output_tokens": "api_error", "unknown": "api_error",
}

#: The harness's own wording for a user interruption: a closed set, kept as written.
INTERRUPTIONS = ("[Request interrupted by user]", "[Request interrupted by user for tool use]")

_HOOK_EVENT = enum(*sorted(HOOK_EVENTS))
_LEVEL = enum("info", "error", "warning", "suggestion", "debug", "high", "medium", "low")
_MEDIA = enum("image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain")
_STATUS = enum("completed", "failed", "killed", "cancelled", "canceled", "running", "async_launched",
               "error", "pending", "in_progress", "success", "timeout")

_PARENT = used("sidechain lanes without agentId", ID)
_ROOT = used("repository root (never written)", CWD)
_PROMPT_FLAG = used("which user records are prompts", BOOL)
ENVELOPE: dict[str, Spec] = {
    "parentUuid": _PARENT, "logicalParentUuid": _PARENT, "isSidechain": used("lanes", BOOL),
    "userType": enum("external", "internal"), "cwd": _ROOT, "originalCwd": _ROOT,
    "sessionId": used("session.id", ID), "version": VERSION, "gitBranch": BRANCH,
    "agentId": used("lane id (sa- + hex, hashed when not hex)", ID), "slug": DROP,
    "uuid": used("de-duplication; srcUuid of error events", ID), "timestamp": used("event times", TIMESTAMP),
    "requestId": used("response de-duplication", ID), "promptId": ID, "messageId": ID, "leafUuid": ID,
    "toolUseID": ID, "parentToolUseID": used("subagent launch", ID), "sourceToolAssistantUUID": ID,
    "isMeta": _PROMPT_FLAG, "isCompactSummary": _PROMPT_FLAG, "isVisibleInTranscriptOnly": _PROMPT_FLAG,
    "isApiErrorMessage": used("API errors", BOOL),
    "isAtMentionRead": BOOL, "entrypoint": enum("cli", "claude-desktop", "claude-vscode", "sdk-ts",
                                                  "sdk-py", "sdk-cli", "mcp", "remote"),
    "permissionMode": enum("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"),
    "level": _LEVEL, "todos": DROP,
    "thinkingMetadata": obj(maxThinkingTokens=NUMBER, disabled=BOOL, level=enum("high", "medium", "low", "none"),
                            triggers=DROP),
    "origin": obj(kind=enum("task-notification", "prompt", "queued", "hook")),
}


def _reads(what: str, node: Spec) -> Spec:
    """A record type (or system subtype) the reader maps, and what it reads of it."""
    return used(what, node)


def record(kind: str, **fields: Spec) -> Obj:
    return Obj(fields_of(ENVELOPE, {"type": const(kind)}, fields))


# -- message content ---------------------------------------------------------------------------
TEXT_BLOCK = obj(type=const("text"), text=used("length only (textChars)", shape(*INTERRUPTIONS)), citations=DROP)
_PROMPT_TEXT = "length and URL count (chars, urls); the harness's interruption wording"
USER_TEXT_BLOCK = obj(type=const("text"), text=used(_PROMPT_TEXT, shape(*INTERRUPTIONS)), citations=DROP)
IMAGE_BLOCK = obj(type=const("image"), source=obj(type=enum("base64", "url", "file"), media_type=_MEDIA,
                                                  data=SHAPE, url=DROP))
DOCUMENT_BLOCK = obj(type=const("document"), source=obj(type=enum("base64", "url", "text", "file"),
                                                         media_type=_MEDIA, data=SHAPE, url=DROP),
                     title=DROP, context=DROP, citations=DROP)
_RESULT_USE = "byte count; errClass and exit code from the harness's wording; confirmations (outputs.py)"
RESULT_CONTENT = ByType(text=used(_RESULT_USE, RESULT), items=Many(Switch("type", {
    "text": obj(type=const("text"), text=used(_RESULT_USE, RESULT)),
    "image": IMAGE_BLOCK,
    "tool_reference": obj(type=const("tool_reference"), tool_name=TOOL),
})))
TOOL_RESULT_BLOCK = obj(type=const("tool_result"), tool_use_id=used("pairs call and result", ID),
                        content=RESULT_CONTENT, is_error=used("err", BOOL))


def _tool_input(tool: str) -> dict[str, Spec]:
    """What stays of one built-in tool's input: its path fields (the tool table), what its kind reads
    (its command as a verb, ...), its own identifiers, numbers and switches. Every other field is
    content, and dropped."""
    inp: dict[str, Spec] = {name: used("targets (see the tool table)", PATH) for name in PATH_INPUTS.get(tool, ())}
    kind = TOOL_KINDS.get(tool)
    if kind == "exec":
        inp.update(command=used("verb (verb engine)", VERB), timeout=NUMBER, run_in_background=BOOL)
    elif kind == "subagent":
        inp.update(subagent_type=used("subagentType", ident("subagent_type")),
                   model=used("only a full model name", ident("model")), run_in_background=BOOL,
                   prompt=used("a digest pairs the call with its subagent's transcript", DROP))
    elif kind == "skill":
        inp.update(skill=used("skill", ident("skill")))
    return inp | TOOLS[tool].inputs


def _tool_use(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return obj(type=const("tool_use"), id=used("pairs call and result", ID),
               name=used("event kind; tool, mcp server/tool", name),
               input=used("see the tool table", Obj(inputs)), caller=DROP)


#: A built-in tool keeps its name (a closed vocabulary, and the key the scan dispatches on); any other
#: name (MCP tools, tools the table does not know) is an identifier under the policy, and all its
#: input fields are content.
TOOL_USE_BLOCK = Switch(
    "name",
    {tool: _tool_use(const(tool), _tool_input(tool)) for tool in sorted(n for n, t in TOOLS.items() if t.closed)},
    default=_tool_use(TOOL, {
        "id": used("presence only: an mcp `save_issue` with an id is an update", DROP),
        # Batch (clients 0.2.x): `invocations[]` of `{tool_name, input}`, each read as that tool's call
        "invocations": used("Batch: one event per invocation, as if that tool had been called", DROP)}),
)

ASSISTANT_BLOCKS = Many(Switch("type", {
    "text": TEXT_BLOCK,
    "thinking": used("presence only (thinking)", obj(type=const("thinking"), thinking=SHAPE, signature=DROP)),
    "redacted_thinking": used("presence only (thinking)", obj(type=const("redacted_thinking"), data=DROP)),
    "tool_use": TOOL_USE_BLOCK,
    "server_tool_use": obj(type=const("server_tool_use"), id=ID, name=TOOL, input=DROP),
    "web_search_tool_result": obj(type=const("web_search_tool_result"), tool_use_id=ID, content=DROP),
    "web_fetch_tool_result": obj(type=const("web_fetch_tool_result"), tool_use_id=ID, content=DROP),
}))
USER_BLOCKS = Many(Switch("type", {
    "text": USER_TEXT_BLOCK, "image": used("count only (images)", IMAGE_BLOCK), "document": DOCUMENT_BLOCK, "tool_result": TOOL_RESULT_BLOCK,
}))

_USAGE: dict[str, Spec] = dict(
    input_tokens=NUMBER, cache_creation_input_tokens=NUMBER, cache_read_input_tokens=NUMBER,
    output_tokens=NUMBER, service_tier=enum("standard", "priority", "batch"),
    inference_geo=enum("global", "not_available", "", "us", "eu"), speed=enum("standard", "fast"),
    cache_creation=obj(ephemeral_5m_input_tokens=NUMBER, ephemeral_1h_input_tokens=NUMBER),
    server_tool_use=obj(web_search_requests=NUMBER, web_fetch_requests=NUMBER), iterations=DROP,
)
USAGE = Obj(_USAGE)
#: A response's usage, as the reader reads it into the llm event.
READ_USAGE = Obj(_USAGE | {"input_tokens": used("in", NUMBER), "cache_creation_input_tokens": used("cw", NUMBER),
                           "cache_read_input_tokens": used("cr", NUMBER), "output_tokens": used("out", NUMBER)})
_MODEL = used("llm model", ident("model"))
ASSISTANT_MESSAGE = obj(
    id=used("one llm event per response", ID), type=enum("message"), role=enum("assistant"), model=_MODEL,
    content=ByType(text=used("length only (textChars)", SHAPE), items=ASSISTANT_BLOCKS),
    stop_reason=used("stop", enum("end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal",
                     "model_context_window_exceeded")),
    stop_sequence=DROP, stop_details=DROP, usage=READ_USAGE, container=DROP, context_management=DROP,
)
USER_MESSAGE = obj(role=enum("user"), content=ByType(text=used(_PROMPT_TEXT, shape(*INTERRUPTIONS)),
                                                     items=USER_BLOCKS))

#: `toolUseResult`: the tool's own account of a call. Sizes, flags, exit codes, file names.
TOOL_USE_RESULT = ByType(text=SHAPE, obj=obj(
    stdout=SHAPE, stderr=SHAPE, interrupted=used("a Bash call the user interrupted", BOOL), isImage=BOOL, noOutputExpected=BOOL, sandbox=BOOL,
    returnCodeInterpretation=DROP, backgroundTaskId=ID, shellId=ID, shell_id=ID, exitCode=NUMBER,
    stdoutLines=NUMBER, stderrLines=NUMBER, wasInterrupted=BOOL, command=DROP,
    type=used("`create`: a Write made the file", enum("text", "create", "update", "image", "notebook", "pdf")),
    filePath=PATH,
    file=obj(filePath=PATH, content=SHAPE, numLines=NUMBER, startLine=NUMBER, totalLines=NUMBER, type=DROP,
             base64=DROP, dimensions=DROP, originalSize=NUMBER),
    content=ByType(text=SHAPE, items=Many(Switch("type", {"text": obj(type=const("text"), text=SHAPE)}))),
    oldString=SHAPE, newString=SHAPE, originalFile=SHAPE, structuredPatch=DROP, userModified=BOOL,
    replaceAll=BOOL, filenames=used("search hits", Many(PATH)), numFiles=NUMBER, numLines=NUMBER, truncated=BOOL,
    appliedLimit=NUMBER, mode=enum("content", "files_with_matches", "count"), durationMs=NUMBER,
    durationSeconds=NUMBER, bytes=NUMBER, code=NUMBER, codeText=DROP, result=SHAPE, url=DROP, query=DROP,
    results=DROP, matches=DROP, status=used("a subagent's status (Task)", _STATUS),
    agentId=used("the subagent's transcript (Task)", ID), agentType=ident("subagent_type"), prompt=DROP,
    totalDurationMs=NUMBER, totalTokens=NUMBER, totalToolUseCount=NUMBER, totalToolCalls=NUMBER,
    usage=USAGE, isAgent=BOOL, normalizedMessages=DROP, resolvedInvocations=DROP,
    orderedToolResults=used("Batch: each invocation's tool_result and toolUseResult, read as above; its "
                            "timestamp", DROP),
    total_deferred_tools=NUMBER, oldTodos=DROP, newTodos=DROP, questions=DROP, answers=DROP,
    annotations=DROP, plan=DROP, filterPattern=DROP, message=DROP, retrieval_status=DROP,
    verificationNudgeNeeded=BOOL, assistantAutoBackgrounded=BOOL, persistedOutputPath=DROP,
    persistedOutputSize=NUMBER, timestamp=TIMESTAMP,
    task=obj(task_id=ID, task_type=enum("local_bash", "local_agent", "remote_agent"), status=_STATUS,
             exitCode=NUMBER, description=DROP, output=DROP),
))

# -- records -------------------------------------------------------------------------------------
SYSTEM = used("see the system subtypes", Switch("subtype", {
    "api_error": _reads("-> error (source llm), retried", record(
        "system", subtype=const("api_error"),
        error=obj(status=used("errClass", NUMBER), error=used("errClass from its `type`", DROP)), cause=DROP,
        retryInMs=NUMBER, retryAttempt=NUMBER, maxRetries=NUMBER)),
    "compact_boundary": _reads("-> compaction", record(
        "system", subtype=const("compact_boundary"), content=SHAPE, compactMetadata=used("compaction", obj(
            trigger=enum("auto", "manual"), preTokens=NUMBER, postTokens=NUMBER, durationMs=NUMBER)))),
    "informational": _reads("-> error (source hook) for `... operation blocked by hook`", record(
        "system", subtype=const("informational"),
        content=used("the hook event name of `... operation blocked by hook` only", SHAPE))),
    "local_command": record("system", subtype=const("local_command"), content=SHAPE),
    "stop_hook_summary": _reads("-> error (source hook) when a Stop hook failed or blocked", record(
        "system", subtype=const("stop_hook_summary"), hookCount=NUMBER,
        hookInfos=Many(obj(command=VERB, durationMs=NUMBER)),
        hookErrors=used("presence: a Stop hook failed", Many(SHAPE)),
        preventedContinuation=used("hook_blocking", BOOL), stopReason=SHAPE, hasOutput=BOOL)),
    "turn_duration": record("system", subtype=const("turn_duration"), durationMs=NUMBER, messageCount=NUMBER),
}, default=record("system", content=SHAPE)))  # another subtype: the envelope stays, the subtype goes
#: System subtypes: "mapped" (read for facts) or "skipped" (counted in the report, never read).
SYSTEM_SUBTYPES: dict[str, str] = handling(SYSTEM)

_HOOK_ATTACHMENT = {kind: obj(type=const(kind), hookName=used("hook", ident("hook")),
                              hookEvent=used("the hook's event", _HOOK_EVENT), toolUseID=used("the call it blocked", ID),
                              exitCode=NUMBER, durationMs=NUMBER, stderr=SHAPE, stdout=SHAPE, content=SHAPE,
                              command=VERB, blockingError=SHAPE)
                    for kind in HOOK_ATTACHMENTS}
#: Attachments whose body is context for the model (file contents, reminders, listings): type only.
_PLAIN_ATTACHMENTS = (
    "companion_intro", "deferred_tools_delta", "skill_listing", "file", "directory", "edited_text_file",
    "todo", "todo_reminder", "plan_mode", "plan_mode_exit", "critical_system_reminder", "nested_memory",
    "queued_command", "diagnostics", "new_directory", "selected_lines_in_ide", "opened_file_in_ide",
    "compact_file_reference", "invoked_skills", "task_reminder", "date_change", "hook_success",
    "hook_additional_context", "async_hook_response", "command_permissions", "mcp_resource",
)
ATTACHMENT = Switch("type", {**{k: obj(type=const(k)) for k in _PLAIN_ATTACHMENTS}, **_HOOK_ATTACHMENT,
                             "skill_listing": obj(type=const("skill_listing"), skillCount=NUMBER, isInitial=BOOL)})

PROGRESS_DATA = Switch("type", {
    "agent_progress": obj(type=const("agent_progress"), agentId=used("the subagent's lane", ID), prompt=SHAPE,
                          message=used("a record of the subagent's lane", Ref("record")),
                          normalizedMessages=DROP),
    "bash_progress": obj(type=const("bash_progress"), output=SHAPE, fullOutput=SHAPE, elapsedTimeSeconds=NUMBER,
                         totalLines=NUMBER, timeoutMs=NUMBER),
    "hook_progress": obj(type=const("hook_progress"), hookEvent=_HOOK_EVENT, hookName=ident("hook"), command=VERB),
    "waiting_for_task": obj(type=const("waiting_for_task"), taskDescription=SHAPE,
                            taskType=enum("local_bash", "local_agent", "remote_agent")),
    "mcp_progress": obj(type=const("mcp_progress"), status=_STATUS, serverName=ident("mcp_server"),
                        toolName=ident("mcp_tool"), elapsedTimeMs=NUMBER),
    "query_update": obj(type=const("query_update"), query=DROP),
    "search_results_received": obj(type=const("search_results_received"), resultCount=NUMBER, query=DROP),
})

RECORD = used("record dispatch", Switch("type", {
    "user": _reads("prompts (shape only), tool results (shape only), interruptions", record(
        "user", message=USER_MESSAGE, toolUseResult=TOOL_USE_RESULT)),
    "assistant": _reads("model responses (usage, stop reason, block kinds), tool calls", record(
        "assistant", message=ASSISTANT_MESSAGE, costUSD=NUMBER, durationMs=used("latency (client 0.2.x)", NUMBER),
        model=_MODEL, error=used("errClass of an API error", enum(*API_ERRORS)))),
    "system": SYSTEM,
    "progress": _reads("agent_progress only (a subagent without its own transcript)",
                       record("progress", data=PROGRESS_DATA)),
    "attachment": _reads("hook errors only", record("attachment", attachment=ATTACHMENT)),
    # skipped: a title, queued or last prompts (text), backups of edited files, a PR the client linked
    # (PRs are taken from confirmed tool results only)
    "summary": record("summary", summary=SHAPE),
    "custom-title": record("custom-title", customTitle=SHAPE),
    "ai-title": record("ai-title", aiTitle=SHAPE),
    "agent-name": record("agent-name", agentName=SHAPE),
    "last-prompt": record("last-prompt", lastPrompt=SHAPE),
    "queue-operation": record("queue-operation", operation=enum("enqueue", "dequeue", "remove", "popAll"),
                              content=SHAPE),
    "permission-mode": record("permission-mode"),
    "tag": record("tag", tag=SHAPE),
    "pr-link": record("pr-link", prNumber=ident("pr"), prUrl=DROP, prRepository=DROP),
    "file-history-snapshot": record("file-history-snapshot", isSnapshotUpdate=BOOL, snapshot=obj(
        messageId=ID, timestamp=TIMESTAMP, trackedFileBackups=DROP)),
}))

#: Record types: "mapped" (read for facts) or "skipped" (counted by type in the report, never read).
RECORD_TYPES: dict[str, str] = handling(RECORD)

#: What the reader reads inside three fields the tree drops whole (each says so in its `use`), named so
#: the reader names these places too (redact/formats/slots.py). No field of the tree refers to them:
#: the scrubber and the native scan never reach them (the fields stay dropped).
INSIDE_BLOBS: dict[str, Spec] = {
    # a Batch call's `input.invocations[]` entry (clients 0.2.x): read as a call of that tool
    "batch_invocation": obj(tool_name=used("Batch `input.invocations[]`: the tool each ran", TOOL),
                            input=used("Batch `input.invocations[]`: that tool's input, read as its own "
                                       "call's (the tool table)", DROP)),
    # a Batch result's `toolUseResult.orderedToolResults[]` entry: one invocation's result record
    "batch_result": obj(message=used("Batch `toolUseResult.orderedToolResults[]`: each invocation's "
                                     "tool_result, toolUseResult and timestamp", Ref("record"))),
    # an `api_error` system record's `error.error`
    "api_error_body": obj(type=used("`api_error` `error.error`: errClass (`overloaded_error`, "
                                    "`rate_limit_error`)", DROP)),
}

TABLE = Table(FORMAT, RECORD, {"record": RECORD, **INSIDE_BLOBS})

__all__ = ["FORMAT", "INTERRUPTIONS", "TABLE", "Leaf"]
