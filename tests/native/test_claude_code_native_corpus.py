"""Every Claude Code transcript of the shared corpus round-trips through `--to native`.

Skipped cleanly when ../shared/corpus is absent. Each file (main transcripts and subagent transcripts
alike) is scrubbed natively under default and public; the native scan passes with the file as taint
source; no user name of the corpus survives; every record type the file holds is kept in order or
counted as skipped; and the output reads again with the project's reader and builds a valid map.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import orjson
import pytest

from redact.api import redact_bytes
from redact.formats.claude_code.files import read_session
from redact.formats.claude_code.native_table import RECORD
from redact.report import RedactionReport
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.test_claude_code_corpus import USER_NAMES
from tests.native.helpers import KEY, lines, native

pytestmark = pytest.mark.corpus


@cache
def _files() -> tuple[Path, ...]:
    return tuple(sorted(corpus_dir("claude-code").glob("*.jsonl")))


def _names() -> list[str]:
    return corpus_params(lambda: [p.name for p in _files()])


@pytest.fixture(params=_names(), ids=lambda name: name[:-6][-40:])
def path(request: pytest.FixtureRequest) -> Path:
    corpus_case(request.param, "claude-code")
    return next(p for p in _files() if p.name == request.param)


@pytest.mark.parametrize("policy", ["default", "public"])
def test_round_trip(path: Path, policy: str) -> None:
    data = path.read_bytes()
    out, report = native(data, "claude-code", policy=policy, key=KEY if policy == "public" else None)
    assert report.scanner["grammar"] == "pass" and report.scanner["taint"] in ("pass", "skipped")
    body = out.decode("utf-8")
    for name in USER_NAMES:
        assert name not in body, name
    src = [orjson.loads(line) for line in data.split(b"\n") if line.strip()]
    known = [r.get("type") for r in src if r.get("type") in RECORD.cases]
    got = lines(out)
    assert [r["type"] for r in got] == known
    assert sum(report.skipped_records.values()) == len(src) - len(known)
    read_session(out, "native.jsonl", report=RedactionReport(source="native.jsonl"))
    again = redact_bytes(out, name="native.jsonl", policy=policy, key=KEY if policy == "public" else None)
    # the scrubbed log still reads as the same session: a map with events, made by the same models
    # (`is not None` could not fail). Not the same events: commands reduced to verbs lose the file
    # operands that made a `read`, and prompts reduced to shapes read back as fewer turns.
    first = redact_bytes(data, name=path.name, policy=policy, key=KEY if policy == "public" else None)
    if policy == "default":  # under public a model outside the allowlist is already a token in the log
        assert again.session_map["session"].get("models") == first.session_map["session"].get("models")
    assert bool(again.session_map["events"]) == bool(first.session_map["events"])
