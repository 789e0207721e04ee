"""The policy walk cuts each object's plan to the fields its shape holds, once per map and shape
(redact/apply/walk.py `MapRedactor._shape`). These tests hold that to the uncut walk: on maps whose
events of one kind have many different shapes (fields left out, required ones too, unknown ones
added, members reordered), the output, the refusal and every count of the report are the same as
when every object is walked with its node's whole plan."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.apply import walk
from redact.apply.walk import MapRedactor, redact_map
from redact.errors import BadInput
from redact.keys.material import parse_key_text
from redact.model.table import Node
from redact.policy.load import load_policy
from redact.report import RedactionReport

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "examples" / "session-map.json").read_text())
KEY = parse_key_text(b"5d" * 32, source="test")


def _whole_plan(self: MapRedactor, node: Node, raw: dict[str, Any]) -> Any:
    """The walk before the cut: the node's whole plan for every object, nothing cached by shape."""
    plan, required = self._plan(node)
    return plan, tuple(name for name in raw if name not in node.fields), required


def _outcome(doc: dict[str, Any], policy: str) -> tuple[Any, ...]:
    report = RedactionReport(source="x")
    try:
        out = redact_map(copy.deepcopy(doc), load_policy(policy), KEY, report)
    except BadInput as exc:
        return ("refused", str(exc))
    return ("map", json.dumps(out), dict(report.dropped_fields), dict(report.dropped_values),
            dict(report.events_by_kind))


@st.composite
def _event(draw: st.DrawFn) -> dict[str, Any]:
    ev = copy.deepcopy(draw(st.sampled_from(EXAMPLE["events"])))
    names = [name for name in ev if name != "kind"]
    for name in draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True)):
        if name not in ("seq", "t") or draw(st.integers(0, 9)) == 0:  # required ones rarely
            del ev[name]
    if draw(st.booleans()):
        ev[draw(st.sampled_from(["extra", "note", "zz"]))] = draw(st.sampled_from([1, "x", None, [1]]))
    items = list(ev.items())
    if draw(st.booleans()):
        items.reverse()
    return dict(items)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_event(), min_size=1, max_size=12), st.sampled_from(["default", "public"]))
def test_the_cut_plan_walks_like_the_whole_plan(events: list[dict[str, Any]], policy: str) -> None:
    doc = copy.deepcopy(EXAMPLE)
    doc["events"] = [dict(ev, seq=i) if "seq" in ev else ev for i, ev in enumerate(events)]
    cut = _outcome(doc, policy)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(walk.MapRedactor, "_shape", _whole_plan)
        whole = _outcome(doc, policy)
    assert cut == whole


def test_a_later_object_missing_a_required_field_is_still_refused() -> None:
    """The first event's shape is cached; the second, of the same kind, lacks its required `t`."""
    doc = copy.deepcopy(EXAMPLE)
    first = copy.deepcopy(doc["events"][0])
    second = {k: v for k, v in first.items() if k != "t"}
    second["seq"] = 1
    doc["events"] = [first, second]
    with pytest.raises(BadInput, match="required field is missing"):
        redact_map(doc, load_policy("default"), KEY, RedactionReport(source="x"))


def _dropped_fields(events: list[dict[str, Any]]) -> dict[str, int]:
    doc = copy.deepcopy(EXAMPLE)
    doc["events"] = events
    report = RedactionReport(source="x")
    redact_map(doc, load_policy("default"), KEY, report)
    return dict(report.dropped_fields)


def test_an_unknown_field_is_counted_in_every_object_of_a_shape() -> None:
    ev = copy.deepcopy(EXAMPLE["events"][0])
    plain = _dropped_fields([dict(ev, seq=i) for i in range(3)])
    extra = _dropped_fields([dict(ev, seq=i, extra=1) for i in range(3)])
    assert extra.pop("/events/*/<unknown field>") - plain.pop("/events/*/<unknown field>", 0) == 3
    assert extra == plain
