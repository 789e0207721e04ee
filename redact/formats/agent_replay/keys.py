"""The keys Agent Replay's reader, sniffers and native scrubber read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import.

Two views of the table: `S` from its root (a JSON Lines trace: the Run's line, a Step per line) and
`D` from its one-document layout (`{"run": {...}, "steps": [...]}` or the Run's fields with its
`steps`). A Step's places are taken under the document's `steps`; a Run's field is proven in all three
places a Run is (a line, the document's `run`, the document itself).
"""
from __future__ import annotations


from redact.formats.agent_replay.native_table import DOCUMENT, OUTPUT_CALLS, OUTPUT_TEXT, TABLE, USAGE_KEYS
from redact.formats.slots import Slots

S = Slots(TABLE)
D = Slots(TABLE, root=DOCUMENT)


def _run(name: str) -> str:
    D.key("run", name)
    D.key(name)
    return S.key(name)


# the document
RUN, STEPS = D.key("run"), D.key("steps")
# the Run
RUN_ID, STARTED, ENDED, TASK, STATUS = (_run(name) for name in ("run_id", "started_at", "ended_at", "task",
                                                                   "status"))
#: a Run has at least one of these (the sniffer)
RUN_MARKS: tuple[str, ...] = tuple(_run(name) for name in ("agent_name", "started_at", "task", "status",
                                                           "schema_version"))
# a Step (any type)
STEP_TYPE, STEP_ID = D.key("steps", "type"), D.key("steps", "step_id")
PARENT, AT = D.key("steps", "parent_step_id"), D.key("steps", "timestamp")
USAGE, ERROR, OUTPUT = D.key("steps", "usage"), D.key("steps", "error"), D.key("steps", "output")
#: Step types -> "mapped" / "skipped", read off the tree
STEP_TYPES = D.cases("steps")
# usage aliases (native_table.USAGE_KEYS), each proven under every step type
_USAGE = {use: tuple(D.key("steps", USAGE, key) for key in keys) for use, keys in USAGE_KEYS.items()}
IN_KEYS, CR_KEYS, CW_KEYS, OUT_KEYS, LATENCY_KEYS = (_USAGE[use] for use in ("in", "cr", "cw", "out", "latency"))
# an llm_call step
LLM_INPUT = D.blob("steps", "llm_call", "input")
LLM_METADATA, MODEL = D.key("steps", "llm_call", "metadata"), D.key("steps", "llm_call", "metadata", "model")
USAGE_MODEL = D.key("steps", "llm_call", USAGE, "model")
LLM_OUTPUT = D.blob("steps", "llm_call", "output")
# a tool_call step
TOOL_NAME, TOOL_INPUT = D.key("steps", "tool_call", "name"), D.key("steps", "tool_call", "input")
# inside an llm_call's output (a leaf the reader opens; its node says so)
TEXT_KEYS, CALLS = OUTPUT_TEXT, OUTPUT_CALLS
