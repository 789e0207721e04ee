"""A leaking native output is never returned, in any format: with the scrubber broken on purpose (text,
commands or paths passed through as written), the native scan finds the leak and `scrub_native`
raises LeakFound with the report, whose findings never echo the leaked value."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from redact.errors import LeakFound
from redact.native import scrub_native
from redact.native.scrub import Scrubber
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.native.arfix import trace
from tests.native.codexfix import rollout
from tests.native.srfix import stream
from tests.native.teafix import log
from tests.native.test_claude_code_native import session


def _counter(base: str) -> Callable[[], str]:
    n = iter(range(10_000))
    return lambda: f"zq{base}{next(n)}qz"


INPUTS: dict[str, Callable[[], bytes]] = {
    "claude-code": lambda: session().bytes(),
    "codex": lambda: rollout(_counter("fc")),
    "session-record": lambda: stream(_counter("fc")),
    "teaagent": lambda: log(_counter("fc")),
    "agent-replay": lambda: trace(_counter("fc")),
}


@pytest.mark.parametrize("broken", ["shape", "mask", "verb", "path", "drop"])
@pytest.mark.parametrize("fmt", list(INPUTS))
def test_a_broken_scrubber_is_caught(fmt: str, broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Scrubber.leaf

    def leaky(self: Scrubber, spec: Any, value: Any, pat: str) -> Any:
        if spec.cls == broken and isinstance(value, str):
            return value
        return real(self, spec, value, pat)

    monkeypatch.setattr(Scrubber, "leaf", leaky)
    report = RedactionReport(source="input")
    data = INPUTS[fmt]()
    if not _has(data, fmt, broken):
        pytest.skip(f"the {fmt} fixture has no {broken} field with a string")
    with pytest.raises(LeakFound) as caught:
        scrub_native(data, fmt, name="input", policy=load_policy("default"), key=None, mode=None, report=report)
    assert caught.value.report is report and report.findings
    shown = orjson.dumps(report.findings).decode()
    # an excerpt keeps at most 4 characters of a value (audit/findings.py): never a whole canary
    assert not re.search(r"zqfc\d+qz", shown) and "Globex" not in shown


def _has(data: bytes, fmt: str, cls: str) -> bool:
    """Whether breaking `cls` changes this fixture's output at all (else there is nothing to catch)."""
    from redact.native.spec import walk_leaves
    from redact.native.tables import table

    found = table(fmt)
    assert found is not None
    return any(leaf.cls == cls for _, leaf in walk_leaves(found))
