"""The fixture files of the JSON/JSONL agents (tests/fixtures/<format>/) are what their generator
writes (regenerate: `python -m tests.formats.make_json_agents`), each is detected as its format, and
batch discovery finds each from its agent's folder layout."""
from __future__ import annotations

import pytest

from redact.batch import run as batch
from redact.formats.detect import detect
from tests.formats.make_json_agents import FILES, FIXTURES


@pytest.mark.parametrize("rel", sorted(FILES))
def test_fixture_is_current_and_detected(rel: str) -> None:
    path = FIXTURES / rel
    assert path.read_bytes() == FILES[rel](), f"regenerate {rel} with tests.formats.make_json_agents"
    assert detect(path.read_bytes(), path.name) == rel.split("/")[0]


@pytest.mark.parametrize("fmt", sorted({rel.split("/")[0] for rel in FILES}))
def test_batch_finds_every_session_fixture(fmt: str) -> None:
    found = {p.relative_to(FIXTURES).as_posix() for p in batch.sessions_in(FIXTURES / fmt)}
    expected = {rel for rel in FILES if rel.startswith(fmt + "/") and not rel.endswith("export-chat.json")}
    assert found == expected  # an exported chat has no folder layout: it is given by name
