"""Pydantic models of the agentplay/v1 session map (seed 000, "The agentplay/v1 format").

Field order follows the seed, because writing emits fields in model order. Every field carries its
field class (see fieldclass.py) in `json_schema_extra`, which is how the redactor and the scanner find
it. Models ignore unknown fields on reading, as the format's evolution rule requires; the redactor
walks the raw input separately and counts what it drops.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from redact.model.fieldclass import (
    ACTION,
    BOOL,
    ENUM,
    DIGEST,
    HASH,
    ID,
    LABEL,
    NUMBER,
    PATH,
    TEXT,
    TIMESTAMP,
    VERB,
    VERSION,
    FieldClass,
    ident,
)
from redact.model.values import (
    AnyErrClass,
    Category,
    ErrSource,
    EventErrClass,
    FileOp,
    HookEvent,
    Outcome,
    PathMode,
    Provider,
    StopReason,
    ToolErrClass,
    Touch,
)

CLASS_KEY = "x-field-class"


def F(fc: FieldClass, default: Any = None, *, alias: str | None = None) -> Any:
    """A model field of class `fc` (optional unless a default of ... is given)."""
    return Field(default, alias=alias, json_schema_extra={CLASS_KEY: fc.tag})


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


class Session(_Model):
    id: str = F(ID, ...)
    agentTool: str | None = F(ident("agent_tool"))
    cliVersion: str | None = F(VERSION)
    startedAt: str = F(TIMESTAMP, ...)
    durationMs: float | None = F(NUMBER)
    models: list[str] | None = F(ident("model"))
    pathMode: PathMode | None = F(ENUM)
    truncated: bool | None = F(BOOL)
    outcome: Outcome | None = F(ENUM)
    role: Literal["root", "subagent", "helper", "unknown"] | None = F(ENUM)
    parentSessionId: str | None = F(ID)


class Totals(_Model):
    calls: int | None = F(NUMBER)
    requests: int | None = F(NUMBER)
    userTurns: int | None = F(NUMBER)
    subagents: int | None = F(NUMBER)
    errors: int | None = F(NUMBER)
    tokens: int | None = F(NUMBER)
    costUsd: float | None = F(NUMBER)
    filesTouched: int | None = F(NUMBER)
    filesCreated: int | None = F(NUMBER)
    filesDeleted: int | None = F(NUMBER)
    errorsBySource: dict[ErrSource, int] | None = F(NUMBER)
    errorsByClass: dict[AnyErrClass, int] | None = F(NUMBER)
    retries: int | None = F(NUMBER)
    delays: int | None = F(NUMBER)
    delayMs: float | None = F(NUMBER)
    maxContext: int | None = F(NUMBER)
    compactions: int | None = F(NUMBER)
    llmLatencyP50: float | None = F(NUMBER)
    llmLatencyP95: float | None = F(NUMBER)
    outputTokens: int | None = F(NUMBER)
    tasks: int | None = F(NUMBER)
    prsCreated: int | None = F(NUMBER)
    prsMerged: int | None = F(NUMBER)
    prsClosed: int | None = F(NUMBER)
    prComments: int | None = F(NUMBER)
    commits: int | None = F(NUMBER)
    ticketsCreated: int | None = F(NUMBER)
    ticketsUpdated: int | None = F(NUMBER)
    artifacts: int | None = F(NUMBER)
    skillsCreated: int | None = F(NUMBER)
    skillsUpdated: int | None = F(NUMBER)
    modelSwitches: int | None = F(NUMBER)
    promptChars: int | None = F(NUMBER)
    promptImages: int | None = F(NUMBER)
    promptUrls: int | None = F(NUMBER)


class Repo(_Model):
    id: str = F(ID, ...)
    name: str | None = F(ident("repo"))
    remote: str | None = F(ident("remote"))


class File(_Model):
    id: int = F(NUMBER, ...)
    repo: str | None = F(ID)
    path: str = F(PATH, ...)
    reads: int | None = F(NUMBER)
    edits: int | None = F(NUMBER)
    hits: int | None = F(NUMBER)
    first: int | None = F(NUMBER)
    op: FileOp | None = F(ENUM)


class Agent(_Model):
    id: str = F(ID, ...)
    parent: str | None = F(ID)
    kind: Literal["main", "subagent"] | None = F(ENUM)  # seed 000: a helper is a subagent lane
    subagentType: str | None = F(ident("subagent_type"))
    model: str | None = F(ident("model"))
    launchSeq: int | None = F(NUMBER)
    start: float | None = F(NUMBER)
    end: float | None = F(NUMBER)
    calls: int | None = F(NUMBER)
    requests: int | None = F(NUMBER)
    errors: int | None = F(NUMBER)
    tokens: int | None = F(NUMBER)
    cost: float | None = F(NUMBER)
    outcome: Outcome | None = F(ENUM)


class Task(_Model):
    n: int = F(NUMBER, ...)
    id: str | None = F(ID)
    name: str | None = F(TEXT)
    source: Literal["segments", "turns"] | None = F(ENUM)
    startSeq: int | None = F(NUMBER)
    endSeq: int | None = F(NUMBER)
    startT: float | None = F(NUMBER)
    endT: float | None = F(NUMBER)
    firstTurn: int | None = F(NUMBER)
    lastTurn: int | None = F(NUMBER)


class PR(_Model):
    provider: Literal["github", "gitlab", "bitbucket"] | None = F(ENUM)
    repo: str | None = F(ident("remote"))
    number: int | None = F(ident("pr"))
    url: str | None = F(ident("pr"))
    seq: int | None = F(NUMBER)
    state: Literal["open", "merged", "closed"] | None = F(ENUM)


class Target(_Model):
    file: int | None = F(NUMBER)
    scope: Literal["outside"] | None = F(ENUM)
    label: str | None = F(LABEL)
    touch: Touch | None = F(ENUM)
    op: FileOp | None = F(ENUM)


class Vcs(_Model):
    provider: Provider = F(ENUM, ...)
    action: str = F(ACTION, ...)
    repo: str | None = F(ident("remote"))
    number: int | None = F(ident("pr"))


class _Event(_Model):
    seq: int = F(NUMBER, ...)
    t: float = F(NUMBER, ...)
    agent: str | None = F(ID)
    err: bool | None = F(BOOL)
    task: int | None = F(NUMBER)
    model: str | None = F(ident("model"))
    cat: Category | None = F(ENUM)


class _Call(_Event):
    """Fields shared by every tool-like event, including the failure signals."""

    outBytes: int | None = F(NUMBER)
    dur: float | None = F(NUMBER)
    errClass: ToolErrClass | None = F(ENUM)
    exitCode: int | None = F(NUMBER)
    retryOf: int | None = F(NUMBER)
    attempt: int | None = F(NUMBER)


class _FileOrShell(_Call):
    tool: str | None = F(ident("tool"))
    verb: str | None = F(VERB)
    targets: list[Target] | None = None
    vcs: Vcs | None = None


class ReadEvent(_FileOrShell):
    kind: Literal["read"] = F(ENUM, ...)


class SearchEvent(_FileOrShell):
    kind: Literal["search"] = F(ENUM, ...)


class EditEvent(_FileOrShell):
    kind: Literal["edit"] = F(ENUM, ...)


class ExecEvent(_FileOrShell):
    kind: Literal["exec"] = F(ENUM, ...)


class VerifyEvent(_FileOrShell):
    kind: Literal["verify"] = F(ENUM, ...)


class McpEvent(_Call):
    kind: Literal["mcp"] = F(ENUM, ...)
    server: str | None = F(ident("mcp_server"))
    tool: str | None = F(ident("mcp_tool"))


class SkillEvent(_Call):
    kind: Literal["skill"] = F(ENUM, ...)
    skill: str | None = F(ident("skill"))


class SubagentEvent(_Call):
    kind: Literal["subagent"] = F(ENUM, ...)
    subagentType: str | None = F(ident("subagent_type"))
    child: str | None = F(ID)


class WebEvent(_Call):
    kind: Literal["web"] = F(ENUM, ...)
    host: str | None = F(ident("host"))


class ToolEvent(_Call):
    kind: Literal["tool"] = F(ENUM, ...)
    tool: str | None = F(ident("tool"))


class LlmEvent(_Event):
    kind: Literal["llm"] = F(ENUM, ...)
    in_: int | None = F(NUMBER, alias="in")
    cw: int | None = F(NUMBER)
    cr: int | None = F(NUMBER)
    out: int | None = F(NUMBER)
    cost: float | None = F(NUMBER)
    latency: float | None = F(NUMBER)
    stop: StopReason | None = F(ENUM)
    thinking: bool | None = F(BOOL)
    toolCalls: int | None = F(NUMBER)
    textChars: int | None = F(NUMBER)


class UserEvent(_Event):
    kind: Literal["user"] = F(ENUM, ...)
    chars: int | None = F(NUMBER)
    images: int | None = F(NUMBER)
    urls: int | None = F(NUMBER)


class ErrorEvent(_Event):
    kind: Literal["error"] = F(ENUM, ...)
    source: ErrSource | None = F(ENUM)
    errClass: EventErrClass | None = F(ENUM)
    hook: str | None = F(ident("hook"))
    hookEvent: HookEvent | None = F(ENUM)
    srcUuid: str | None = F(ID)
    ref: int | None = F(NUMBER)
    retry: bool | None = F(BOOL)


class DelayEvent(_Event):
    kind: Literal["delay"] = F(ENUM, ...)
    cause: Literal["tool", "subagent", "llm", "stall"] | None = F(ENUM)
    ms: float | None = F(NUMBER)
    ref: int | None = F(NUMBER)


class CompactionEvent(_Event):
    kind: Literal["compaction"] = F(ENUM, ...)
    trigger: Literal["auto", "manual"] | None = F(ENUM)
    preTokens: int | None = F(NUMBER)
    postTokens: int | None = F(NUMBER)
    ms: float | None = F(NUMBER)


class CommitEvent(_Event):
    kind: Literal["commit"] = F(ENUM, ...)
    repo: str | None = F(ident("remote"))
    sha: str | None = F(ID)
    files: int | None = F(NUMBER)
    ins: int | None = F(NUMBER)
    del_: int | None = F(NUMBER, alias="del")


class _PrFollowUp(_Event):
    repo: str | None = F(ident("remote"))
    number: int | None = F(ident("pr"))
    url: str | None = F(ident("pr"))


class PrMergeEvent(_PrFollowUp):
    kind: Literal["pr_merge"] = F(ENUM, ...)


class PrCloseEvent(_PrFollowUp):
    kind: Literal["pr_close"] = F(ENUM, ...)


class PrCommentEvent(_PrFollowUp):
    kind: Literal["pr_comment"] = F(ENUM, ...)


class TicketEvent(_Event):
    kind: Literal["ticket"] = F(ENUM, ...)
    tracker: str | None = F(ident("tracker"))
    action: Literal["create", "update"] | None = F(ENUM)
    id: str | None = F(ident("ticket"))


class ArtifactEvent(_Event):
    kind: Literal["artifact"] = F(ENUM, ...)
    url: str | None = F(ident("artifact"))
    title: str | None = F(TEXT)
    version: int | None = F(NUMBER)


class SkillWriteEvent(_Event):
    kind: Literal["skill_write"] = F(ENUM, ...)
    name: str | None = F(ident("skill"))
    action: Literal["create", "update"] | None = F(ENUM)


class ModelSwitchEvent(_Event):
    kind: Literal["model_switch"] = F(ENUM, ...)
    from_: str | None = F(ident("model"), alias="from")
    to: str | None = F(ident("model"))


EVENT_MODELS: dict[str, type[_Event]] = {
    m.model_fields["kind"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in (
        ReadEvent, SearchEvent, EditEvent, ExecEvent, VerifyEvent, McpEvent, SkillEvent,
        SubagentEvent, WebEvent, ToolEvent, LlmEvent, UserEvent, ErrorEvent, DelayEvent,
        CompactionEvent, CommitEvent, PrMergeEvent, PrCloseEvent, PrCommentEvent, TicketEvent,
        ArtifactEvent, SkillWriteEvent, ModelSwitchEvent,
    )
}

Event = Annotated[
    Union[
        ReadEvent, SearchEvent, EditEvent, ExecEvent, VerifyEvent, McpEvent, SkillEvent,
        SubagentEvent, WebEvent, ToolEvent, LlmEvent, UserEvent, ErrorEvent, DelayEvent,
        CompactionEvent, CommitEvent, PrMergeEvent, PrCloseEvent, PrCommentEvent, TicketEvent,
        ArtifactEvent, SkillWriteEvent, ModelSwitchEvent,
    ],
    Field(discriminator="kind"),
]


class SessionMap(_Model):
    schema_: Literal["agentplay/v1", "entelligence.session-map/v1"] = F(ENUM, ..., alias="schema")
    session: Session
    totals: Totals
    repos: list[Repo] | None = None
    files: list[File] | None = None
    agents: list[Agent] | None = None
    tasks: list[Task] | None = None
    prs: list[PR] | None = None
    events: list[Event]
    # The keyed digest of the raw log this map was made from (added inside v1, as the seed allows):
    # `scan --source` and `receipt sign --source` refuse a log it does not match (docs/receipts.md).
    sourceDigest: str | None = F(DIGEST)
    contentHash: str | None = F(HASH)
