"""Every Codex rollout of the shared corpus (all three layouts) round-trips through `--to native`.

Skipped cleanly when ../shared/corpus is absent. Each file is scrubbed under default and public; the
native scan passes with the file as taint source; no home-folder user name of the file survives;
records are kept in order (unknown ones counted); the output reads again with the project's Codex
reader and builds a valid map.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from redact.api import redact_bytes
from redact.formats.codex.reader import read_session
from redact.report import RedactionReport
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.native.helpers import KEY, native

pytestmark = pytest.mark.corpus
_HOME = re.compile(rb"/(?:Users|home)/([A-Za-z0-9._-]{2,40})/")


@cache
def _files() -> tuple[Path, ...]:
    return tuple(sorted(p for p in corpus_dir("codex").iterdir() if p.suffix in (".jsonl", ".json")))


def _names() -> list[str]:
    return corpus_params(lambda: [p.name for p in _files()])


@pytest.fixture(params=_names(), ids=lambda name: name.rsplit(".", 1)[0][-36:])
def path(request: pytest.FixtureRequest) -> Path:
    corpus_case(request.param, "codex")
    return next(p for p in _files() if p.name == request.param)


@pytest.mark.parametrize("policy", ["default", "public"])
def test_round_trip(path: Path, policy: str) -> None:
    data = path.read_bytes()
    key = KEY if policy == "public" else None
    out, report = native(data, "codex", policy=policy, key=key)
    assert report.scanner["grammar"] == "pass"
    users = {m.group(1) for m in _HOME.finditer(data)} - {b"runner", b"user"}
    for user in users:
        assert b"/" + user + b"/" not in out and b'"' + user not in out, user
    if path.suffix == ".jsonl":
        src = [line for line in data.split(b"\n") if line.strip()]
        got = [line for line in out.split(b"\n") if line.strip()]
        assert len(got) + sum(report.skipped_records.values()) == len(src)
    read_session(out, "native", report=RedactionReport(source="native"))
    again = redact_bytes(out, name="native", input_format="codex", policy=policy, key=key)
    # the scrubbed log still reads as the same session: a map with events, made by the same models
    # (`is not None` could not fail). Not the same events: commands reduced to verbs lose the file
    # operands that made a `read`, and prompts reduced to shapes read back as fewer turns.
    first = redact_bytes(data, name=path.name, input_format="codex", policy=policy, key=key)
    if policy == "default":  # under public a model outside the allowlist is already a token in the log
        assert again.session_map["session"].get("models") == first.session_map["session"].get("models")
    assert bool(again.session_map["events"]) == bool(first.session_map["events"])
