"""Agent session-record streams (seed 002) under `--to native`: what every field becomes.

The format's one table: the reader's record types (`RECORD_TYPES`, read off the tree) and value
tables (call kinds, result statuses, file ops, commit evidence, interrupted states) are here too; `redact/formats/toolnames.py` says which input fields of which tool are paths, commands, URLs or
identifiers). A tool call's input is reduced by the call's own `kind` when it states one, else by its
tool name; a `{root, path}` location keeps its root id and has its path in the path mode; each
`workspace.roots[].path` is `.` (a repository root) or a bucket label.

The header says what this did: `contentLevel` is lowered to `metadata` (the stream keeps structure,
sizes and identifiers, no content) unless it was lower already, and `producer.lossy` lists what was
removed (`LOSSY_ADDED`).
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERB, VERSION, ByType, Many, Obj, Spec, Switch,
    Table, const, enum, handling, ident, Leaf, obj, tool, used,
)
from redact.formats.tooltable import inputs_of, spellings

FORMAT = "session-record"

#: `tool_call.kind` (the producer's own classification) -> event kind, when the tool's name is not
#: in the shared tool table (`toolnames.py`).
CALL_KINDS: dict[str, str] = {
    "read": "read", "edit": "edit", "delete": "edit", "move": "edit", "search": "search",
    "execute": "exec", "fetch": "web", "think": "tool", "other": "tool",
}
#: `tool_result.status` -> (error, errClass)
RESULT_STATUS: dict[str, tuple[bool, str | None]] = {
    "completed": (False, None), "succeeded": (False, None), "success": (False, None), "ok": (False, None),
    "failed": (True, None), "error": (True, None), "denied": (True, "permission_denied"),
    "rejected": (True, "permission_denied"), "cancelled": (True, "interrupted"),
    "canceled": (True, "interrupted"), "interrupted": (True, "interrupted"), "timeout": (True, "timeout"),
    "timed_out": (True, "timeout"),
}
#: `file_change.changes[].op` -> the map's file op
FILE_OPS: dict[str, str] = {
    "create": "create", "add": "create", "added": "create", "modify": "modify", "update": "modify",
    "modified": "modify", "edit": "modify", "delete": "delete", "remove": "delete", "deleted": "delete",
    "rename": "rename-to", "move": "rename-to",
}
#: `vcs.evidence` values that confirm a commit (the producer saw it); the others (a mention) do not.
COMMIT_EVIDENCE = frozenset({"parsed_output", "observed", "repository", "hook", "native"})
_OTHER_EVIDENCE = ("mention",)
#: `state.state` values that end the run early: an error event (orchestration); the others are skipped.
INTERRUPTED_STATES = frozenset({"interrupted", "cancelled", "canceled", "aborted"})
_OTHER_STATES = ("idle", "running", "waiting", "error", "done", "completed")

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
    "type": const("tool_call"), "seq": NUMBER, "id": ID, "ts": TIMESTAMP,
    "callIdSource": enum("native", "derived", "synthetic"), "inferenceId": ID, "messageId": ID,
    "parentCallId": ID, "title": DROP, "callId": used("pairs call and result", ID),
}
_NAME_USE = "event kind (the shared tool table), tool, mcp server/tool"
_INPUT_USE = "file path, command, URL host, subagent type (the shared tool table); nothing else"
_KIND_USE = "event kind when the name is not in the tool table"


def _name_cases() -> dict[str, Spec]:
    """Tool names of the shared table, in the spellings harnesses use: each keeps its name and the
    input fields of its kind."""
    return {spelled: Obj({**_CALL_FIELDS, "name": used(_NAME_USE, const(spelled)),
                          "kind": used(_KIND_USE, enum(*CALL_KINDS)), "input": used(_INPUT_USE, Obj(inputs_of(kind)))})
            for spelled, kind in spellings().items()}


TOOL_CALL = Switch(
    "kind",
    {kind: Obj({**_CALL_FIELDS, "kind": used(_KIND_USE, const(kind)), "name": used(_NAME_USE, _TOOL),
                "input": used(_INPUT_USE, Obj(inputs))})
     for kind, inputs in _BY_STATED_KIND.items()},
    default=Switch("name", _name_cases(),
                   default=Obj({**_CALL_FIELDS, "kind": used(_KIND_USE, enum(*CALL_KINDS)),
                                "name": used(_NAME_USE, _TOOL), "input": used(_INPUT_USE, obj())})),
)

_CONTENT = Many(Switch("type", {
    "text": obj(type=const("text"), text=used("length and URL count (chars, urls), or textChars; in a "
                                              "tool_result: byte count, errClass from the wording, PR "
                                              "confirmations", SHAPE)),
    "reasoning": used("presence only (thinking)", obj(type=const("reasoning"), visibility=enum(
        "full", "summary", "redacted", "none"), text=SHAPE, signature=DROP)),
    "image": used("count only (images)", obj(type=const("image"), mediaType=enum("image/png", "image/jpeg", "image/gif", "image/webp"),
                 data=SHAPE, blob=DROP, url=DROP, text=DROP)),  # the reader asks every part for `text`
}))
_USAGE = obj(input=obj(uncached=used("in", NUMBER), cacheRead=used("cr", NUMBER), cacheWrite=used("cw", NUMBER),
                       total=NUMBER),
             output=obj(total=used("out", NUMBER), reasoning=NUMBER))
_COST = obj(amount=NUMBER, currency=enum("USD", "EUR"), source=enum("harness_estimated", "provider_reported",
                                                                     "converter_estimated"))
_BASE: dict[str, Spec] = {"seq": NUMBER, "id": ID,
                          "ts": used("event times; a record without one takes the last known time", TIMESTAMP)}


def record(kind: str, **fields: Spec) -> Obj:
    return Obj({**_BASE, "type": const(kind), **fields})


HEADER = record(
    "session", formatVersion=VERSION, sessionId=used("session.id (hashed when not a uuid or hex)", ID),
    agent=obj(name=used("agentTool when on the public list, else `other`", ident("agent_tool")), version=VERSION),
    producer=obj(name=ident("agent_tool"), version=VERSION,
                 method=enum("native", "converter", "proxy", "hook", "sdk", "import"), instance=DROP,
                 source=obj(format=enum("claude-code-jsonl", "codex-rollout", "codex-jsonl", "gemini-json",
                                        "opencode", "cursor", "aider")),
                 lossy=Many(enum(*LOSSY_KNOWN))),
    authority=enum("local", "remote", "shared"), startedAt=used("startedAt of an empty session", TIMESTAMP),
    endedAt=TIMESTAMP,
    lineage=used("role (root, subagent; absent: unknown)", obj(root=BOOL, parent=ByType(text=ID, obj=obj(sessionId=ID, agent=ident("agent_tool"), callId=ID)),
                forkedFrom=ID)),
    scope=enum("primary", "subagent", "helper"),
    workspace=obj(roots=Many(obj(id=used("resolves {root, path} locations", ID),
                                 path=used("repository roots (never written)", CWD), vcs=obj(
        type=enum("git", "hg", "svn", "jj"), remote=used("repos[].remote (first root)", ident("remote")), head=ID,
        branch=DROP, dirty=BOOL)))),
    environment=obj(os=enum("linux", "macos", "darwin", "windows"), shell=enum("bash", "zsh", "sh", "fish",
                                                                                 "powershell", "pwsh", "cmd")),
    profiles=used("`coding` means commits come from vcs records only", Many(enum("core", "coding", "usage", "conversation", "delivery"))),
    contentLevel=enum(*CONTENT_LEVELS[:CONTENT_LEVELS.index(NATIVE_LEVEL) + 1]),
    extensions=DROP,
)

_INFERENCE_OF = used("the inference an assistant message belongs to", ID)
_TARGET = used("targets", ID)
_TARGET_PATH = used("targets", PATH)


def _reads(what: str, node: Spec) -> Spec:
    """A record type the reader maps, and what it reads of it."""
    return used(what, node)


def _PROMPTS(spec: Leaf) -> Leaf:
    return used("which messages are prompts", spec)


def _STOP(spec: Leaf) -> Leaf:
    return used("stop", spec)


def _COMMIT(spec: Leaf) -> Leaf:
    return used("commit", spec)


RECORD = used("record dispatch", Switch("type", {
    "session": _reads("the header: session id, agent, workspace roots (paths), lineage (role)", HEADER),
    "message": _reads("a human prompt (shape only); assistant text and reasoning -> its inference", record(
        "message", messageId=_INFERENCE_OF, inferenceId=_INFERENCE_OF,
        role=_PROMPTS(enum("user", "assistant", "system", "tool")),
        author=_PROMPTS(enum("human", "model", "harness", "tool", "system")),
        origin=_PROMPTS(enum("prompt", "injected", "queued", "hook", "command", "resume")),
        audience=_PROMPTS(enum("both", "model", "human")),
        status=_PROMPTS(enum("complete", "partial", "interrupted")),
        content=_CONTENT)),
    "inference": _reads("one model call -> llm event (usage, latency, stop reason)", record(
        "inference", inferenceId=used("pairs messages and calls with their inference", ID),
        purpose=enum("turn", "summary", "title", "compaction", "subagent", "other"),
        model=obj(provider=enum("anthropic", "openai", "google", "mistral", "xai", "meta", "deepseek", "local"),
                  id=used("llm model", ident("model")), requested=ident("model")),
        params=obj(effort=enum("minimal", "low", "medium", "high", "xhigh"), temperature=NUMBER, maxTokens=NUMBER),
        usage=_USAGE, cost=_COST, latency=obj(ttftMs=NUMBER, durationMs=used("latency", NUMBER)),
        stopReason=_STOP(enum("tool_use", "end_turn", "max_tokens", "stop_sequence", "refusal", "pause_turn",
                              "error")))),
    "tool_call": _reads("a tool call, paired with its tool_result by callId", TOOL_CALL),
    "tool_result": _reads("status, exit code, duration, byte count; confirmations of PRs", record(
        "tool_result", callId=ID, linkage=enum("exact", "derived", "ambiguous"),
        status=used("err, errClass", enum(*sorted(RESULT_STATUS))),
        content=_CONTENT,
        capture=obj(content=obj(state=enum("complete", "truncated", "omitted", "redacted"), originalBytes=NUMBER,
                                blob=obj(blob=DROP, size=NUMBER))),
        exec=obj(command=used("verb (preferred to the call's input)", VERB), cwd=obj(root=ID, path=CWD),
                 exitCode=used("exitCode", NUMBER), signal=DROP),
        durationMs=used("dur", NUMBER), error=DROP)),
    "file_change": _reads("the edit targets of the call that caused it (cause.callId)", record(
        "file_change", cause=obj(callId=used("the call whose edit targets these are", ID),
                                 actor=used("a human's change is skipped", enum("agent", "human", "tool")),
                                 observed=used("a human's change is skipped", BOOL)),
        status=used("only `applied` changes are targets", enum("applied", "proposed", "rejected", "reverted",
                                                               "failed")),
        changes=Many(obj(op=used("file op", enum(*FILE_OPS)), root=_TARGET, path=_TARGET_PATH,
                         **{"from": _TARGET_PATH}, linesAdded=NUMBER, linesRemoved=NUMBER, hunks=DROP, before=DROP,
                         after=DROP, diff=DROP)),
        precision=enum("hunks", "full", "paths", "none"))),
    "vcs": _reads("commit, only with its evidence and the call that caused it", record(
        "vcs", action=_COMMIT(enum("commit", "push", "checkout", "merge", "rebase", "reset", "tag", "branch")),
        root=ID, commit=used("commit sha", _SHA_ID), parents=Many(_SHA_ID), branch=DROP, message=DROP,
        cause=obj(callId=used("the call the commit event follows", ID)),
        evidence=used("a commit needs one (parsed_output, observed, ...)", enum(
            *sorted(COMMIT_EVIDENCE), *_OTHER_EVIDENCE)))),
    "state": _reads("interrupted/cancelled -> error (orchestration); other states skipped", record(
        "state", state=used("interrupted / cancelled -> error", enum(*sorted(INTERRUPTED_STATES), *_OTHER_STATES)),
        stopReason=enum("end_turn", "tool_use", "max_tokens", "interrupted", "error", "user"))),
    "usage_summary": _reads("used only when no inference record carries usage (never both)", record(
        "usage_summary", scope=used("session only", enum("session", "turn", "subagent")), cumulative=BOOL,
        includesChildren=BOOL, coverage=enum("complete", "partial", "unknown"), callCount=NUMBER,
        usage=used("one llm event, only when no inference carries usage", _USAGE), cost=_COST)),
    "compaction": _reads("-> compaction", record(
        "compaction", trigger=used("trigger", enum("auto", "manual")), summary=DROP, tokensBefore=NUMBER,
        tokensAfter=NUMBER)),
    # skipped: counted by name, never read
    **{kind: record(kind) for kind in ("subagent", "rewind", "participants", "conversation", "delivery")},
}))
#: Record types: "mapped" (read for facts) or "skipped" (counted by name in the report, never read).
RECORD_TYPES: dict[str, str] = handling(RECORD)

TABLE = Table(FORMAT, RECORD, {})
