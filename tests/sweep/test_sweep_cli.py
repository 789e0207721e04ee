"""`agentplay-redact sweep` and `hook` from the command line: exit codes, formats (SARIF validated
against the OASIS schema), no value printed, the hook installer's round trips, the hook's scrub."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from redact.cli import main
from redact.errors import UsageError
from redact.keys.material import keygen
from redact.sweep.hooks import MARK, install, uninstall
from tests.audit.test_sarif import validate
from tests.sweep.plant import make_secrets


def _session(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "0b7c5e4a-1111-4222-8333-944455556666.jsonl"
    rec = {"type": "user", "uuid": "a1", "timestamp": "2025-05-01T10:00:00Z",
           "message": {"role": "user", "content": text}}
    path.write_text(json.dumps(rec) + "\n")
    return path


def _key(tmp_path: Path) -> Path:
    path = tmp_path / "k.key"
    keygen(path)
    return path


def test_exit_0_clean_1_found_2_bad(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = _session(tmp_path / "a", "nothing here") if (tmp_path / "a").mkdir() is None else None
    assert clean is not None and main(["sweep", str(clean)]) == 0
    secret = make_secrets(1)["github-token"]
    found = _session(tmp_path, f"use {secret}")
    assert main(["sweep", str(found)]) == 1
    out = capsys.readouterr()
    assert "github-token" in out.out and secret not in out.out + out.err and secret[:10] not in out.out
    assert main(["sweep", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.jsonl" in err


@pytest.mark.parametrize("fmt", ["json", "sarif", "html"])
def test_formats_hold_no_value(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secrets = make_secrets(2)
    path = _session(tmp_path, " and ".join(secrets.values()))
    assert main(["sweep", str(path), "--format", fmt]) == 1
    out = capsys.readouterr().out
    for value in secrets.values():
        for part in value.split("\n"):
            assert part not in out or len(part) < 8
    if fmt == "sarif":
        doc = json.loads(out)
        validate(doc)
        results = doc["runs"][0]["results"]
        assert len(results) >= len(secrets) - 1
        assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 1 for r in results)
    if fmt == "json":
        assert json.loads(out)["summary"]["secrets"] >= len(secrets) - 1
    if fmt == "html":
        assert "Content-Security-Policy" in out and "What to rotate" in out


def test_scrub_then_restore_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = _key(tmp_path)
    secret = make_secrets(3)["slack-token"]
    path = _session(tmp_path, f"slack {secret}")
    before = path.read_bytes()
    assert main(["sweep", str(path), "--scrub"]) == 2  # needs a vault
    assert main(["sweep", str(path), "--scrub", "--vault", str(tmp_path / "v.vault"), "--key-file", str(key)]) == 1
    assert secret not in path.read_text() and "[REDACTED:slack-token:" in path.read_text()
    assert "proof:" in capsys.readouterr().out
    assert main(["sweep", str(path), "--key-file", str(key)]) == 0  # nothing left
    assert main(["sweep", "--restore", str(tmp_path / "v.vault"), "--key-file", str(key)]) == 0
    assert path.read_bytes() == before


CLAUDE_SETTINGS = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]},
                   "hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}],
                             "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli"])
def test_json_hook_round_trips(agent: str, tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    original = json.dumps(CLAUDE_SETTINGS, indent=2) + "\n"
    settings.write_text(original)
    key = _key(tmp_path)
    install(agent, key, tmp_path / "vaults", settings=settings)
    doc = json.loads(settings.read_text())
    ours = doc["hooks"]["SessionEnd"][-1]["hooks"][0]
    assert MARK in ours["command"] and " hook run " + agent in ours["command"]
    assert doc["hooks"]["SessionEnd"][0] == CLAUDE_SETTINGS["hooks"]["SessionEnd"][0]
    assert doc["model"] == "opus" and doc["hooks"]["Stop"] == CLAUDE_SETTINGS["hooks"]["Stop"]
    assert (tmp_path / "settings.json.agentplay-backup").read_text() == original
    assert "already" in install(agent, key, tmp_path / "vaults", settings=settings)
    uninstall(agent, settings=settings)
    assert settings.read_text() == original


def test_codex_notify_round_trips_byte_for_byte(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    original = 'model = "o3"\n\n[projects."/home/me/app"]\ntrust_level = "trusted"\n'
    config.write_text(original)
    install("codex", _key(tmp_path), tmp_path / "vaults", settings=config)
    doc = tomllib.loads(config.read_text())
    assert doc["notify"][-2:] == ["--vault-dir", str((tmp_path / "vaults").resolve())]
    assert doc["projects"] == {"/home/me/app": {"trust_level": "trusted"}} and doc["model"] == "o3"
    uninstall("codex", settings=config)
    assert config.read_text() == original


def test_a_settings_file_that_does_not_parse_is_refused_untouched(tmp_path: Path) -> None:
    for name, agent in (("settings.json", "claude-code"), ("config.toml", "codex")):
        path = tmp_path / name
        path.write_text("{ not valid = [")
        with pytest.raises(UsageError):
            install(agent, _key(tmp_path) if not (tmp_path / "k.key").exists() else tmp_path / "k.key",
                    tmp_path / "v", settings=path)
        assert path.read_text() == "{ not valid = ["
    codex = tmp_path / "other.toml"
    codex.write_text('notify = ["notify-send"]\n')
    with pytest.raises(UsageError):
        install("codex", tmp_path / "k.key", tmp_path / "v", settings=codex)
    assert codex.read_text() == 'notify = ["notify-send"]\n'


def test_claude_hook_run_scrubs_the_transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    key = _key(tmp_path)
    secret = make_secrets(4)["stripe-key"]
    path = _session(tmp_path, f"stripe {secret}")
    payload = json.dumps({"session_id": "x", "transcript_path": str(path), "hook_event_name": "SessionEnd"})
    monkeypatch.setattr("sys.stdin", io.StringIO(payload))
    assert main(["hook", "run", "claude-code", "--key-file", str(key), "--vault-dir", str(tmp_path / "vaults")]) == 0
    assert secret not in path.read_text()
    assert len(list((tmp_path / "vaults").iterdir())) == 1


def test_no_path_sweeps_every_agent_home_the_registry_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from redact.sweep.targets import default_roots

    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["sweep"]) == 2  # no agent home yet: said, not a silent clean report
    assert "no agent home" in capsys.readouterr().err
    project = tmp_path / ".claude" / "projects" / "-home-me-app"
    project.mkdir(parents=True)
    secret = make_secrets(5)["github-token"]
    _session(project, f"token {secret}")
    assert default_roots() == [str(project)]
    assert main(["sweep", "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["byClass"] == {"github-token": 1}


def test_no_path_finds_the_places_inside_project_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`{project}/...` homes (Aider's history in the project, Crush's `.crush` folder) are found by
    the home-wide batch's project walk; the project's own files are not swept."""
    from redact.sweep.targets import default_roots, sweep_inputs

    monkeypatch.setenv("HOME", str(tmp_path))
    app = tmp_path / "code" / "app"
    (app / "src").mkdir(parents=True)
    secrets = make_secrets(6)
    history = app / ".aider.chat.history.md"
    history.write_text(f"# aider chat started at 2025-01-01 10:00:00\n\n#### use {secrets['github-token']}\n")
    (app / "src" / "notes.md").write_text(f"my own notes {secrets['stripe-key']}\n")  # not an agent's log
    crush = app / ".crush"
    crush.mkdir()
    (crush / "notes.log").write_text(f"slack {secrets['slack-token']}\n")
    roots = default_roots()
    assert str(history) in roots and str(crush) in roots
    assert not any(r == str(app) or r.startswith(str(app / "src")) for r in roots)
    files = {str(f) for f in sweep_inputs([]).files}
    assert str(history) in files and str(crush / "notes.log") in files and str(app / "src" / "notes.md") not in files
    assert main(["sweep", "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["byClass"] == {"github-token": 1, "slack-token": 1}
