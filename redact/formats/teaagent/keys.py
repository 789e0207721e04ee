"""The keys teaagent's reader, its hash-chain check, the native scrubber and the sniffer read, each
named by its place in the format's one table (`native_table.py`; redact/formats/slots.py): a place the
table does not classify fails the import."""
from __future__ import annotations

from redact.formats.slots import Slots
from redact.formats.teaagent.native_table import OUTPUT_FIELDS, TABLE

S = Slots(TABLE)
# the envelope every event carries
EVENT_TYPE, RUN_ID, CREATED_AT, PAYLOAD = (S.key(name) for name in ("event_type", "run_id", "created_at", "payload"))
# the hash chain (chain.py verifies it on read, native.py recomputes it)
PREV_HASH, HASH, CHAIN_HMAC = (S.key(name) for name in ("prev_hash", "hash", "chain_hmac"))

START_MODEL, TASK = S.key("run_start", "payload", "model"), S.key("run_start", "payload", "task")
END_STATUS = S.key("run_end", "payload", "status")
REQUEST_MODEL = S.key("model_request", "payload", "model")
INPUT_TOKENS = S.key("model_request", "payload", "input_tokens")
OUTPUT_TOKENS, STOP_REASON, CALLS_REQUESTED = (S.key("model_response", "payload", name)
                                               for name in ("output_tokens", "stop_reason", "tool_calls_requested"))

CALL_ID, TOOL_NAME = S.key("tool_call", "payload", "call_id"), S.key("tool_call", "payload", "tool_name")
ARGUMENTS = S.key("tool_call", "payload", "arguments")
#: `call_id` of each event that settles or waits on a call (`call_of`): one name every such layout
#: classifies.
(SETTLED_CALL,) = {S.key(kind, "payload", "call_id")
                   for kind in ("tool_result", "tool_error", "approval_request", "approval_denied")}
RESULT, ELAPSED_MS = S.key("tool_result", "payload", "result"), S.key("tool_result", "payload", "elapsed_ms")
SUCCESS, EXIT_CODE, RETURNCODE = (S.key("tool_result", "payload", "result", name)
                                  for name in ("success", "exit_code", "returncode"))
#: The result fields that hold the tool's output, in the order their texts are joined.
OUTPUT_KEYS = tuple(S.key("tool_result", "payload", "result", name) for name in OUTPUT_FIELDS)
ERROR_TYPE, ERROR_MESSAGE = (S.key("tool_error", "payload", name) for name in ("error_type", "error_message"))
