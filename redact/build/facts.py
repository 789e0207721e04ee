"""Format-neutral facts: what a reader learned from a raw log, before it becomes a map.

A reader (one module per raw format under `redact/formats/`) turns records into these facts; the
builder (`redact/build/`) turns facts into an agentplay/v1 map. Facts hold numbers, enums, raw paths
(which the builder places with `redact.apply.paths.locate`), identifiers (which the policy scrubs later),
and at most one transient string that is never written anywhere: `ToolCall.command`, which only the
verb engine reads. No fact holds prompt, reply, reasoning, tool input or tool output text.

Times are absolute epoch milliseconds; the builder makes them relative to the first event.
Plain mutable dataclasses with slots: a reader may still update a fact after emitting it (a model
response spread over several transcript records is one fact that grows).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

ToolKind = Literal["read", "search", "edit", "exec", "mcp", "skill", "subagent", "web", "tool"]
LaneKind = Literal["main", "subagent"]  # the seed's agents[].kind: nothing else
MAIN = "main"


@dataclass(slots=True)
class Lane:
    """An agent lane. `main` always exists; a reader declares every other lane it finds."""

    id: str  # "main" or "sa-<hex>"
    kind: LaneKind
    launch_call: str | None = None  # the call id of the tool call that started this lane
    subagent_type: str | None = None


@dataclass(slots=True)
class UserTurn:
    t: float
    agent: str
    chars: int
    images: int = 0
    urls: int = 0
    withdrawn: bool = False  # the reader learned later that this was not a prompt (a local command)


@dataclass(slots=True)
class LlmResponse:
    """One API response, counted once however many records repeat it."""

    t: float
    agent: str
    model: str | None
    inp: int = 0
    cw: int = 0
    cr: int = 0
    out: int = 0
    stop: str | None = None
    thinking: bool = False
    tool_calls: int = 0
    text_chars: int = 0
    latency: float | None = None  # ms from the request to the end of the response
    #: a model call beside the agent's conversation (a thread's title generation): an llm event and
    #: counted, but not the model driving the lane (it switches no model)
    aside: bool = False


@dataclass(slots=True)
class ToolCall:
    t: float
    agent: str
    call_id: str
    name: str  # the tool's name as the harness spells it (an identifier)
    kind: ToolKind
    paths: tuple[str, ...] = ()  # raw paths the input names (placed by the builder)
    op: str | None = None  # edits: create | modify | delete; an MCP issue tool: update (save_issue + id)
    path_ops: tuple[str | None, ...] = ()  # edits: one op per path when they differ (a patch)
    command: str | None = None  # shell: read by the verb engine only, never written
    argv: tuple[str, ...] | None = None  # shell as an argv array (Codex): the verb engine's only
    cwd: str | None = None  # shell: the directory its relative operands are taken from (else the session's)
    shell: str | None = None  # "powershell": `command` is a PowerShell script (a Windows Codex session)
    server: str | None = None  # mcp
    tool: str | None = None  # mcp
    skill: str | None = None
    subagent_type: str | None = None
    subagent_model: str | None = None  # a model name the launch asked for (only a real model name)
    host: str | None = None  # web: a host name, or "search"
    waits_on_user: bool = False  # the call's duration is the user's, not the agent's


@dataclass(slots=True)
class Commit:
    sha: str
    files: int | None = None
    ins: int | None = None
    dels: int | None = None
    repo: str | None = None


@dataclass(slots=True)
class PrAction:
    action: Literal["create", "merge", "close", "comment"]
    provider: Literal["github", "gitlab", "bitbucket"]
    repo: str | None = None
    number: int | None = None
    url: str | None = None


@dataclass(slots=True)
class Ticket:
    tracker: str
    action: Literal["create", "update"]
    id: str


@dataclass(slots=True)
class SkillWrite:
    name: str
    action: Literal["create", "update"]


Output = Union[Commit, PrAction, Ticket, SkillWrite]


@dataclass(slots=True)
class ToolResult:
    t: float
    call_id: str
    is_error: bool
    err_class: str | None = None
    exit_code: int | None = None
    out_bytes: int | None = None
    dur: float | None = None  # when the format records it; else the builder uses result.t - call.t
    hits: tuple[str, ...] = ()  # raw paths the result lists (search matches)
    op: str | None = None  # a file operation the result confirms (Write: create)
    outputs: list[Output] = field(default_factory=list)  # confirmed by this result
    child: str | None = None  # the lane a subagent call ran in, when the result names it
    timed: bool = True  # False: the log gives the result no time of its own (its duration is unknown)


@dataclass(slots=True)
class ErrorFact:
    """A failure not tied to one tool call: API errors, hook failures, interruptions."""

    t: float
    agent: str
    source: Literal["llm", "hook", "orchestration"]
    err_class: str
    hook: str | None = None
    hook_event: str | None = None
    src_uuid: str | None = None
    ref_call: str | None = None  # the call id the failure ran after (hooks)
    retry: bool | None = None


@dataclass(slots=True)
class Compaction:
    t: float
    agent: str
    trigger: Literal["auto", "manual"] | None = None
    pre_tokens: int | None = None
    post_tokens: int | None = None
    ms: float | None = None


Fact = Union[UserTurn, LlmResponse, ToolCall, ToolResult, ErrorFact, Compaction]


@dataclass(slots=True)
class RepoRoots:
    """A further repository the session worked in (its `repos[]` entry is r1, r2, ...)."""

    roots: tuple[str, ...]  # absolute roots of this one repository (a worktree and its main checkout)
    name: str | None = None  # an identifier (the root folder's name); the policy decides
    remote: str | None = None


@dataclass
class SessionFacts:
    """Everything a reader hands the builder for one session."""

    agent_tool: str  # "claude-code", "codex", ...
    native_id: str  # the harness's session id (a uuid or hex), or a stand-in
    roots: tuple[str, ...] = ()  # absolute repository roots, most important first
    cwd: str | None = None
    role: Literal["root", "subagent", "helper", "unknown"] = "root"
    parent_native_id: str | None = None
    repo_name: str | None = None  # an identifier (the root folder's name); the policy decides
    remote: str | None = None
    more_repos: list[RepoRoots] = field(default_factory=list)  # after the first (roots/repo_name/remote)
    #: A repository is known (its remote) but not its folder (Codex rollouts of August 2025 record no
    #: working directory): relative paths are taken as repo-relative, absolute ones go to a bucket.
    rootless_repo: bool = False
    first_seen: float | None = None  # the earliest time any record shows (startedAt of an empty map)
    #: the latest time any record shows: the session ends there when its last event's own end is
    #: earlier (a model response timed at its start whose end the next record shows)
    last_seen: float | None = None
    lanes: dict[str, Lane] = field(default_factory=lambda: {MAIN: Lane(MAIN, "main")})
    facts: list[Fact] = field(default_factory=list)

    def saw(self, t: float) -> None:
        """A time the log shows: the session starts at the earliest one (`first_seen`) and lasts at
        least until the latest (`last_seen`)."""
        if self.first_seen is None or t < self.first_seen:
            self.first_seen = t
        self.saw_late(t)

    def saw_late(self, t: float) -> None:
        """A time the log shows that does not move the start (a log whose first record starts it)."""
        if self.last_seen is None or t > self.last_seen:
            self.last_seen = t
