"""The self-test: every planted leak is caught by a working scanner; a broken scanner fails it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import audit.scan
from redact.contract.secrets import find_secrets
from audit.selftest import EXPECTED_LAYER, KINDS, SelfTestResult, secret_canary, self_test
from tests.audit.scanner_maps import CLEAN_CASES, example_bytes, redacted_example


@pytest.mark.parametrize("policy,mode", CLEAN_CASES)
def test_self_test_passes_on_clean_outputs(policy: str, mode: str | None) -> None:
    outcome = self_test(redacted_example(policy, mode), source=example_bytes())
    assert outcome.ok, outcome.summary()
    kinds = {p.kind for p in outcome.planted}
    assert kinds == {*KINDS, "source"} and len(outcome.planted) > 100
    assert "passed" in outcome.summary()


def test_self_test_plants_at_many_places_on_a_bare_map() -> None:
    doc = {"schema": "agentplay/v1", "session": {"id": "main", "startedAt": "2026-01-01T00:00:00.000Z"},
           "totals": {}, "events": []}
    outcome = self_test(doc)
    assert outcome.ok and len(outcome.planted) >= 4


def test_secret_canaries_are_each_detected_on_their_own() -> None:
    values = [secret_canary(i) for i in range(12)]
    assert {h.index for h in find_secrets(values)} == set(range(12))


def _broken(monkeypatch: pytest.MonkeyPatch, name: str, replacement: Callable[..., Any]) -> None:
    monkeypatch.setattr(audit.scan, name, replacement)


@pytest.mark.parametrize("name,replacement,layer", [
    ("find_secrets", lambda values: [], "secrets"),
    ("looks_like_text", lambda value: False, "language"),
    ("taint_scan", lambda *a, **k: audit.taint.TaintResult([]), "taint"),
])
def test_a_broken_layer_fails_the_self_test(monkeypatch: pytest.MonkeyPatch, name: str,
                                            replacement: Callable[..., Any], layer: str) -> None:
    import audit.taint  # noqa: F401

    _broken(monkeypatch, name, replacement)
    outcome = self_test(redacted_example("default"), source=example_bytes())
    assert not outcome.ok
    assert {p.layer for p in outcome.missed} == {layer}
    assert "FAILED" in outcome.summary() and "cannot be trusted" in outcome.summary()


def test_a_broken_grammar_fails_the_self_test(monkeypatch: pytest.MonkeyPatch) -> None:
    import audit.grammar
    import audit.values

    monkeypatch.setattr(audit.grammar, "extra_rules", lambda value: ())
    monkeypatch.setattr(audit.values, "extra_rules", lambda value: ())
    outcome = self_test(redacted_example("default"))
    assert not outcome.ok and {p.layer for p in outcome.missed} == {EXPECTED_LAYER["email"]}


def test_summary_names_places_not_values() -> None:
    outcome = self_test(redacted_example("default"))
    broken = SelfTestResult(outcome.planted, outcome.planted[:3])
    text = broken.summary()
    assert outcome.planted[0].pointer in text and "ghp_" not in text and "@" not in text
