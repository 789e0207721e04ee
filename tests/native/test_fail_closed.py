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
from redact.api_native import scrub_native
from redact.native.scrub import Scrubber
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import kirofix
from tests.formats.droidfix import session as droid_session
from tests.formats.goosefix import session_2025 as goose_2025
from tests.formats.jsonfix import amp_thread, continue_session, openhands_events
from tests.native.arfix import trace
from tests.native.clinefix import ui_messages
from tests.native.codexfix import rollout
from tests.native.copilotfix import events
from tests.native.geminifix import recording
from tests.native.kimifix import wire as kimi_wire
from tests.native.pifix import session as pi_session
from tests.native.qwenfix import chats as qwen_chats
from tests.native.qwenfix import record as qwen_record
from tests.native.vscodefix import chat, edit_log
from tests.native.srfix import stream
from tests.native.teafix import log
from tests.native.test_claude_code_native import session


def _counter(base: str) -> Callable[[], str]:
    n = iter(range(10_000))
    return lambda: f"zq{base}{next(n)}qz"


def _slots(canary: Callable[[], str]) -> Callable[[str], str]:
    """A fixture builder's `text(slot)` from a canary counter."""
    return lambda slot: canary()


def format_of(name: str) -> str:
    """The format of an INPUTS entry: `gemini-cli#json` is the gemini-cli format in another layout."""
    return name.split("#", 1)[0]


#: format (or `format#layout`) -> a fixture log of it whose text slots hold canaries
INPUTS: dict[str, Callable[[], bytes]] = {
    "claude-code": lambda: session().bytes(),
    "codex": lambda: rollout(_counter("fc")),
    "session-record": lambda: stream(_counter("fc")),
    "teaagent": lambda: log(_counter("fc")),
    "agent-replay": lambda: trace(_counter("fc")),
    "openhands": lambda: openhands_events(_counter("fc")),
    "amp": lambda: amp_thread(_counter("fc")),
    "continue-dev": lambda: continue_session(_counter("fc")),
    "gemini-cli": lambda: recording(_counter("fc")),
    "gemini-cli#json": lambda: recording(_counter("fc"), layout="json"),
    "copilot-cli": lambda: events(_counter("fc")),
    "copilot-cli#legacy": lambda: events(_counter("fc"), legacy=True),
    "copilot-vscode": lambda: chat(_counter("fc")),
    "copilot-vscode#export": lambda: chat(_counter("fc"), export=True),
    "copilot-vscode#log": lambda: edit_log(_counter("fc")),
    "cline": lambda: ui_messages(_counter("fc")),
    "kiro": lambda: kirofix.export(_counter("fc")),
    "kiro#log": lambda: kirofix.store_pair(_counter("fc"))[1],
    "kiro-legacy": lambda: kirofix.legacy(_counter("fc")),
    "kiro-legacy#amazon-q": lambda: kirofix.legacy(_counter("fc"), writer="amazon-q"),
    "kiro-ide": lambda: kirofix.ide_session_bytes(_counter("fc")),
    "pi": lambda: pi_session(_counter("fc")),
    "pi#v1": lambda: pi_session(_counter("fc"), version=1),
    "qwen-code": lambda: qwen_chats(_counter("fc")),
    "qwen-code#record": lambda: qwen_record(_counter("fc")),
    "kimi": lambda: kimi_wire(_counter("fc")),
    "factory-droid": lambda: droid_session(_slots(_counter("fc"))),
    "goose": lambda: goose_2025(_slots(_counter("fc"))),
}


CLASSES = ("shape", "mask", "verb", "path", "drop")


def _has(fmt: str, cls: str) -> bool:
    """Whether the format's table has a leaf of class `cls` (else there is nothing to break)."""
    from redact.tables.spec import walk_leaves
    from redact.formats.tables import table

    found = table(format_of(fmt))
    assert found is not None
    return any(leaf.cls == cls for _, leaf in walk_leaves(found))


# Only the pairs that exist: Claude Code's table has no `mask` leaf, teaagent's no `shape` or `drop`.
#: Cline's only `drop` leaf is an image's source in `api_conversation_history.json`, which its
#: ui_messages input holds none of: breaking `drop` there breaks nothing this input has. Kiro's only
#: `shape` leaf is a tool result's `json` item, an object (its text slots are `mask`: Kiro loads strings);
#: the same holds for the `/save` documents (kiro-legacy: a `Json` result item, an object, never a string).
NOT_IN_THE_INPUT = {("cline", "drop"), ("kiro", "shape"), ("kiro#log", "shape"),
                    ("kiro-legacy", "shape"), ("kiro-legacy#amazon-q", "shape")}
CASES = [(fmt, cls) for fmt in INPUTS for cls in CLASSES if _has(fmt, cls) and (fmt, cls) not in NOT_IN_THE_INPUT]


def test_every_format_has_text_to_break() -> None:
    """Each format is covered by at least three classes, so the pairs above are not empty by accident."""
    for fmt in INPUTS:
        assert sum(_has(fmt, cls) for cls in CLASSES) >= 3, fmt


@pytest.mark.parametrize(("fmt", "broken"), CASES)
def test_a_broken_scrubber_is_caught(fmt: str, broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = Scrubber.leaf

    def leaky(self: Scrubber, spec: Any, value: Any, pat: str) -> Any:
        if spec.cls == broken and isinstance(value, str):
            return value
        return real(self, spec, value, pat)

    monkeypatch.setattr(Scrubber, "leaf", leaky)
    report = RedactionReport(source="input")
    data = INPUTS[fmt]()
    with pytest.raises(LeakFound) as caught:
        scrub_native(data, format_of(fmt), name="input", policy=load_policy("default"), key=None, mode=None, report=report)
    assert caught.value.report is report and report.findings
    shown = orjson.dumps(report.findings).decode()
    # an excerpt keeps at most 4 characters of a value (audit/findings.py): never a whole canary
    assert not re.search(r"zqfc\d+qz", shown) and "Globex" not in shown

