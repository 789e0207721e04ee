"""Agent Replay traces (seed 004) under `--to native`: a Run and its Steps.

Built on the reader's table (`redact/formats/agent_replay/table.py`, its step types and usage keys)
and on the shared tool table for `tool_call` steps (`redact/native/tables/tools.py`). A step's
`input`, `output`, `state_before` and `state_after` are reduced to their shape (`{"chars": N}`, the
length of the value's text or JSON text); the input of a `tool_call` step that is an object keeps
only what the shared tool table reads (paths in the path mode, commands as verbs, URL hosts).
`metadata` keeps its model and provider; the Run's task becomes its shape and its agent name goes.
Every layout the reader reads is covered: `{"run", "steps"}`, a Run with its `steps`, and JSON Lines.
"""
from __future__ import annotations

from redact.formats.agent_replay.table import STEP_TYPES, USAGE_KEYS
from redact.native.spec import (
    DROP,
    ID,
    NUMBER,
    SHAPE,
    TIMESTAMP,
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

FORMAT = "agent-replay"

_PROVIDER = enum("openai", "anthropic", "google", "gemini", "mistral", "cohere", "ollama", "azure", "bedrock",
                 "groq", "together", "local")
METADATA = obj(model=ident("model"), provider=_PROVIDER)
USAGE = Obj({**{key: NUMBER for keys in USAGE_KEYS.values() for key in keys},
             "total_tokens": NUMBER, "cost": NUMBER, "cost_usd": NUMBER, "model": ident("model")})

_STEP: dict[str, Spec] = {
    "step_id": ID, "run_id": ID, "parent_step_id": ID, "timestamp": TIMESTAMP, "usage": USAGE,
    "metadata": METADATA, "output": SHAPE, "state_before": SHAPE, "state_after": SHAPE, "error": SHAPE,
}
_TOOL = tool(*spellings())


def _tool_step(name: Spec, inputs: dict[str, Spec]) -> Obj:
    return Obj({**_STEP, "type": const("tool_call"), "name": name, "input": ByType(obj=Obj(inputs), text=SHAPE,
                                                                                       items=SHAPE, scalar=SHAPE)})


STEP = Switch("type", {
    "tool_call": Switch("name", {spelled: _tool_step(const(spelled), inputs_of(kind))
                                 for spelled, kind in spellings().items()},
                        default=_tool_step(_TOOL, {})),
    **{kind: Obj({**_STEP, "type": const(kind), "name": DROP, "input": SHAPE})
       for kind in STEP_TYPES if kind != "tool_call"},
})
RUN_FIELDS: dict[str, Spec] = {
    "run_id": ID, "agent_name": DROP, "task": SHAPE, "started_at": TIMESTAMP, "ended_at": TIMESTAMP,
    "status": enum("running", "success", "failed"), "cost_usd": NUMBER, "latency_ms": NUMBER,
    "metadata": METADATA, "schema_version": VERSION,
}
RUN = Obj(RUN_FIELDS)
#: One JSON document: `{"run": {...}, "steps": [...]}`, or the Run's fields with its `steps`.
DOCUMENT = Obj({**RUN_FIELDS, "run": RUN, "steps": Many(STEP)})
#: JSON Lines: the Run on one line (no `type`), one Step per line.
LINE = Switch("type", {kind: STEP for kind in STEP_TYPES}, default=RUN)

TABLE = Table(FORMAT, LINE, {}, document=DOCUMENT, document_key="steps")
