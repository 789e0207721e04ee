"""docs/formats.md's native examples are what the scrubber writes: each `before` block, scrubbed under
the default policy, gives its `after` block (so the page cannot drift from the code)."""
from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from redact.formats.tables import table
from tests.native.helpers import lines, native

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"
_BLOCK = re.compile(r"<!-- native:([a-z-]+):(before|after) -->\n```json\n(.*?)\n```", re.DOTALL)
FORMATS = ("claude-code", "codex", "session-record", "teaagent", "agent-replay", "gemini-cli", "copilot-cli",
           "copilot-vscode", "cline", "kiro")


def _blocks() -> dict[tuple[str, str], object]:
    return {(m.group(1), m.group(2)): orjson.loads(m.group(3)) for m in _BLOCK.finditer(DOC.read_text("utf-8"))}


@pytest.mark.parametrize("fmt", FORMATS)
def test_example_is_what_the_scrubber_writes(fmt: str) -> None:
    blocks = _blocks()
    before, after = blocks[(fmt, "before")], blocks[(fmt, "after")]
    found = table(fmt)
    assert found is not None
    if isinstance(before, list) and found.jsonl:  # a list of records; else one document (Cline's is a list)
        out, _ = native(b"".join(orjson.dumps(r) + b"\n" for r in before), fmt)
        assert lines(out) == after
    else:
        out, _ = native(orjson.dumps(before), fmt)
        assert orjson.loads(out) == after
