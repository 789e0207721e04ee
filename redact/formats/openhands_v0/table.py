"""OpenHands V0 conversations: the sniffer (the action and observation kinds are the table's,
`native_table.py`).

A V0 event is `{id, timestamp, source, message, action | observation, args | extras, cause?,
tool_call_metadata?, llm_metrics?}`. A trajectory export is a JSON list of them; the file store
keeps one per file (`events/<n>.json`), pages of them (`event_cache/<a>-<b>.json`) and the
conversation's `metadata.json`; any of those files reads as its whole conversation (`tree.py`).
"""
from __future__ import annotations

from typing import Any


def _event(e: object) -> bool:
    from redact.formats.openhands_v0.keys import ACTION, AT, ID, OBSERVATION, SOURCE

    if not isinstance(e, dict) or not isinstance(e.get(ID), int) or AT not in e or SOURCE not in e:
        return False
    kind = e.get(ACTION) if ACTION in e else e.get(OBSERVATION)
    return isinstance(kind, str)


def _metadata(doc: object) -> bool:
    from redact.formats.openhands_v0.keys import CONVERSATION_ID, CREATED

    from redact.formats.openhands_v0.keys import ACTION, OBSERVATION

    return isinstance(doc, dict) and ACTION not in doc and OBSERVATION not in doc and CREATED in doc and \
        isinstance(doc.get(CONVERSATION_ID), str)


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    if isinstance(doc, list):
        return bool(doc) and all(_event(e) for e in doc[:25])
    return _event(doc) or _metadata(doc)


def markdown() -> str:
    from redact.formats.openhands_v0.native_table import ACTION_KINDS, ACTIONS, OBSERVATION_KINDS

    lines = ["| action | handling |", "|---|---|"]
    lines += [f"| `{kind}` | {how}" + (f" (`{ACTIONS[kind]}`)" if kind in ACTIONS else "") + " |"
              for kind, how in ACTION_KINDS.items()]
    lines += ["| any other action | skipped, counted by name |", "", "| observation | handling |", "|---|---|"]
    lines += [f"| `{kind}` | {how} |" for kind, how in OBSERVATION_KINDS.items()]
    lines.append("| any other observation | skipped, counted by name |")
    return "\n".join(lines) + "\n"
