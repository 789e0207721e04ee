"""Detection, session discovery, the CLI around Claude Code inputs, and paths on every platform."""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from redact.api import redact_bytes, redact_file
from redact.cli import main
from redact.formats.detect import detect
from redact.errors import BadInput
from redact.formats.claude_code.files import find_sidechains, project_sessions
from tests.formats import legacy_fixture, make_example
from tests.formats.ccfix import Transcript, tool_use

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_detects_transcripts_and_maps() -> None:
    main_path, sub_path = make_example.paths()
    assert detect(main_path.read_bytes(), "x") == "claude-code"
    assert detect(sub_path.read_bytes(), "x") == "claude-code"
    assert detect((EXAMPLES / "session-map.json").read_bytes(), "x") == "agentplay"
    one_line_map = json.dumps(json.loads((EXAMPLES / "session-map.json").read_text())).encode()
    assert detect(one_line_map, "x") == "agentplay"
    summary_only = b'{"type":"summary","summary":"t","leafUuid":"6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00"}\n'
    assert detect(summary_only, "x") == "claude-code"
    assert detect(b'{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{}}\n', "x") == "codex"
    with pytest.raises(BadInput, match="unknown input format"):
        detect(b'{"timestamp":"2025-01-01T00:00:00Z","kind":"nothing-we-read"}\n', "x")


def test_a_transcript_mentioning_events_is_still_a_transcript() -> None:
    t = Transcript("6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00", "/home/a/p")
    t.user('{"schema": "agentplay/v1", "events": []}')
    assert detect(t.bytes(), "x") == "claude-code"


def test_formats_lists_claude_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formats"]) == 0
    assert "claude-code" in capsys.readouterr().out


def test_sidechains_new_and_flat_layouts(tmp_path: Path) -> None:
    main_path, sub_path = make_example.paths()
    found = find_sidechains(main_path)
    assert [(s.path, s.agent_id) for s in found] == [(sub_path, make_example.AGENT)]
    legacy = legacy_fixture.DIR / f"{legacy_fixture.SESSION}.jsonl"
    assert [s.agent_id for s in find_sidechains(legacy)] == [legacy_fixture.FLAT_AGENT]
    # a flat agent transcript of another session is not this session's
    other = tmp_path / "agent-0a1b2c3.jsonl"
    t = Transcript("00000000-1111-4222-8333-444444444444", "/home/a/p", agent_id="0a1b2c3")
    t.user("Warmup")
    other.write_bytes(t.bytes())
    copy = tmp_path / legacy.name
    shutil.copy(legacy, copy)
    assert find_sidechains(copy) == []
    assert project_sessions(tmp_path) == [copy, other]  # the orphan is redacted on its own


def test_cli_folder_to_out_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "-Users-dana-kowalski-src-acme-billing"
    shutil.copytree(make_example.ROOT, project)
    for name in (f"{legacy_fixture.SESSION}.jsonl", f"agent-{legacy_fixture.FLAT_AGENT}.jsonl"):
        shutil.copy(legacy_fixture.DIR / name, project / name)
    out = tmp_path / "maps"
    out.mkdir()
    assert main([str(project)]) == 2  # a folder needs --out-dir
    assert main([str(project), "--out-dir", str(out)]) == 0
    made = sorted(p.name for p in out.glob("*.json.gz"))
    assert made == sorted([f"{legacy_fixture.SESSION}.json.gz", f"{make_example.SESSION}.json.gz"])
    m = json.loads(gzip.decompress((out / f"{make_example.SESSION}.json.gz").read_bytes()))
    assert m["totals"]["subagents"] == 1  # the subagents folder was found and read
    assert "wrote 2 map(s)" in capsys.readouterr().err


def test_cli_bad_line_and_skip_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "s.jsonl"
    t = Transcript("6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00", "/home/a/p")
    t.user("one")
    src.write_bytes(t.bytes() + b'{"broken": \n')
    out = tmp_path / "o.json"
    assert main([str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:2" in err and "broken" not in err and not out.exists()
    assert main([str(src), "-o", str(out), "--skip-bad-lines"]) == 0
    assert "skipped 1 bad line(s)" in capsys.readouterr().err and out.exists()


def test_cli_format_option(tmp_path: Path) -> None:
    main_path, _ = make_example.paths()
    out = tmp_path / "o.json"
    assert main([str(main_path), "--input-format", "agentplay", "-o", str(out)]) == 2
    assert main([str(main_path), "--input-format", "nope", "-o", str(out)]) == 2
    assert main([str(main_path), "--input-format", "claude-code", "-o", str(out)]) == 0


def test_stdin_reads_the_main_transcript_only() -> None:
    main_path, _ = make_example.paths()
    result = redact_bytes(main_path.read_bytes(), name="<stdin>")
    lanes = result.session_map["agents"]
    assert [a["id"] for a in lanes] == ["main"]  # no files next to stdin: the subagent lane is absent
    assert redact_file(main_path).session_map["totals"]["subagents"] == 1


@pytest.mark.parametrize("cwd, read, write", [
    ("/Users/bob/proj", "/Users/bob/proj/src/a.py", "/Users/bob/Downloads/x.csv"),
    ("C:\\Users\\bob\\proj", "C:\\Users\\bob\\proj\\src\\a.py", "C:\\Users\\bob\\Downloads\\x.csv"),
    ("C:\\Users\\bob\\proj", "c:/Users/bob/proj/src/a.py", "c:/users/bob/downloads/x.csv"),
    ("/home/bob/proj", "src/a.py", "/home/bob/Downloads/x.csv"),
])
def test_paths_on_every_platform(cwd: str, read: str, write: str) -> None:
    t = Transcript("6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00", cwd)
    t.user("go")
    for name, path in (("Read", read), ("Write", write),
                       ("Read", "C:\\Users\\bob\\.claude\\projects\\C--Users-bob-proj\\s.jsonl")):
        tid = t.tool_id()
        t.assistant([tool_use(tid, name, {"file_path": path, "content": "x"})])
        t.result(tid, "ok")
    for policy in ("default", "internal"):
        m = redact_bytes(t.bytes(), name="s.jsonl", policy=policy).session_map
        assert [f["path"] for f in m["files"]] == ["src/a.py"]
        labels = [tg["label"] for e in m["events"] for tg in e.get("targets", []) if "label" in tg]
        assert labels == ["~/Downloads", "~/.claude/projects"]
        assert "bob" not in json.dumps(m)


def test_a_damaged_first_line_is_still_detected(tmp_path: Path) -> None:
    t = Transcript("6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00", "/home/a/p")
    t.user("one")
    t.user("two")
    data = b'{"type": "user", "trunc\n' + t.bytes()
    assert detect(data, "x") == "claude-code"
    with pytest.raises(BadInput) as info:
        redact_bytes(data, name="s.jsonl")
    assert info.value.where == "s.jsonl:1"
    assert redact_bytes(data, name="s.jsonl", skip_bad_lines=True).session_map["totals"]["userTurns"] == 2
    pretty = json.dumps(json.loads((EXAMPLES / "session-map.json").read_text()), indent=2).encode()
    assert detect(pretty, "x") == "agentplay"
