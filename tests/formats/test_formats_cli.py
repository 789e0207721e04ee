"""Format detection for every input format, `--format` forcing a reader, `formats` listing them, and
exit 2 (naming the formats) for an input no reader claims."""
from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from redact.api import redact_bytes
from redact.cli import main
from redact.formats.detect import FORMATS, detect
from redact.errors import BadInput
from redact.formats.registry import raw_formats
from tests.formats import make_codex, make_example
from tests.formats import make_seed_formats as ms
from tests.formats.make_json_agents import FILES as JSON_AGENTS
from tests.formats.make_json_agents import FIXTURES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL = ("agentplay", "claude-code", "codex", "session-record", "teaagent", "agent-replay",
       "opencode", "crush", "cursor", "aider", "openhands", "openhands-v0", "amp", "continue-dev", "gemini-cli",
       "copilot-cli", "copilot-vscode", "cline", "kiro", "kiro-legacy", "kiro-ide", "kiro-ide-log", "pi", "qwen-code", "kimi",
       "zed", "factory-droid", "goose", "hermes")


def test_every_format_is_listed_and_has_a_reader(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(FORMATS) == set(ALL)
    assert set(raw_formats()) == set(ALL) - {"agentplay"}
    assert main(["formats"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ALL)


@pytest.mark.parametrize("path, fmt", [
    (make_example.paths()[0], "claude-code"), (EXAMPLES / "session-map.json", "agentplay"),
    (make_codex.MODERN, "codex"), (make_codex.LEGACY, "codex"), (make_codex.LEGACY_JSON, "codex"),
    (ms.SR_MAIN, "session-record"), (ms.TEA_L3, "teaagent"), (ms.TEA_L0, "teaagent"), (ms.AR_TRACE, "agent-replay"),
    *((FIXTURES / rel, rel.split("/")[0]) for rel in sorted(JSON_AGENTS)),
], ids=lambda v: getattr(v, "name", v))
def test_detected_from_the_content_not_the_name(path: Path, fmt: str, tmp_path: Path) -> None:
    assert detect(path.read_bytes(), "x") == fmt
    renamed = tmp_path / "session.txt"  # the name says nothing
    renamed.write_bytes(path.read_bytes())
    out = tmp_path / "out.json"
    assert main([str(renamed), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["schema"] == "agentplay/v1"


@pytest.mark.parametrize("data", [
    b'{"hello": "world"}\n{"another": "object"}\n',
    b'{\n  "pretty": "but unknown"\n}\n',
    b'[1, 2, 3]\n',
    b'not json at all\n',
])
def test_an_input_no_format_claims_is_exit_2_naming_the_formats(data: bytes, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "mystery.jsonl"
    src.write_bytes(data)
    out = tmp_path / "out.json"
    assert main([str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert not out.exists()
    assert all(name in err for name in ALL), err
    with pytest.raises(BadInput):
        detect(data, "x")


def test_format_forces_a_reader(tmp_path: Path) -> None:
    # a teaagent log whose records carry neither created_at nor prev_hash is not recognised...
    recs = [{"event_type": "run_start", "run_id": "run_1", "ts": "x", "payload": {"task": "t"}}]
    data = b"".join(orjson.dumps(r) + b"\n" for r in recs)
    with pytest.raises(BadInput):
        detect(data, "x")
    src = tmp_path / "run.jsonl"
    src.write_bytes(data)
    out = tmp_path / "out.json"
    assert main([str(src), "-o", str(out)]) == 2
    # ...unless --format says what it is (records without a time are then counted, not guessed)
    assert main([str(src), "--input-format", "teaagent", "-o", str(out)]) == 0
    assert main([str(src), "--input-format", "nope", "-o", str(out)]) == 2


def test_forcing_the_wrong_reader_still_leaks_nothing() -> None:
    data = make_codex.MODERN.read_bytes()
    for fmt in ("session-record", "teaagent", "agent-replay", "claude-code"):
        try:
            out = redact_bytes(data, name="r.jsonl", input_format=fmt).data.decode()
        except BadInput as exc:  # it reads nothing of another format's log: refused, nothing written
            assert "looks like a Codex CLI rollout" in exc.what, fmt
            continue
        assert [s for s in make_codex.SECRETS if s in out] == [], fmt


@pytest.mark.parametrize("path", [make_codex.MODERN, ms.SR_MAIN, ms.TEA_L3, ms.AR_TRACE], ids=lambda p: p.name)
def test_regression_unhashable_values_and_huge_numbers_do_not_crash(path: Path) -> None:
    """Found by the hardening fuzzer: a `type` that is a list made a sniffer raise TypeError. Every
    value a reader compares with a table may be any JSON; numbers may be beyond 64 bits."""

    def poison(value: object) -> object:
        if isinstance(value, dict):
            return {k: ([{}] if k in ("type", "status", "state", "evidence", "kind", "event_type") else
                        10**30 if isinstance(v, int) and not isinstance(v, bool) else poison(v))
                    for k, v in value.items()}
        if isinstance(value, list):
            return [poison(v) for v in value]
        return value

    fmt = detect(path.read_bytes(), "x")
    if path.suffix == ".json":
        data = json.dumps(poison(json.loads(path.read_bytes()))).encode()
    else:
        data = b"".join(json.dumps(poison(json.loads(line))).encode() + b"\n"
                        for line in path.read_bytes().splitlines() if line.strip())
    result = redact_bytes(data, name=path.name, input_format=fmt)
    assert result.session_map["schema"] == "agentplay/v1"
    ints = [v for v in json.dumps(result.session_map).replace(",", " ").split() if v.isdigit()]
    assert all(int(v) < 2**63 for v in ints)


@pytest.mark.parametrize("stamp", ["9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999Z",
                                   "1900-01-01T00:00:00Z", "0001-01-01T00:00:00+00:00"])
def test_regression_times_beyond_the_writable_range_are_not_times(stamp: str) -> None:
    """Found by the hardening fuzzer: a record dated 9999-12-31T23:59:59.999... made the builder fail
    to write `startedAt` (year 10000). Times before 1970 or from 2200 on are not read as times."""
    header = {"type": "session", "formatVersion": "0.1", "sessionId": "0f3c2a7e-91b4-4d0e-8f43-2b6c1d7a9e10",
              "startedAt": "2026-10-26T14:00:00.000Z"}
    msg = {"type": "message", "ts": stamp, "role": "user", "author": "human", "content": [{"type": "text", "text": "x"}]}
    data = b"".join(orjson.dumps(r) + b"\n" for r in (header, msg))
    m = redact_bytes(data, name="s.jsonl").session_map
    assert m["session"]["startedAt"] == "2026-10-26T14:00:00.000Z" and m["totals"]["userTurns"] == 1
