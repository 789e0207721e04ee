"""Gemini CLI chat recordings under `--to native`: both layouts (the single-JSON ConversationRecord
and the append-only JSONL with its metadata line, messages, `$set` and `$rewindTo` lines).

The message types, the tool table and a tool call's fields are the chat record's, which Qwen Code
inherited (`redact/formats/gemini_record_table.py`); Gemini CLI's model messages are `gemini`.
Message text, thoughts and tool output become their shape (`{"chars": N}`); a tool call keeps its
id, name, status and time, and of its arguments only what the tool table reads (paths in the path
mode, the shell command as its verb, line numbers and flags); everything else a call carries
(`description`, `displayName`, `resultDisplay`) is dropped.
"""
from __future__ import annotations

from redact.formats.gemini_record_table import (
    ARGS, CANCELLED, META, PART_IMAGE, PART_TEXT, RESULT_ERROR, RESULT_OUTPUT, RESULT_PATH, TARGET_ARGS, TOOLS,
    message_switch, message_types, tool_call,
)
from redact.tables.spec import ID, Obj, Ref, Spec, Switch, Table, used

FORMAT = "gemini-cli"
#: The type of Gemini CLI's model messages.
MODEL_TYPE = "gemini"
#: message `type` -> handling (the message switch's cases are these types)
MESSAGE_TYPES: dict[str, str] = message_types(MODEL_TYPE)

__all__ = ["ARGS", "CANCELLED", "DOCUMENT", "LINE", "LINE_KINDS", "MESSAGE", "MESSAGE_TYPES", "META", "MODEL_TYPE",
           "PART_IMAGE", "PART_TEXT", "RESULT_ERROR", "RESULT_OUTPUT", "RESULT_PATH", "TABLE", "TARGET_ARGS",
           "TOOLS", "TOOL_CALL", "UPDATES"]

TOOL_CALL = tool_call(TOOLS, ARGS)
MESSAGE = message_switch(MODEL_TYPE, TOOLS, ARGS)

#: The JSONL layout's update lines (beside the metadata line and the messages), each one field.
UPDATES: dict[str, Spec] = {
    "$set": used("metadata update: `directories` read, the rest skipped and counted", Obj(META)),
    "$rewindTo": used("skipped and counted (the rewound messages happened: they stay in the map)", ID),
}
#: A JSONL line: a message (by its type), or the metadata line, a `$set` or a `$rewindTo`.
LINE = used("line dispatch: a message by its type, else the metadata line, `$set` or `$rewindTo`", Switch(
    "type", {kind: Ref("message") for kind in MESSAGE_TYPES}, default=Obj({**META, **UPDATES})))
#: line shapes of the JSONL layout other than messages -> handling (the update lines' read off the tree)
LINE_KINDS: dict[str, str] = {
    "metadata (first line)": "session id, start time, `kind`, `directories` (repository roots)",
    **{name: node.use for name, node in UPDATES.items()},
}
#: The single-JSON layout.
DOCUMENT = Obj(META)

TABLE = Table(FORMAT, LINE, {"message": MESSAGE}, document=DOCUMENT, document_key="messages")
