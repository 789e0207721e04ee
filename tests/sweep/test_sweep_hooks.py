"""The session-end hooks: Codex's notify scrubs the rollout of the turn's thread, in place (Codex keeps
appending to it); a rollout still being written is left alone and retried at the next notify; every
agent with a hook round-trips its settings file; an agent without one is refused with what to do."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from redact.cli import main
from redact.keys.material import keygen
from redact.sweep.hooks import AGENTS, MARK, PENDING, hook_targets
from tests.sweep.plant import make_secrets

THREAD = "019a3c5e-1b2c-7d3e-9f40-5a6b7c8d9e0f"
OTHER = "019a3c5e-0000-7000-8000-000000000001"


def _key(tmp_path: Path) -> Path:
    path = tmp_path / "k.key"
    keygen(path)
    return path


def _rollout(home: Path, thread: str, text: str, day: str = "2026/11/30") -> Path:
    folder = home / ".codex" / "sessions" / day
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-11-30T10-00-00-{thread}.jsonl"
    records = [
        {"timestamp": "2026-11-30T10:00:00.000Z", "type": "session_meta", "payload": {"id": thread, "cwd": "/w"}},
        {"timestamp": "2026-11-30T10:00:01.000Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _notify(thread: str) -> str:
    return json.dumps({"type": "agent-turn-complete", "thread-id": thread, "turn-id": "1", "cwd": "/w",
                       "input-messages": ["hi"], "last-assistant-message": "done"})


def _run(tmp_path: Path, payload: str) -> int:
    return main(["hook", "run", "codex", payload, "--key-file", str(tmp_path / "k.key"),
                 "--vault-dir", str(tmp_path / "vaults")])


def test_codex_notify_scrubs_the_rollout_of_its_thread_in_place(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    _key(tmp_path)
    secrets = make_secrets(21)
    mine = _rollout(tmp_path, THREAD, f"use {secrets['github-token']} please")
    other = _rollout(tmp_path, OTHER, f"and {secrets['stripe-key']}", day="2026/11/29")
    other_before = other.read_bytes()
    inode = mine.stat().st_ino
    with mine.open("a", encoding="utf-8") as codex:  # Codex holds its rollout open for appending
        assert _run(tmp_path, _notify(THREAD)) == 0
        codex.write(json.dumps({"type": "event_msg", "payload": {"type": "token_count"}}) + "\n")
    text = mine.read_text()
    assert secrets["github-token"] not in text and "[REDACTED:github-token:" in text
    assert mine.stat().st_ino == inode  # the same file: what Codex appends next lands in it
    lines = text.splitlines()
    assert len(lines) == 3 and json.loads(lines[-1])["payload"]["type"] == "token_count"
    assert [json.loads(line)["type"] for line in lines[:2]] == ["session_meta", "response_item"]
    assert other.read_bytes() == other_before  # another thread's rollout: its own notify scrubs it
    assert len(list((tmp_path / "vaults").glob("*.vault"))) == 1


def test_codex_payload_names_only_an_id(tmp_path: Path) -> None:
    _rollout(tmp_path, THREAD, "hello")
    assert hook_targets("codex", _notify(THREAD), home=tmp_path)[0].endswith(f"-{THREAD}.jsonl")
    for bad in ("*", "../../etc", "", "x" * 100, "a/b"):
        assert hook_targets("codex", _notify(bad), home=tmp_path) == []
    assert hook_targets("codex", "not json", home=tmp_path) == []
    assert hook_targets("codex", json.dumps([1]), home=tmp_path) == []


def test_a_rollout_still_being_written_is_left_alone_and_retried(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import redact.sweep.vault as vault_module

    monkeypatch.setenv("HOME", str(tmp_path))
    _key(tmp_path)
    secret = make_secrets(22)["slack-token"]
    path = _rollout(tmp_path, THREAD, f"slack {secret}")
    real = vault_module.write_sweep_vault

    def then_codex_writes(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"type": "event_msg", "payload": {"type": "agent_message"}}) + "\n")

    monkeypatch.setattr(vault_module, "write_sweep_vault", then_codex_writes)
    assert _run(tmp_path, _notify(THREAD)) == 0
    assert secret in path.read_text()  # left alone: it changed while it was read
    assert json.loads((tmp_path / "vaults" / PENDING).read_text()) == [str(path)]
    monkeypatch.setattr(vault_module, "write_sweep_vault", real)
    assert _run(tmp_path, _notify(OTHER)) == 0  # the next notify (another thread's) retries it
    assert secret not in path.read_text()
    assert not (tmp_path / "vaults" / PENDING).exists()


SETTINGS = {"model": "x", "hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}],
                                    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                                  "command": "guard"}]}]}}


@pytest.mark.parametrize("agent", [a for a in AGENTS if a != "codex"])
def test_every_json_hook_agent_round_trips_its_settings_file(agent: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from redact.sweep.hooks import settings_path

    monkeypatch.setenv("HOME", str(tmp_path))
    settings = settings_path(agent, tmp_path)
    settings.parent.mkdir(parents=True)
    original = json.dumps(SETTINGS, indent=2) + "\n"
    settings.write_text(original)
    os.chmod(settings, 0o600)
    key = _key(tmp_path)
    assert main(["hook", "install", agent, "--key-file", str(key), "--vault-dir", str(tmp_path / "v")]) == 0
    doc = json.loads(settings.read_text())
    assert doc["hooks"]["PreToolUse"] == SETTINGS["hooks"]["PreToolUse"] and doc["model"] == "x"
    assert MARK in doc["hooks"]["SessionEnd"][-1]["hooks"][0]["command"]
    assert (settings.stat().st_mode & 0o777) == 0o600
    assert main(["hook", "uninstall", agent]) == 0
    assert settings.read_text() == original


@pytest.mark.parametrize("agent", ["cursor", "opencode", "aider", "goose", "no-such-agent"])
def test_an_agent_without_a_hook_is_refused_with_the_alternative(agent: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    key = _key(tmp_path)
    assert main(["hook", "install", agent, "--key-file", str(key)]) == 2
    err = capsys.readouterr().err
    assert "no hook can be installed" in err and "pre-commit" in err and "sweep --scrub" in err
    assert list(tmp_path.iterdir()) == [key]  # nothing written anywhere


def test_claude_session_end_scrubs_the_subagent_transcripts_too(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    key = _key(tmp_path)
    secrets = make_secrets(23)
    project = tmp_path / ".claude" / "projects" / "-home-me-app"
    sid = "0b7c5e4a-1111-4222-8333-944455556666"
    main_path = project / f"{sid}.jsonl"
    sub = project / sid / "subagents" / "agent-a1b2c3d4.jsonl"
    sub.parent.mkdir(parents=True)
    for path, value, uuid in ((main_path, secrets["github-token"], "m1"), (sub, secrets["stripe-key"], "s1")):
        rec = {"type": "user", "uuid": uuid, "sessionId": sid, "timestamp": "2025-05-01T10:00:00Z",
               "message": {"role": "user", "content": f"use {value}"}}
        path.write_text(json.dumps(rec) + "\n")
    payload = json.dumps({"session_id": sid, "transcript_path": str(main_path), "hook_event_name": "SessionEnd"})
    monkeypatch.setattr("sys.stdin", io.StringIO(payload))
    assert main(["hook", "run", "claude-code", "--key-file", str(key), "--vault-dir", str(tmp_path / "v")]) == 0
    assert secrets["github-token"] not in main_path.read_text()
    assert secrets["stripe-key"] not in sub.read_text() and "[REDACTED:stripe-key:" in sub.read_text()


def test_codex_stop_hook_in_hooks_json_round_trips_and_scrubs_the_rollout_it_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Codex's hooks (`~/.codex/hooks.json`, Claude Code's shape): a Stop hook, run when each turn
    ends with the rollout's path on standard input; the rest of the file is kept, uninstall gives
    it back; the hook scrubs the rollout in place."""
    import io

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    key = _key(tmp_path)
    hooks_json = tmp_path / ".codex" / "hooks.json"
    hooks_json.parent.mkdir(parents=True)
    original = json.dumps({"hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
        {"type": "command", "command": "guard", "timeout": 30}]}]}}, indent=2) + "\n"
    hooks_json.write_text(original)
    config = tmp_path / ".codex" / "config.toml"
    config.write_text('model = "o3"\n')
    assert main(["hook", "install", "codex", "--key-file", str(key), "--vault-dir", str(tmp_path / "v")]) == 0
    doc = json.loads(hooks_json.read_text())
    assert doc["hooks"]["PreToolUse"] == json.loads(original)["hooks"]["PreToolUse"]
    (entry,) = doc["hooks"]["Stop"][0]["hooks"]
    assert entry["type"] == "command" and MARK in entry["command"] and " hook run codex " in entry["command"]
    assert config.read_text() == 'model = "o3"\n'  # no `notify` as well: one scrub per turn

    secrets = make_secrets(24)
    rollout = _rollout(tmp_path, THREAD, f"use {secrets['github-token']} please")
    inode = rollout.stat().st_ino
    payload = json.dumps({"session_id": THREAD, "turn_id": "t1", "transcript_path": str(rollout), "cwd": "/w",
                          "hook_event_name": "Stop", "model": "o3", "permission_mode": "default",
                          "stop_hook_active": False, "last_assistant_message": "done"})
    monkeypatch.setattr("sys.stdin", io.StringIO(payload))
    assert main(["hook", "run", "codex", "--key-file", str(key), "--vault-dir", str(tmp_path / "v")]) == 0
    text = rollout.read_text()
    assert secrets["github-token"] not in text and "[REDACTED:github-token:" in text
    assert rollout.stat().st_ino == inode

    assert main(["hook", "uninstall", "codex"]) == 0
    assert json.loads(hooks_json.read_text()) == json.loads(original)


def test_codex_notify_is_still_installed_on_request_and_uninstall_finds_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    key = _key(tmp_path)
    config = tmp_path / "codex-home" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "o3"\n')
    assert main(["hook", "install", "codex", "--notify", "--key-file", str(key)]) == 0
    assert MARK in config.read_text() and not (tmp_path / "codex-home" / "hooks.json").exists()
    assert main(["hook", "uninstall", "codex"]) == 0
    assert config.read_text() == 'model = "o3"\n'


def test_droid_passes_its_transcript_in_camel_case(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text("{}\n")
    payload = json.dumps({"hookEventName": "SessionEnd", "sessionId": "x", "transcriptPath": str(path)})
    assert hook_targets("factory-droid", payload) == [str(path)]
