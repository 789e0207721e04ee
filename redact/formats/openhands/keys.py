"""The keys OpenHands' reader, sniffer and native scrubber read, each named by its place in the
format's one table (`native_table.py`; redact/formats/slots.py): a place the table does not classify
fails the import."""
from __future__ import annotations

from redact.formats.openhands.native_table import CONTENT_TEXT, EVENT_KINDS, TABLE
from redact.formats.slots import Slots

S = Slots(TABLE)


def _settling(name: str) -> str:
    """A field of each event that settles a call (an observation, an agent error, a rejection)."""
    return S.at(name, ("ObservationEvent",), ("AgentErrorEvent",), ("UserRejectObservation",))


# every event
KIND, ID, AT, SOURCE = S.key("kind"), S.key("id"), S.key("timestamp"), S.key("source")
#: Event kinds -> "mapped" / "skipped", read off the tree (the reader); with the one kind the tree
#: does not classify, for the sniffer (native_table.EVENT_KINDS)
EVENT_CASES, KNOWN_KINDS = S.cases(), EVENT_KINDS
# a MessageEvent
LLM_MESSAGE = S.key("MessageEvent", "llm_message")
MESSAGE_CONTENT = S.key("MessageEvent", "llm_message", "content")
MESSAGE_SOURCE = S.key("MessageEvent", "source")
# an ActionEvent
RESPONSE_ID, ACTION_ID = S.key("ActionEvent", "llm_response_id"), S.key("ActionEvent", "id")
THOUGHT, REASONING = S.key("ActionEvent", "thought"), S.key("ActionEvent", "reasoning_content")
THINKING_BLOCKS, TOOL_NAME = S.key("ActionEvent", "thinking_blocks"), S.key("ActionEvent", "tool_name")
CALL_ID = S.key("ActionEvent", "tool_call_id")
ACTION, ACTION_KIND = S.key("ActionEvent", "action"), S.key("ActionEvent", "action", "kind")
EDIT_COMMAND = S.key("ActionEvent", "action", "FileEditorAction", "command")
# the events that settle a call
ANSWERS, ANSWERS_CALL_ID = _settling("action_id"), _settling("tool_call_id")
ERROR = S.key("AgentErrorEvent", "error")
# an ObservationEvent's observation
OBSERVATION = S.key("ObservationEvent", "observation")
OBS_CONTENT = S.blob("ObservationEvent", "observation", "content")
OBS_ERROR = S.key("ObservationEvent", "observation", "is_error")
EXIT_CODE = S.key("ObservationEvent", "observation", "TerminalObservation", "exit_code")
TIMEOUT = S.key("ObservationEvent", "observation", "TerminalObservation", "timeout")
OBS_METADATA = S.key("ObservationEvent", "observation", "TerminalObservation", "metadata")
WORKING_DIR = S.key("ObservationEvent", "observation", "TerminalObservation", "metadata", "working_dir")
PREV_EXIST = S.key("ObservationEvent", "observation", "FileEditorObservation", "prev_exist")
#: the text of a block of an observation's content (a leaf the reader opens; its node says so)
BLOCK_TEXT = CONTENT_TEXT
