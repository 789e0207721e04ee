"""teaagent run audit logs (seed 003) under `--to native`: the record at audit level L2.

This is the richest record a native log holds; levels L1 and L0 keep less of it (`LEVELS`). At L2 the
seed masks sensitive payload fields as `"[REDACTED]"`, and so does this table: every text field (the
task, reasoning, error messages, answers, tool output) becomes the placeholder, tool arguments keep
only what the shared tool table reads (paths in the path mode, commands as verbs, URL hosts), and
every field the table does not know is dropped. `prev_hash`, `hash` and `chain_hmac` are recomputed
by `native.py`, never copied.
"""
from __future__ import annotations

from dataclasses import replace

from redact.tables.spec import (
    BOOL, ID, NUMBER, TIMESTAMP, Obj, Spec, Switch, Table, const, enum, handling, Leaf, ident, mask, obj,
    tool, used,
)
from redact.formats.tooltable import inputs_of, spellings

FORMAT = "teaagent"
PLACEHOLDER = "[REDACTED]"
MASK = mask(PLACEHOLDER)
#: Audit levels a native log can be written at, and the top-level fields each keeps (seed 003: L0
#: metrics-safe, L1 adds the event id and tool names, L2 a redacted payload).
LEVELS: dict[str, tuple[str, ...]] = {
    "L0": ("event_type", "run_id", "created_at"),
    "L1": ("event_id", "event_type", "run_id", "created_at", "payload"),
    "L2": ("event_id", "event_type", "run_id", "created_at", "payload"),
}
DEFAULT_LEVEL = "L2"
#: Fields of a payload that L1 keeps (the tool name, no arguments).
L1_PAYLOAD = ("tool_name",)
#: Byte form of the hash chain written here: the record without `hash` and `chain_hmac`, keys sorted,
#: compact separators, non-ASCII escaped; `hash` is its SHA-256 and `chain_hmac` HMAC-SHA256 under the
#: chain key, both lowercase hex. The first record's `prev_hash` is null.

_TOOL = tool(*spellings())
_PROVIDER = enum("claude", "anthropic", "gpt", "openai", "gemini", "google", "ollama", "mistral", "bedrock",
                 "azure", "openrouter", "local")
_ANNOTATIONS = obj(read_only=BOOL, destructive=BOOL, security_tier=enum("Low", "Medium", "High", "Critical"))
#: `tool_error.error_type` (a Python exception class name) -> errClass (None: the reader takes the
#: class from the wording of `error_message`). The one list: the table's enum is built from it.
ERROR_CLASSES: dict[str, str | None] = {
    "PermissionError": "permission_denied", "PermissionDenied": "permission_denied",
    "TimeoutError": "timeout", "TimeoutExpired": "timeout", "FileNotFoundError": "not_found",
    "NotFoundError": "not_found", "IsADirectoryError": "validation", "ValueError": "validation",
    "ValidationError": "validation", "TypeError": "validation", "KeyError": "validation",
    "CalledProcessError": "exit_code", "KeyboardInterrupt": "interrupted", "CancelledError": "interrupted",
    "ApprovalDenied": "permission_denied", "BlockedError": "blocked",
    "RuntimeError": None, "OSError": None, "Exception": None,
}
#: The same, as the reader looks it up (the class name lowercased), classified names only.
ERROR_TYPES: dict[str, str] = {name.lower(): cls for name, cls in ERROR_CLASSES.items() if cls is not None}
#: `run_end.status` -> errClass of an orchestration error event (None: no error). The one list: the
#: table's enum is built from it.
RUN_END: dict[str, str | None] = {
    "completed": None, "failed": "api_error", "approval_denied": None, "limit_exceeded": "usage_limit",
    "cost_exceeded": "spend_limit",
}
#: `tool_result.result` fields that hold the tool's output (the reader counts their bytes).
OUTPUT_FIELDS: tuple[str, ...] = ("output", "stdout", "stderr", "content", "text")


_CALL_ID = used("pairs call, result, error and approvals", ID)
_EXIT = used("exit code", NUMBER)
_OUT = used("byte count", MASK)


def _NAMED(spec: Leaf) -> Leaf:
    return used("event kind (the shared tool table), tool", spec)


def _ARGUMENTS(spec: Obj) -> Obj:
    return used("path, command, URL host (the shared tool table); placeholders such as [REDACTED] are "
                "never read as values", spec)


def _reads(what: str, payload: Spec) -> Spec:
    """An event type the reader maps, and what it reads of it."""
    return used(what, payload)


def _with_arguments(**fields: Spec) -> Spec:
    """A payload with a tool's `arguments`: reduced by the tool's kind (shared tool table)."""
    return Switch("tool_name", {
        name: Obj({**fields, "tool_name": _NAMED(const(name)), "arguments": _ARGUMENTS(Obj(inputs_of(kind)))})
        for name, kind in spellings().items()
    }, default=Obj({**fields, "tool_name": _NAMED(_TOOL), "arguments": _ARGUMENTS(obj())}))


#: Each event type's payload. An event type the reader maps says what it reads (`_reads`); the
#: others are skipped, counted by name (EVENT_TYPES below is read off this).
PAYLOADS: dict[str, Spec] = {
    "run_start": _reads("the task (shape only: a user turn), the model", obj(
        task=used("length only (a user turn)", MASK), provider=_PROVIDER, model=used("llm model", ident("model")),
        permission_mode=enum("prompt", "allow", "deny", "auto", "workspace-write", "read-only", "full-access",
                             "plan"),
        max_iterations=NUMBER, max_tool_calls=NUMBER, max_estimated_cost_cents=NUMBER, git_sandbox=BOOL,
        allow_destructive=BOOL)),
    "run_end": _reads("failed / cost_exceeded / limit_exceeded -> error (orchestration)", obj(
        status=used("error event for failed / cost_exceeded / limit_exceeded", enum(*RUN_END)),
        iterations=NUMBER, tool_calls=NUMBER, cost_cents=NUMBER, input_tokens=NUMBER, output_tokens=NUMBER,
        error_message=MASK, final_answer=MASK)),
    "tool_call": _reads("a tool call (the shared tool table), paired by call_id", _with_arguments(
        call_id=_CALL_ID, reasoning=MASK, annotations=_ANNOTATIONS)),
    "tool_result": _reads("success, duration, byte count", obj(
        tool_name=_TOOL, call_id=_CALL_ID, elapsed_ms=used("dur", NUMBER), result=obj(
            success=used("err", BOOL), bytes_written=NUMBER, exit_code=_EXIT, returncode=_EXIT,
            **{name: _OUT for name in OUTPUT_FIELDS}))),
    "tool_error": _reads("a failed call: errClass from error_type", obj(
        tool_name=_TOOL, call_id=_CALL_ID, error_type=used("errClass", enum(*ERROR_CLASSES)),
        error_message=used("errClass from the wording when error_type says nothing", MASK))),
    "approval_request": _reads("the call waits on the user", _with_arguments(
        call_id=_CALL_ID, reason=MASK, annotations=_ANNOTATIONS)),
    "approval_granted": _reads("the wait on the user ends (nothing more)", obj(
        call_id=_CALL_ID, tool_name=_TOOL, reason=MASK,
        granted_by=enum("jit_prompt", "preset", "multi_sig", "pre_approved"))),
    "approval_denied": _reads("the call fails: permission_denied", obj(
        call_id=_CALL_ID, tool_name=_TOOL, reason=MASK,
        granted_by=enum("jit_prompt", "preset", "multi_sig", "pre_approved"))),
    "model_request": _reads("starts an llm event (model, input tokens)", obj(
        provider=_PROVIDER, model=used("llm model", ident("model")), input_tokens=used("in", NUMBER),
        tool_count=NUMBER, iteration=NUMBER)),
    "model_response": _reads("ends it (output tokens, stop reason, tool calls requested)", obj(
        stop_reason=used("stop", enum("tool_use", "end_turn", "max_tokens", "stop_sequence")),
        output_tokens=used("out", NUMBER), cost_cents=NUMBER, tool_calls_requested=used("toolCalls", NUMBER))),
    # cumulative: the per-request records are used, never both
    "cost_checkpoint": obj(cumulative_cost_cents=NUMBER, cumulative_input_tokens=NUMBER,
                           cumulative_output_tokens=NUMBER, cap_cents=NUMBER),
}


_CHAIN = used("the hash chain, verified on read (a break is a report warning)", ID)


def _event(kind: str, payload: Spec) -> Obj:
    """One event type's record; what the reader reads of it (its payload's `use`) is the record's."""
    return Obj({"event_id": ID, "event_type": const(kind), "run_id": used("session.id (hashed)", ID),
                "created_at": used("event times", TIMESTAMP), "payload": replace(payload, use=""), "prev_hash": _CHAIN,
                "hash": _CHAIN, "chain_hmac": used("- (needs the chain key, which the log does not hold)", ID)}, use=payload.use)


RECORD = used("record dispatch", Switch("event_type", {kind: _event(kind, payload) for kind, payload in PAYLOADS.items()}))
#: Event types: "mapped" (read for facts) or "skipped" (counted by name in the report, never read).
EVENT_TYPES: dict[str, str] = handling(RECORD)
TABLE = Table(FORMAT, RECORD, {})
