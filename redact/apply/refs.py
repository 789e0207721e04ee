"""References between the parts of a map name an event by its `seq`. After the redactor has dropped
and reordered events (renumbering them so that `events[i].seq == i`), every such reference is
remapped; one that named a dropped event is dropped too, and counted."""
from __future__ import annotations

from typing import Any

from redact.report import RedactionReport

_SEQ_REFS_EVENT = ("retryOf", "ref")


def remap_one(obj: dict[str, Any], name: str, remap: dict[int, int], report: RedactionReport,
               ptr: str) -> None:
    if name in obj:
        new = remap.get(obj[name])
        if new is None:
            del obj[name]
            report.dropped_values[ptr] += 1
        else:
            obj[name] = new


def remap_refs(top: dict[str, Any], events: list[dict[str, Any]], remap: dict[int, int],
                report_counter: RedactionReport) -> None:
    # Input refs name an input event's seq (the format has seq == index; _events resolves by seq).
    for ev in events:
        for name in _SEQ_REFS_EVENT:
            remap_one(ev, name, remap, report_counter, f"/events/*/{name}")
    for f in top.get("files") or []:
        remap_one(f, "first", remap, report_counter, "/files/*/first")
    for a in top.get("agents") or []:
        remap_one(a, "launchSeq", remap, report_counter, "/agents/*/launchSeq")
    for p in top.get("prs") or []:
        remap_one(p, "seq", remap, report_counter, "/prs/*/seq")
    for t in top.get("tasks") or []:
        remap_one(t, "startSeq", remap, report_counter, "/tasks/*/startSeq")
        remap_one(t, "endSeq", remap, report_counter, "/tasks/*/endSeq")


__all__ = ["remap_one", "remap_refs"]
