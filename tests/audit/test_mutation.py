"""Mutation tests: inject one leak into a clean map at a random place; the scanner must flag it there.

Clean maps: the example map redacted under each shipped policy and path mode (real redactor
outputs), and `valid_maps()`, a generator of maps holding only values their classes allow. Leaks:
secrets in provider shapes, sentences, e-mail addresses, home folders (user names in paths), shell
commands with arguments, unknown fields. Recall must be 100% on this generator, and the clean
originals must give no finding at all.
"""
from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.scan import scan_map
from tests.audit.scanner_maps import (
    CLEAN_CASES,
    LEAKS,
    flagged,
    kept_identifiers,
    object_places,
    put,
    redacted_example,
    scalar_places,
    valid_maps,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
UNKNOWN_KEYS = ("description", "note", "hostName", "prompt", "comment", "cwd")


def _explain(result: Any) -> str:
    return "; ".join(f"{f.rule} at {f.pointer}" for f in result.findings) or "no finding"


@pytest.mark.parametrize("policy,mode", CLEAN_CASES)
def test_clean_redacted_outputs_have_no_finding(policy: str, mode: str | None) -> None:
    doc = redacted_example(policy, mode)
    result = scan_map(doc, kept_identifiers=kept_identifiers(policy, mode))
    assert result.clean, _explain(result)
    assert set(result.verdicts.values()) <= {"pass", "skipped"}


@SETTINGS
@given(valid_maps())
def test_generated_valid_maps_have_no_finding(doc: dict[str, Any]) -> None:
    result = scan_map(doc)
    assert result.clean, _explain(result)


def _inject_value(doc: dict[str, Any], data: st.DataObject, kind: str) -> str:
    ptr = data.draw(st.sampled_from(scalar_places(doc)), label="place")
    put(doc, ptr, data.draw(st.sampled_from(LEAKS[kind]), label="leak"))
    return ptr


def _inject_field(doc: dict[str, Any], data: st.DataObject) -> str:
    ptr = data.draw(st.sampled_from(object_places(doc)), label="object")
    key = data.draw(st.sampled_from(UNKNOWN_KEYS), label="key")
    node = doc
    for part in ptr.split("/")[1:]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if key in node:  # a key this object does define (an event's own field): use another name
        key = "x" + key
    node[key] = data.draw(st.one_of(st.integers(0, 9), st.sampled_from(("x", "ok", "true"))), label="value")
    return f"{ptr}/{key}"


def _check_recall(doc: dict[str, Any], data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from((*LEAKS, "unknown-field")), label="kind")
    ptr = _inject_field(doc, data) if kind == "unknown-field" else _inject_value(doc, data, kind)
    result = scan_map(doc)
    assert flagged(result.findings, ptr), f"{kind} at {ptr} not flagged: {_explain(result)}"


@SETTINGS
@given(st.sampled_from(CLEAN_CASES), st.data())
def test_every_leak_injected_into_a_redacted_output_is_flagged(case: tuple[str, str | None],
                                                               data: st.DataObject) -> None:
    _check_recall(redacted_example(*case), data)


@SETTINGS
@given(valid_maps(), st.data())
def test_every_leak_injected_into_a_generated_map_is_flagged(doc: dict[str, Any], data: st.DataObject) -> None:
    _check_recall(copy.deepcopy(doc), data)


@SETTINGS
@given(valid_maps(), st.data())
def test_several_leaks_at_once_are_each_flagged(doc: dict[str, Any], data: st.DataObject) -> None:
    doc = copy.deepcopy(doc)
    places = data.draw(st.lists(st.sampled_from(scalar_places(doc)), min_size=2, max_size=6, unique=True))
    kinds = data.draw(st.lists(st.sampled_from(tuple(LEAKS)), min_size=len(places), max_size=len(places)))
    values = [LEAKS[kind][i % len(LEAKS[kind])] for i, kind in enumerate(kinds)]
    for ptr, value in zip(places, values):
        put(doc, ptr, value)
    result = scan_map(doc)
    # A value planted twice is one finding at one of its places, with `places` counting both.
    for i, (kind, value) in enumerate(zip(kinds, values)):
        same = [p for p, v in zip(places, values) if v == value]
        assert any(flagged(result.findings, p) for p in same), f"{kind} at {places[i]}: {_explain(result)}"
