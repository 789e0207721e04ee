"""Every string a map carries out of the machine, grouped by its field's class.

    strings_leaving(session_map)   # -> {"path": ["src/app.py", ...], "verb": [...], ...}

The map is walked with the format's field table (`redact/model/table.py`), like the audit of a map,
so every leaf is placed by its declared class, never by its look. Identifiers are listed in the
report's own section (`identifiersInClear`, by category) and text values never reach a report
(`textFields` counts them), so neither is repeated here; numbers, booleans and the contentHash are
not strings that say anything about the user. What remains, in this order: relative paths and
bucket labels (the most revealing under `default`), verbs and vcs actions, versions, ids,
timestamps and enum values. Values are distinct and sorted; fields the format does not define are
not walked (the report counts them as unknown fields).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from redact.model.fieldclass import Kind
from redact.model.table import Leaf, Nested, Node, event_nodes, map_node

CLASSES: tuple[str, ...] = ("path", "label", "verb", "action", "version", "id", "timestamp", "enum")
_LISTED = frozenset(CLASSES)


class _Collect:
    def __init__(self) -> None:
        self.found: dict[str, set[str]] = defaultdict(set)

    def node(self, node: Node, raw: Any) -> None:
        if not isinstance(raw, dict):
            return
        for name, value in raw.items():
            spec = node.fields.get(name)
            if spec is None or value is None:
                continue
            if isinstance(spec, Nested):
                for item in (value if spec.many and isinstance(value, list) else [value]):
                    self.node(spec.node, item)
            else:
                self.leaf(spec, value)

    def leaf(self, leaf: Leaf, value: Any) -> None:
        kind = leaf.fc.kind.value if isinstance(leaf.fc.kind, Kind) else str(leaf.fc.kind)
        if kind not in _LISTED:
            return
        if leaf.mapping and isinstance(value, dict):
            values: list[Any] = list(value)  # an object from enum keys to counts: its keys leave
        else:
            values = value if isinstance(value, list) else [value]
        for one in values:
            if isinstance(one, str) and one:
                self.found[kind].add(one)


def strings_leaving(session_map: Any) -> dict[str, list[str]]:
    """{class: sorted distinct values} for every listed class that has a value in `session_map`."""
    walk = _Collect()
    if not isinstance(session_map, dict):
        return {}
    walk.node(map_node(), session_map)
    events = session_map.get("events")
    nodes = event_nodes()
    for ev in events if isinstance(events, list) else []:
        kind = ev.get("kind") if isinstance(ev, dict) else None
        node = nodes.get(kind) if isinstance(kind, str) else None
        if node is not None:
            walk.node(node, ev)
    return {cls: sorted(walk.found[cls]) for cls in CLASSES if walk.found.get(cls)}
