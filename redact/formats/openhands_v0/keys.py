"""The keys OpenHands V0's reader, sniffer and native scrubber read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import."""
from __future__ import annotations

from redact.formats.openhands_v0.native_table import ACTIONS, TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)
_CALLS = tuple(ACTIONS) + ("message",)


def _each(*place: str, kinds: tuple[str, ...] = _CALLS) -> str:
    """A field every action kind of `kinds` has at `place`."""
    return S.at(place[-1], *((kind, *place[:-1]) for kind in kinds))


def _observed(*place: str) -> str:
    return S.at(place[-1], *(("<OBSERVATION>", kind, *place[:-1]) for kind in (
        "run", "read", "write", "edit", "browse", "mcp", "think", "error", "user_rejected")))


# every event
ACTION, OBSERVATION = S.key("action"), S.key("<OBSERVATION>", "observation")
ID, AT, SOURCE = _each("id"), _each("timestamp"), _each("source")
CAUSE = _observed("cause")
#: action kinds / observation kinds -> "mapped" / "skipped", read off the tree
ACTION_CASES, OBSERVATION_CASES = S.cases(), S.cases("<OBSERVATION>")
# an action's arguments
ARGS = _each("args")
THOUGHT = _each("args", "thought", kinds=tuple(ACTIONS))
CONTENT, IMAGES = S.key("message", "args", "content"), S.key("message", "args", "image_urls")
COMMAND = S.key("run", "args", "command")
PATH = S.at("path", ("read", "args"), ("write", "args"), ("edit", "args"))
EDIT_COMMAND = S.key("edit", "args", "command")
URL = S.key("browse", "args", "url")
MCP_NAME = S.key("call_tool_mcp", "args", "name")
AGENT = S.key("delegate", "args", "agent")
# the model response a call came from
CALL_META = _each("tool_call_metadata")
RESPONSE = _each("tool_call_metadata", "model_response")
RESPONSE_ID, RESPONSE_MODEL = _each("tool_call_metadata", "model_response", "id"), \
    _each("tool_call_metadata", "model_response", "model")
USAGE = _each("tool_call_metadata", "model_response", "usage")
PROMPT_TOKENS, COMPLETION_TOKENS = _each("tool_call_metadata", "model_response", "usage", "prompt_tokens"), \
    _each("tool_call_metadata", "model_response", "usage", "completion_tokens")
PROMPT_DETAILS = _each("tool_call_metadata", "model_response", "usage", "prompt_tokens_details")
CACHED_TOKENS = _each("tool_call_metadata", "model_response", "usage", "prompt_tokens_details", "cached_tokens")
# an observation
OBS_CONTENT, SUCCESS, EXTRAS = _observed("content"), _observed("success"), _observed("extras")
RUN_METADATA = S.key("<OBSERVATION>", "run", "extras", "metadata")
EXIT_CODE = S.key("<OBSERVATION>", "run", "extras", "metadata", "exit_code")
WORKING_DIR = S.key("<OBSERVATION>", "run", "extras", "metadata", "working_dir")
REPO_DIRECTORY = S.key("<OBSERVATION>", "recall", "extras", "repo_directory")
CLONED_IN = S.key("<OBSERVATION>", "recall", "extras", "working_dir")
PREV_EXIST = S.key("<OBSERVATION>", "edit", "extras", "prev_exist")
# the metadata document
CONVERSATION_ID, CREATED = S.key("<METADATA>", "conversation_id"), S.key("<METADATA>", "created_at")
