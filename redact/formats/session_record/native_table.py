"""Agent session-record streams (seed 002) under `--to native`: what every field becomes.

Built on the reader's tables (`redact/formats/session_record/table.py` for the record types and call
kinds, `redact/formats/toolnames.py` for which input fields of which tool are paths, commands, URLs or
identifiers). A tool call's input is reduced by the call's own `kind` when it states one, else by its
tool name; a `{root, path}` location keeps its root id and has its path in the path mode; each
`workspace.roots[].path` is `.` (a repository root) or a bucket label.

The header says what this did: `contentLevel` is lowered to `metadata` (the stream keeps structure,
sizes and identifiers, no content) unless it was lower already, and `producer.lossy` lists what was
removed (`LOSSY_ADDED`).
"""
from __future__ import annotations

from redact.formats.session_record.table import CALL_KINDS, FILE_OPS, RECORD_TYPES, RESULT_STATUS
from redact.native.spec import (
    BOOL,
    CWD,
    DROP,
    ID,
    NUMBER,
    PATH,
    SHAPE,
    TIMESTAMP,
    VERB,
    VERSION,
    ByType,
    Many,
    Obj,
    Spec,
    Switch,
    Table,
    const,
    enum,
    ident,
    obj,
    tool,
)
from redact.native.tables.tools import inputs_of, spellings

FORMAT = "session-record"

#: Content levels, least content first. A native stream keeps no content: `metadata`.
CONTENT_LEVELS: tuple[str, ...] = ("none", "metadata", "redacted", "full")
NATIVE_LEVEL = "metadata"
#: What `--to native` removes, as the header's `lossy` list names it (added to what was there).
LOSSY_ADDED: tuple[str, ...] = (
    "message.content.text", "message.content.reasoning", "tool_call.title", "tool_call.input",
    "tool_result.content", "tool_result.exec.command", "workspace.roots.path", "unknown-fields",
)
#: `lossy` entries a producer may have written that stay (others are dropped and counted).
LOSSY_KNOWN: tuple[str, ...] = LOSSY_ADDED + (
    "thinking.signature", "reasoning.signature", "reasoning", "images", "timestamps", "usage", "cost",
    "tool_result.content.truncated", "subagents",
)

_SHA_ID = ID
_TOOL = tool(*spellings())

# The seed's own kinds (`kind` on a tool_call) -> the input layout of that event kind.
_BY_STATED_KIND = {kind: inputs_of(event) for kind, event in CALL_KINDS.items() if event != "tool"}

_CALL_FIELDS: dict[str, Spec] = {
    "type": const("tool_call"), "seq": NUMBER, "id": ID, "ts": TIMESTAMP, "callId": ID,
    "callIdSource": enum("native", "derived", "synthetic"), "inferenceId": ID, "messageId": ID,
    "parentCallId": ID, "title": DROP,
}


def _name_cases() -> dict[str, Spec]:
    """Tool names of the shared table, in the spellings harnesses use: each keeps its name and the
    input fields of its kind."""
    return {spelled: Obj({**_CALL_FIELDS, "name": const(spelled), "kind": enum(*CALL_KINDS),
                          "input": Obj(inputs_of(kind))})
            for spelled, kind in spellings().items()}


TOOL_CALL = Switch(
    "kind",
    {kind: Obj({**_CALL_FIELDS, "kind": const(kind), "name": _TOOL, "input": Obj(inputs)})
     for kind, inputs in _BY_STATED_KIND.items()},
    default=Switch("name", _name_cases(),
                   default=Obj({**_CALL_FIELDS, "kind": enum(*CALL_KINDS), "name": _TOOL, "input": obj()})),
)

_CONTENT = Many(Switch("type", {
    "text": obj(type=const("text"), text=SHAPE),
    "reasoning": obj(type=const("reasoning"), visibility=enum("full", "summary", "redacted", "none"),
                     text=SHAPE, signature=DROP),
    "image": obj(type=const("image"), mediaType=enum("image/png", "image/jpeg", "image/gif", "image/webp"),
                 data=SHAPE, blob=DROP, url=DROP, text=DROP),  # the reader asks every part for `text`
}))
_USAGE = obj(input=obj(uncached=NUMBER, cacheRead=NUMBER, cacheWrite=NUMBER, total=NUMBER),
             output=obj(total=NUMBER, reasoning=NUMBER))
_COST = obj(amount=NUMBER, currency=enum("USD", "EUR"), source=enum("harness_estimated", "provider_reported",
                                                                     "converter_estimated"))
_BASE: dict[str, Spec] = {"seq": NUMBER, "id": ID, "ts": TIMESTAMP}


def record(kind: str, **fields: Spec) -> Obj:
    return Obj({**_BASE, "type": const(kind), **fields})


HEADER = record(
    "session", formatVersion=VERSION, sessionId=ID, agent=obj(name=ident("agent_tool"), version=VERSION),
    producer=obj(name=ident("agent_tool"), version=VERSION,
                 method=enum("native", "converter", "proxy", "hook", "sdk", "import"), instance=DROP,
                 source=obj(format=enum("claude-code-jsonl", "codex-rollout", "codex-jsonl", "gemini-json",
                                        "opencode", "cursor", "aider")),
                 lossy=Many(enum(*LOSSY_KNOWN))),
    authority=enum("local", "remote", "shared"), startedAt=TIMESTAMP, endedAt=TIMESTAMP,
    lineage=obj(root=BOOL, parent=ByType(text=ID, obj=obj(sessionId=ID, agent=ident("agent_tool"), callId=ID)),
                forkedFrom=ID),
    scope=enum("primary", "subagent", "helper"),
    workspace=obj(roots=Many(obj(id=ID, path=CWD, vcs=obj(
        type=enum("git", "hg", "svn", "jj"), remote=ident("remote"), head=ID, branch=DROP, dirty=BOOL)))),
    environment=obj(os=enum("linux", "macos", "darwin", "windows"), shell=enum("bash", "zsh", "sh", "fish",
                                                                                 "powershell", "pwsh", "cmd")),
    profiles=Many(enum("core", "coding", "usage", "conversation", "delivery")),
    contentLevel=enum(*CONTENT_LEVELS[:CONTENT_LEVELS.index(NATIVE_LEVEL) + 1]),
    extensions=DROP,
)

RECORD = Switch("type", {
    "session": HEADER,
    "message": record("message", messageId=ID, inferenceId=ID, role=enum("user", "assistant", "system", "tool"),
                      author=enum("human", "model", "harness", "tool", "system"),
                      origin=enum("prompt", "injected", "queued", "hook", "command", "resume"),
                      audience=enum("both", "model", "human"), status=enum("complete", "partial", "interrupted"),
                      content=_CONTENT),
    "inference": record("inference", inferenceId=ID, purpose=enum("turn", "summary", "title", "compaction",
                                                                  "subagent", "other"),
                        model=obj(provider=enum("anthropic", "openai", "google", "mistral", "xai", "meta",
                                                "deepseek", "local"),
                                  id=ident("model"), requested=ident("model")),
                        params=obj(effort=enum("minimal", "low", "medium", "high", "xhigh"), temperature=NUMBER,
                                   maxTokens=NUMBER),
                        usage=_USAGE, cost=_COST, latency=obj(ttftMs=NUMBER, durationMs=NUMBER),
                        stopReason=enum("tool_use", "end_turn", "max_tokens", "stop_sequence", "refusal",
                                        "pause_turn", "error")),
    "tool_call": TOOL_CALL,
    "tool_result": record("tool_result", callId=ID, linkage=enum("exact", "derived", "ambiguous"),
                          status=enum(*sorted(RESULT_STATUS)),
                          content=_CONTENT,
                          capture=obj(content=obj(state=enum("complete", "truncated", "omitted", "redacted"),
                                                  originalBytes=NUMBER, blob=obj(blob=DROP, size=NUMBER))),
                          exec=obj(command=VERB, cwd=obj(root=ID, path=CWD), exitCode=NUMBER, signal=DROP),
                          durationMs=NUMBER, error=DROP),
    "file_change": record("file_change", cause=obj(callId=ID, actor=enum("agent", "human", "tool"),
                                                   observed=BOOL),
                          status=enum("applied", "proposed", "rejected", "reverted", "failed"),
                          changes=Many(obj(op=enum(*FILE_OPS), root=ID, path=PATH, **{"from": PATH},
                                           linesAdded=NUMBER, linesRemoved=NUMBER, hunks=DROP, before=DROP,
                                           after=DROP, diff=DROP)),
                          precision=enum("hunks", "full", "paths", "none")),
    "vcs": record("vcs", action=enum("commit", "push", "checkout", "merge", "rebase", "reset", "tag",
                                     "branch"),
                  root=ID, commit=_SHA_ID, parents=Many(_SHA_ID), branch=DROP, message=DROP,
                  cause=obj(callId=ID), evidence=enum("parsed_output", "observed", "repository", "hook",
                                                      "native", "mention")),
    "state": record("state", state=enum("idle", "running", "waiting", "interrupted", "cancelled", "canceled",
                                        "aborted", "error", "done", "completed"),
                    stopReason=enum("end_turn", "tool_use", "max_tokens", "interrupted", "error", "user")),
    "usage_summary": record("usage_summary", scope=enum("session", "turn", "subagent"), cumulative=BOOL,
                            includesChildren=BOOL, coverage=enum("complete", "partial", "unknown"),
                            callCount=NUMBER, usage=_USAGE, cost=_COST),
    "compaction": record("compaction", trigger=enum("auto", "manual"), summary=DROP, tokensBefore=NUMBER,
                         tokensAfter=NUMBER),
    **{kind: record(kind) for kind, how in RECORD_TYPES.items() if how == "skipped"},
})

TABLE = Table(FORMAT, RECORD, {})
