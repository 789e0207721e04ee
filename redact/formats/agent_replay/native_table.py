"""Agent Replay traces (seed 004) under `--to native`: a Run and its Steps.

The format's one table (its step types and usage keys are here; `table.py` has the sniffers), built
on the shared tool table for `tool_call` steps (`redact/formats/tooltable.py`). A step's
`input`, `output`, `state_before` and `state_after` are reduced to their shape (`{"chars": N}`, the
length of the value's text or JSON text); the input of a `tool_call` step that is an object keeps
only what the shared tool table reads (paths in the path mode, commands as verbs, URL hosts).
`metadata` keeps its model and provider; the Run's task becomes its shape and its agent name goes.
Every layout the reader reads is covered: `{"run", "steps"}`, a Run with its `steps`, and JSON Lines.
"""
from __future__ import annotations

from redact.tables.spec import (
    DROP, ID, NUMBER, SHAPE, TIMESTAMP, VERSION, ByType, Many, Obj, Spec, Switch, Table, const, enum,
    handling, ident, obj, tool, used,
)
from redact.formats.tooltable import inputs_of, spellings

FORMAT = "agent-replay"

#: Usage keys read from `usage` (aliases of the same number).
USAGE_KEYS: dict[str, tuple[str, ...]] = {
    "in": ("input_tokens", "prompt_tokens"),
    "cr": ("cache_read_input_tokens", "cached_tokens", "cache_read_tokens"),
    "cw": ("cache_creation_input_tokens", "cache_write_tokens"),
    "out": ("output_tokens", "completion_tokens"),
    "latency": ("latency_ms", "duration_ms"),
}
#: Step types the reader maps, and what it makes of each (STEP_TYPES below is read off the tree).
_STEPS: dict[str, str] = {
    "llm_call": "-> llm event (model, usage, latency, output length)",
    "tool_call": "-> tool event (the shared tool table); with child steps: a subagent",
    "retrieval": "-> tool event, tool `retrieval`",
    "memory_read": "-> tool event, tool `memory_read`",
    "memory_write": "-> tool event, tool `memory_write`",
}

_PROVIDER = enum("openai", "anthropic", "google", "gemini", "mistral", "cohere", "ollama", "azure", "bedrock",
                 "groq", "together", "local")
METADATA = obj(model=used("llm model (llm_call)", ident("model")), provider=_PROVIDER)
USAGE = Obj({**{key: used(use if use != "latency" else "latency or dur", NUMBER)
                for use, keys in USAGE_KEYS.items() for key in keys},
             "total_tokens": NUMBER, "cost": NUMBER, "cost_usd": NUMBER,
             "model": used("llm model (llm_call)", ident("model"))})
#: Names the reader looks for inside a step's `output` (a leaf it opens itself): the text of a model's
#: output message, and its tool calls (counted).
OUTPUT_TEXT: tuple[str, ...] = ("content", "text", "message")
OUTPUT_CALLS = "tool_calls"
_NESTING = used("order and nesting: a tool_call with child steps is a subagent; its children are that "
                "subagent's lane", ID)

_STEP: dict[str, Spec] = {
    "step_id": _NESTING, "run_id": ID, "parent_step_id": _NESTING, "timestamp": used("event time", TIMESTAMP),
    "usage": USAGE, "metadata": METADATA,
    "output": used(f"length (llm textChars: a string, else the first {' / '.join(OUTPUT_TEXT)} string a few "
                   f"levels down; its {OUTPUT_CALLS} counted) or byte count (outBytes)", SHAPE), "state_before": SHAPE,
    "state_after": SHAPE, "error": used("err; errClass from the wording", SHAPE),
}
_TOOL = tool(*spellings())


def _tool_step(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return Obj({**_STEP, "type": const("tool_call"), "name": used("event kind (the shared tool table), tool", name),
                "input": ByType(obj=used("path, command, URL host (the shared tool table)", Obj(inputs)), text=SHAPE,
                                items=SHAPE, scalar=SHAPE)})


STEP = used("record dispatch (STEP_TYPES)", Switch("type", {
    "tool_call": used(_STEPS["tool_call"], Switch("name", {spelled: _tool_step(const(spelled), inputs_of(kind))
                                 for spelled, kind in spellings().items()},
                        default=_tool_step(_TOOL, {}))),
    **{kind: Obj({**_STEP, "type": const(kind), "name": DROP,
                  "input": used("llm model, when its `model` names one", SHAPE) if kind == "llm_call" else SHAPE}, use=what)
       for kind, what in _STEPS.items() if kind != "tool_call"},
}))
#: Step types -> handling ("mapped": read for facts).
STEP_TYPES: dict[str, str] = handling(STEP)
RUN_FIELDS: dict[str, Spec] = {
    "run_id": used("session.id (`run_` + 12 hex: the hex; else hashed)", ID), "agent_name": DROP,
    "task": used("length only (a user turn)", SHAPE),
    "started_at": used("event times of steps without a timestamp", TIMESTAMP),
    "ended_at": used("event times of steps without a timestamp", TIMESTAMP),
    "status": used("failed -> error (orchestration) when no step failed", enum("running", "success", "failed")),
    "cost_usd": NUMBER, "latency_ms": NUMBER,
    "metadata": METADATA, "schema_version": VERSION,
}
RUN = Obj(RUN_FIELDS)
#: One JSON document: `{"run": {...}, "steps": [...]}`, or the Run's fields with its `steps`.
DOCUMENT = Obj({**RUN_FIELDS, "run": RUN, "steps": Many(STEP)})
#: JSON Lines: the Run on one line (no `type`), one Step per line.
#: (The reader asks each line for its `step_id`: a line with one is a Step, never the Run.)
LINE = Switch("type", {kind: STEP for kind in STEP_TYPES}, default=Obj(
    {**RUN_FIELDS, "step_id": used("a line with one is a Step, not the Run", DROP)}))

TABLE = Table(FORMAT, LINE, {}, document=DOCUMENT, document_key="steps")
