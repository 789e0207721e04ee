"""Every Claude Code transcript of the shared corpus round-trips through `--to native`.

Skipped cleanly when ../shared/corpus is absent. Each file (main transcripts and subagent transcripts
alike) is scrubbed natively under default and public; the native scan passes with the file as taint
source; no user name of the corpus survives; every record type the file holds is kept in order or
counted as skipped; and the output reads again with the project's reader and builds a valid map.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

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
    # the scrubbed log tells the same story as the original: the same tool, model and error events,
    # kind by kind, in order (a prompt that was only a slash command, `/usage`, reads as no prompt
    # once its text is a shape, so user turns may only be fewer)
    first = redact_bytes(data, name=path.name, policy=policy, key=KEY if policy == "public" else None)
    def story(m: dict[str, Any]) -> list[str]:
        return [e["kind"] for e in m["events"] if e["kind"] != "user"]

    def turns(m: dict[str, Any]) -> int:
        return sum(1 for e in m["events"] if e["kind"] == "user")

    assert story(again.session_map) == story(first.session_map)
    assert turns(again.session_map) <= turns(first.session_map)
    assert again.session_map["events"], "a corpus session has events"
