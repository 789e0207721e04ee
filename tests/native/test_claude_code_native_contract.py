"""The redaction contract for native output, as a property: canaries in every text slot of a Claude
Code transcript (the same generator as the map's contract test) never reach the native output or its
report, under every preset policy; and the output reads again into a valid map."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from redact.api import redact_bytes
from tests.formats.test_claude_code_contract import Canaries, canary_base, flips, session_steps, transcript
from tests.native.helpers import KEY, native, report_text


def _check(data: bytes, canaries: Canaries, policy: str) -> None:
    out, report = native(data, "claude-code", policy=policy, key=KEY if policy == "public" else None)
    body = out.decode("utf-8")
    leaked = [c for c in canaries.all if c in body]
    assert not leaked, (policy, leaked[:3])
    in_report = [c for c in canaries.all if c in report_text(report)]
    # the only canary a report may name: an unknown record type of a strict, safe shape (by design)
    assert all(c.isascii() and c.replace("_", "").isalnum() for c in in_report), in_report
    again = redact_bytes(out, name="native.jsonl", policy=policy, key=KEY if policy == "public" else None)
    assert not [c for c in canaries.all if c in again.data.decode()]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_in_native_output_under_default(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = transcript(steps, base, flip)
    _check(data, canaries, "default")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_in_native_output_under_internal(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = transcript(steps, base, flip)
    _check(data, canaries, "internal")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_in_native_output_under_public(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = transcript(steps, base, flip)
    _check(data, canaries, "public")


def test_every_step_at_once() -> None:
    from tests.formats.test_claude_code_contract import STEPS

    data, canaries = transcript(list(STEPS) * 2, "all0", [True, False] * 10)
    for policy in ("default", "internal", "public"):
        _check(data, canaries, policy)
