"""Dropping and counting is the design, but the user must be told: every run that dropped or skipped
anything says how much on stderr, in one line; a map whose events all fail is bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_MAP, cli, snapshot

MALFORMED = {"seq": "zero", "t": -5, "kind": 7}


def _map(tmp_path: Path, events: list[object], name: str = "m.json") -> Path:
    doc = json.loads(EXAMPLE_MAP.read_text())
    doc["events"] = events
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def _drop_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(("agentplay-redact: dropped",
                                                                  "agentplay-redact: skipped"))]


def test_a_map_whose_events_all_fail_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _map(tmp_path, [MALFORMED, dict(MALFORMED)])
    before = snapshot(tmp_path)
    run = cli(capsys, src, "-o", tmp_path / "out.json")
    assert run.code == 2, run.err
    assert len(run.lines) == 1 and f"{src}#/events" in run.err and "none of the map's 2 events" in run.err
    assert snapshot(tmp_path) == before


def test_a_dropped_event_is_said_on_stderr_with_its_count(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    events = json.loads(EXAMPLE_MAP.read_text())["events"]
    src = _map(tmp_path, events[:1] + [MALFORMED] + events[1:])
    run = cli(capsys, src, "-o", tmp_path / "out.json", "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    report = json.loads((tmp_path / "r.json").read_text())
    n_events = sum(report["droppedEvents"].values())
    assert n_events == 1
    lines = _drop_lines(run.err)
    assert len(lines) == 1, run.err
    assert f"dropped {n_events} event," in lines[0]
    assert f"{sum(report['droppedFields'].values())} field" in lines[0]
    assert len(json.loads((tmp_path / "out.json").read_text())["events"]) == len(events)


def test_a_batch_says_its_drops_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = json.loads(EXAMPLE_MAP.read_text())["events"]
    a = _map(tmp_path, events + [MALFORMED], "a.json")
    b = _map(tmp_path, events + [MALFORMED, MALFORMED], "b.json")
    run = cli(capsys, a, b, "--out-dir", tmp_path / "out", "--jobs", "1")
    assert run.code == 0, run.err
    lines = _drop_lines(run.err)
    assert len(lines) == 1 and "dropped 3 events" in lines[0] and "over 2 input(s)" in lines[0], run.err
