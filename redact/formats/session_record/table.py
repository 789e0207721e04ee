"""The agent session-record stream (seed 002), declared: record types and the class of every field.

A stream is JSON Lines; line 1 is the session header (`{"type": "session", "formatVersion": ...}`).
Order is `seq`, not `ts`; timestamps are optional and never made up. `session_record.py` (the reader)
reads only what these tables mark as used; docs/formats.md renders them.
"""
from __future__ import annotations

from typing import Any

#: Record types. "mapped": read for facts; "skipped": counted by name in the report, never read.
RECORD_TYPES: dict[str, str] = {
    "session": "mapped",  # the header: session id, agent, workspace roots (paths), lineage (role)
    "message": "mapped",  # a human prompt (shape only); assistant text and reasoning -> its inference
    "inference": "mapped",  # one model call -> llm event (usage, latency, stop reason)
    "tool_call": "mapped",  # a tool call, paired with its tool_result by callId
    "tool_result": "mapped",  # status, exit code, duration, byte count; confirmations of PRs
    "file_change": "mapped",  # the edit targets of the call that caused it (cause.callId)
    "vcs": "mapped",  # commit, only with its evidence and the call that caused it
    "state": "mapped",  # interrupted/cancelled -> error (orchestration); other states skipped
    "usage_summary": "mapped",  # used only when no inference record carries usage (never both)
    "compaction": "mapped",  # -> compaction
    "subagent": "skipped",
    "rewind": "skipped",
    "participants": "skipped",
    "conversation": "skipped",
    "delivery": "skipped",
}

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
#: `vcs.evidence` values that confirm a commit (the producer saw it, not a mention)
COMMIT_EVIDENCE = frozenset({"parsed_output", "observed", "repository", "hook", "native"})

#: The field table: location -> class -> what the reader keeps ("-" = never read).
FIELDS: tuple[tuple[str, str, str], ...] = (
    ("*.type", "enum", "record dispatch"),
    ("*.seq / id", "id", "- (records are read in order)"),
    ("*.ts", "timestamp", "event times; a record without one takes the last known time"),
    ("session.sessionId", "id", "session.id (hashed when not a uuid or hex)"),
    ("session.agent.name", "ident:agent_tool", "agentTool when on the public list, else `other`"),
    ("session.agent.version / formatVersion", "version", "-"),
    ("session.producer.*", "enum/text", "-"),
    ("session.startedAt", "timestamp", "startedAt of an empty session"),
    ("session.lineage.root / lineage.parent", "bool/id", "role (root, subagent; absent: unknown)"),
    ("session.workspace.roots[].id", "id", "resolves {root, path} locations"),
    ("session.workspace.roots[].path", "path", "repository roots (never written)"),
    ("session.workspace.roots[].vcs.remote", "ident:remote", "repos[].remote (first root)"),
    ("session.workspace.roots[].vcs.head / branch / dirty", "id/ident/bool", "-"),
    ("session.environment / profiles / contentLevel / extensions / authority / scope", "enum/blob",
     "profiles: `coding` means commits come from vcs records only"),
    ("message.role / author / origin / audience / status", "enum", "which messages are prompts"),
    ("message.content[].text (type text)", "text", "length and URL count (chars, urls), or textChars"),
    ("message.content[] (type reasoning)", "text", "presence only (thinking)"),
    ("message.content[] (type image)", "blob", "count only (images)"),
    ("message.inferenceId / messageId", "id", "the inference an assistant message belongs to"),
    ("inference.inferenceId", "id", "pairs messages and calls with their inference"),
    ("inference.model.id", "ident:model", "llm model"),
    ("inference.model.provider / requested", "ident", "-"),
    ("inference.usage.input.uncached / cacheRead / cacheWrite, usage.output.total", "number",
     "in, cr, cw, out"),
    ("inference.latency.durationMs", "number", "latency"),
    ("inference.stopReason", "enum", "stop"),
    ("inference.purpose / params / cost", "enum/blob/number", "-"),
    ("tool_call.callId", "id", "pairs call and result"),
    ("tool_call.name", "ident:tool", "event kind (the shared tool table), tool, mcp server/tool"),
    ("tool_call.kind", "enum", "event kind when the name is not in the tool table"),
    ("tool_call.title", "text", "-"),
    ("tool_call.input", "blob", "file path, command, URL host, subagent type (the shared tool table); "
     "nothing else"),
    ("tool_result.status", "enum", "err, errClass"),
    ("tool_result.content[].text", "text", "byte count; errClass from the wording; PR confirmations"),
    ("tool_result.exec.command", "command", "verb (preferred to the call's input)"),
    ("tool_result.exec.exitCode", "number", "exitCode"),
    ("tool_result.exec.cwd", "path", "-"),
    ("tool_result.durationMs", "number", "dur"),
    ("tool_result.capture / linkage", "blob/enum", "-"),
    ("file_change.cause.callId", "id", "the call whose edit targets these are"),
    ("file_change.cause.actor / observed", "enum/bool", "a human's change is skipped"),
    ("file_change.status", "enum", "only `applied` changes are targets"),
    ("file_change.changes[].op", "enum", "file op"),
    ("file_change.changes[].root / path / from", "id/path", "targets"),
    ("vcs.action", "enum", "commit"),
    ("vcs.commit", "id", "commit sha"),
    ("vcs.evidence", "enum", "a commit needs one (parsed_output, observed, ...)"),
    ("vcs.cause.callId", "id", "the call the commit event follows"),
    ("vcs.branch / parents / root", "ident/id", "-"),
    ("state.state", "enum", "interrupted / cancelled -> error"),
    ("state.stopReason", "enum", "-"),
    ("usage_summary.usage.*", "number", "one llm event, only when no inference carries usage"),
    ("usage_summary.scope / cumulative / coverage / callCount / cost", "enum/number", "scope: "
     "session only"),
    ("compaction.trigger", "enum", "trigger"),
)

_HEADER_KEYS = ("formatVersion",)


def sniff(records: list[dict[str, Any]]) -> bool:
    """Line 1 is the session header."""
    if not records:
        return False
    first = records[0]
    return first.get("type") == "session" and "formatVersion" in first


def markdown() -> str:
    lines = ["| record type | handling |", "|---|---|"]
    for kind, how in RECORD_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
