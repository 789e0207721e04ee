"""The map walk (redact/apply/walk.py) is the validation: whatever it returns, the pydantic model accepts.

`finish_map` no longer runs `SessionMap.model_validate` over every output (a fifth of the cost of a
20,000-event re-redaction): the walk is driven by the field table compiled from that model and checks
types, enum sets and required fields itself. These tests hold it to that, on real outputs and on
inputs mutated at random (the walk either refuses them as bad input or returns a valid map)."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.apply.walk import redact_map
from redact.errors import BadInput
from redact.keys.material import parse_key_text
from redact.model.agentplay import SessionMap
from redact.policy.load import load_policy
from redact.report import RedactionReport

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "examples" / "session-map.json").read_text())
KEY = parse_key_text(b"7c" * 32, source="test")
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["read", "exec", "llm", "main", "t1", "src/a.py", "end_turn"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _places(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _places(v, (*path, i))
    return out


PLACES = [p for p in _places(EXAMPLE) if p]


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_outputs_of_the_examples_validate(policy: str) -> None:
    for path in (ROOT / "examples" / "session-map.json",
                 ROOT / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"):
        out = redact_bytes(path.read_bytes(), name="x", policy=policy, key=KEY).session_map
        SessionMap.model_validate(out)


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _same_type(original: Any) -> st.SearchStrategy[Any]:
    """A value of the original's JSON type: most such edits keep the map valid, so the walk's
    'returns a valid map' branch is reached as often as its refusals."""
    if isinstance(original, bool):
        return st.booleans()
    if isinstance(original, int):
        return st.integers(0, 10**9)
    if isinstance(original, float):
        return st.floats(0, 1e9, allow_nan=False)
    if isinstance(original, str):
        return st.sampled_from([original, original.upper(), original + "x", "src/b.py", "main"]) | st.text(max_size=12)
    if isinstance(original, list):
        return st.just(original[:1])
    return st.just(original)


@st.composite
def _edit(draw: st.DrawFn) -> tuple[tuple[Any, ...], Any]:
    path = draw(st.sampled_from(PLACES))
    value = draw(_same_type(_at(EXAMPLE, path)) | JSON_VALUES)
    return path, value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_edit(), min_size=1, max_size=4), st.sampled_from(["default", "internal", "public"]))
def test_the_walk_refuses_or_returns_a_valid_map(edits: list[tuple[tuple[Any, ...], Any]], policy: str) -> None:
    doc = copy.deepcopy(EXAMPLE)
    for path, value in edits:
        target = doc
        try:
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = copy.deepcopy(value)  # a drawn value is never shared between examples
        except (KeyError, IndexError, TypeError):
            continue
    try:
        out = redact_map(doc, load_policy(policy), KEY, RedactionReport(source="x"))
    except BadInput:
        event("refused: bad input")
        return
    event("returned a map")
    SessionMap.model_validate(out)
