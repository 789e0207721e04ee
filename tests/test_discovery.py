"""Every session on the machine (issue 24): `agentplay-redact ~` finds each agent's sessions where
that agent keeps them, any folder is searched by layout and then by content, companions are never
sessions of their own, the run says per agent what it found and where it looked, writes a manifest,
stops honestly on Ctrl-C, resumes with --skip-existing, and never writes over anything it reads.

The home here is written by hand from the repository's own fixtures (no corpus needed); the same
checks on a home built from the shared corpus are in tests/test_discovery_corpus.py."""
from __future__ import annotations

import gzip
import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact import plan_batch
from redact.batch import run as batch
from redact.cli import main
from redact.formats.discover import discover
from redact.formats.stores import sessions_of
from tests.formats import storefix
from tests.formats.test_aider import history
from tests.formats.test_opencode_tree import tree

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures"
CC = ROOT / "examples" / "claude-code"
CC_SID = "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77"
KEY_HEX = "5e" * 32


def _copy(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)
    return dst


def make_home(home: Path) -> dict[str, int]:
    """A home laid out as the agents write it (Linux, macOS and Windows places mixed), with the
    noise of a real one; returns the sessions placed per agent (stores counted by their rows)."""
    placed: Counter[str] = Counter()
    _copy(CC, home / ".claude" / "projects" / "-home-dana-src-shop")  # a main and its subagent
    placed["claude-code"] += 1
    _copy(FIX / "codex" / "rollout-2026-03-02T09-00-00-019c0a11-2b3c-7d4e-8f50-61728394a5b6.jsonl",
          home / ".codex" / "sessions" / "2026" / "03" / "02" / "rollout-2026-03-02T09-00-00-019c0a11-2b3c-7d4e-8f50-61728394a5b6.jsonl")
    placed["codex"] += 1
    (home / ".codex" / "auth.json").write_text('{"OPENAI_API_KEY": "sk-planted"}')  # never opened
    _copy(FIX / "gemini-cli" / "tmp", home / ".gemini" / "tmp")
    placed["gemini-cli"] += 2
    state = _copy(FIX / "copilot-cli" / "session-state", home / ".copilot" / "session-state")
    (state / "07c40cd0-aaaa-4bbb-8ccc-1234567890ab" / "workspace.yaml").write_text("cwd: /home/dana/src/shop\n")
    placed["copilot-cli"] += 2
    data = home / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    storefix.opencode_db(data / "opencode.db", extra_session=True)
    placed["opencode"] += len(sessions_of(data / "opencode.db"))
    cursor = home / "Library" / "Application Support" / "Cursor" / "User" / "globalStorage" / "state.vscdb"
    cursor.parent.mkdir(parents=True)
    storefix.cursor_global_db(cursor)
    placed["cursor"] += len(sessions_of(cursor))
    project = home / "code" / "shop"
    (project / ".crush").mkdir(parents=True)
    storefix.crush_db(project / ".crush" / "crush.db")
    placed["crush"] += len(sessions_of(project / ".crush" / "crush.db"))
    (project / ".aider.chat.history.md").write_text(history())
    (project / ".aider.input.history").write_text("typed words\n")  # auxiliary: skipped by name
    placed["aider"] += 2  # the history holds two launches, a session each (redact/formats/runs.py)
    _copy(FIX / "copilot-vscode" / "chatSessions" / "a622273b-64af-41b3-b181-debba92c0202.json",
          home / ".config" / "Code" / "User" / "workspaceStorage" / "eb1d13" / "chatSessions" /
          "a622273b-64af-41b3-b181-debba92c0202.json")
    placed["copilot-vscode"] += 1
    _copy(FIX / "cline" / "tasks", home / "AppData" / "Roaming" / "Code" / "User" / "globalStorage" /
          "saoudrizwan.claude-dev" / "tasks")
    placed["cline"] += 1
    _copy(FIX / "chat" / "T-16c2227a-e98f-4969-998b-aaa50a930b05.json",
          home / ".local" / "share" / "amp" / "threads" / "T-16c2227a-e98f-4969-998b-aaa50a930b05.json")
    placed["amp"] += 1
    _copy(FIX / "chat" / "e00926af-e2ae-429b-8fc2-2c4f66629d7f.json",
          home / ".continue" / "sessions" / "e00926af-e2ae-429b-8fc2-2c4f66629d7f.json")
    (home / ".continue" / "sessions" / "sessions.json").write_text("[]")  # the index: skipped
    placed["continue-dev"] += 1
    _copy(FIX / "chat" / "openhands-events.json",
          home / ".openhands" / "conversations" / "738af793554247daab6f62001054d444" / "events.json")
    placed["openhands"] += 1
    # noise a walk must not enter: a dependency folder and a virtualenv holding session-named files
    _copy(project / ".aider.chat.history.md", home / "code" / "node_modules" / "pkg" / ".aider.chat.history.md")
    (home / "code" / "venv").mkdir()
    (home / "code" / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    _copy(project / ".aider.chat.history.md", home / "code" / "venv" / "lib" / ".aider.chat.history.md")
    return dict(placed)


@pytest.fixture()
def home(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    folder = tmp_path / "home"
    return folder, make_home(folder)


def _index(out: Path) -> dict[str, object]:
    doc: dict[str, object] = json.loads((out / "index.json").read_text())
    return doc


def _entries(out: Path) -> list[dict[str, object]]:
    entries = _index(out)["entries"]
    assert isinstance(entries, list)
    return entries


def _maps(out: Path) -> dict[str, dict[str, object]]:
    return {p.name: json.loads(gzip.decompress(p.read_bytes())) for p in sorted(out.glob("*.json.gz"))}


def test_the_home_gives_a_map_for_every_session_of_every_agent(home: tuple[Path, dict[str, int]], tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder, placed = home
    out = tmp_path / "maps"
    assert main([str(folder), "--out-dir", str(out), "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    maps = _maps(out)
    assert len(maps) == sum(placed.values())
    # the manifest agrees with the disk, entry by entry
    written = [e for e in _entries(out) if e["status"] == batch.WRITTEN]
    assert sorted(str(e["output"]) for e in written) == sorted(maps)
    assert Counter(str(e["agent"]) for e in written) == placed
    for e in written:  # and each map is the session of the agent the manifest says
        session = maps[str(e["output"])]["session"]
        assert str(e["agent"]).startswith(str(session["agentTool"])), e  # type: ignore[index]
        assert e["session"] == session["id"]  # type: ignore[index]
    assert _index(out)["leaving"] == [*sorted(maps), "index.json"]
    # one line per agent before the table, with the count on disk and the place it came from
    for agent, n in placed.items():
        line = next(ln for ln in err.splitlines() if ln.split(": ", 1)[-1].startswith(agent + " "))
        assert f"{n} session(s)" in line, line
    assert "~/.claude/projects/*" in err or f"{folder}" not in err.split("claude-code", 1)[1].splitlines()[0]
    assert "store(s)" in next(ln for ln in err.splitlines() if ": opencode " in ln)
    # the walk never entered node_modules or the virtualenv; credentials and auxiliary files are named
    assert not any("node_modules" in str(e.get("path")) for e in _entries(out))
    assert "sessions.json: skipped (" in err and "session index" in err  # named, not read


def test_the_claude_folder_itself_and_its_projects_folder_work(home: tuple[Path, dict[str, int]],
                                                              tmp_path: Path) -> None:
    folder, _ = home
    for n, arg in enumerate((folder / ".claude", folder / ".claude" / "projects")):
        out = tmp_path / f"maps{n}"
        assert main([str(arg), "--out-dir", str(out)]) == 0
        assert list(_maps(out)) == [f"{CC_SID}.json.gz"]  # the subagent is inside its parent's map
        parent = _maps(out)[f"{CC_SID}.json.gz"]
        assert any(a["kind"] == "subagent" for a in parent["agents"])  # type: ignore[index, union-attr]


def test_a_home_with_nothing_in_a_place_says_where_it_looked(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "home"
    _copy(CC, folder / ".claude" / "projects" / "p")
    (folder / ".codex" / "sessions").mkdir(parents=True)  # there, but empty
    assert main([str(folder), "--out-dir", str(tmp_path / "maps")]) == 0
    err = capsys.readouterr().err
    looked = next(ln for ln in err.splitlines() if "looked in, nothing there" in ln)
    assert "codex ~/.codex/sessions" in looked
    assert "do not exist here" in err


def test_any_folder_is_searched_by_content(tmp_path: Path) -> None:
    """A user's `shared-sessions/`: files under names no agent writes, a main transcript with its
    subagent folder, a store, and a README; each session alone is detected, so the folder is too."""
    shared = tmp_path / "shared-sessions"
    _copy(CC / f"{CC_SID}.jsonl", shared / "dana" / "monday.jsonl")
    _copy(CC / CC_SID, shared / "dana" / "monday")  # monday/subagents/agent-*.jsonl: a companion
    _copy(FIX / "codex" / "legacy-2025-08.json", shared / "codex-run.json")
    _copy(FIX / "chat" / "T-16c2227a-e98f-4969-998b-aaa50a930b05.json", shared / "amp thread.txt")
    storefix.opencode_db(shared / "store.sqlite", extra_session=True)
    (shared / "README.md").write_text("# what these are\n")
    out = tmp_path / "maps"
    assert main([str(shared), "--out-dir", str(out)]) == 0
    maps = _maps(out)
    assert Counter(str(m["session"]["agentTool"]) for m in maps.values()) == {  # type: ignore[index]
        "claude-code": 1, "codex": 1, "amp": 1, "opencode": 2}
    claude = next(m for m in maps.values() if m["session"]["agentTool"] == "claude-code")  # type: ignore[index]
    assert any(a["kind"] == "subagent" for a in claude["agents"])  # type: ignore[index, union-attr]
    readme = [e for e in _entries(out) if e["status"] == batch.SKIPPED and "no session format" in str(e["why"])]
    assert len(readme) == 1


def test_a_damaged_gzip_in_a_folder_does_not_stop_its_discovery(tmp_path: Path) -> None:
    """A `.jsonl.gz` whose stream is damaged past its header (zlib's own error, not gzip's) is
    a file it cannot name, and the session beside it is still found."""
    from redact.formats.discover import discover

    folder = tmp_path / "logs"
    _copy(CC / f"{CC_SID}.jsonl", folder / "monday.jsonl")
    (folder / "broken.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"not a gzip stream")
    found = discover(folder)
    names = {s.path.name for s in found.sessions}
    assert "monday.jsonl" in names and "broken.jsonl.gz" not in names


def test_companions_are_never_sessions_of_their_own(tmp_path: Path) -> None:
    """opencode's storage tree (message and part files), a store's -wal and -shm, Copilot CLI's
    workspace.yaml: read with their session, never listed as one."""
    folder = tmp_path / "things"
    session = tree(folder / "opencode" / "storage")
    (folder / "live").mkdir()
    writer = storefix.opencode_db(folder / "live" / "opencode.db", keep_open=True)
    assert writer is not None
    try:
        assert Path(f"{folder}/live/opencode.db-wal").stat().st_size > 0
        state = _copy(FIX / "copilot-cli" / "session-state", folder / "copilot")
        (state / "07c40cd0-aaaa-4bbb-8ccc-1234567890ab" / "workspace.yaml").write_text("cwd: /home/dana/src/shop\n")
        found = discover(folder)
    finally:
        writer.close()
    names = sorted(str(s.path.relative_to(folder)) for s in found.sessions)
    assert str(session.relative_to(folder)) in names
    assert not any(n.startswith(("opencode/storage/message", "opencode/storage/part")) for n in names)
    assert not any(n.endswith(("-wal", "-shm", "workspace.yaml")) for n in names)
    assert any(n.startswith("live/opencode.db") for n in names)


def test_a_wal_given_is_read_with_its_store(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = storefix.opencode_db(db, keep_open=True)
    assert writer is not None
    try:
        assert main([f"{db}-wal", "-o", str(tmp_path / "one.json")]) == 0
        assert json.loads((tmp_path / "one.json").read_text())["session"]["agentTool"] == "opencode"
        assert main([f"{db}-wal", str(tmp_path / "nothing-*.md"), "--out-dir", str(tmp_path / "maps")]) == 2
        assert len(_maps(tmp_path / "maps")) == 1  # the pattern matched nothing; the store still ran
    finally:
        writer.close()


def test_a_store_reached_through_a_glob_gives_one_map_per_session(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    storefix.opencode_db(tmp_path / "in" / "a.db", extra_session=True)
    assert main([str(tmp_path / "in" / "*.db"), "--out-dir", str(tmp_path / "maps")]) == 0
    assert len(_maps(tmp_path / "maps")) == len(sessions_of(tmp_path / "in" / "a.db")) == 2


def test_files_that_look_like_sessions_but_cannot_be_read_are_named(home: tuple[Path, dict[str, int]],
                                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    folder, placed = home
    locked = folder / ".continue" / "sessions" / "e00926af-e2ae-429b-8fc2-2c4f66629d7f.json"
    if os.geteuid() != 0:
        locked.chmod(0)
    else:  # root reads any file: the denial is what the file system would say to its owner
        real_open = Path.open

        def denied(self: Path, *args: object, **kwargs: object) -> object:
            if self == locked:
                raise PermissionError(13, "Permission denied")
            return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Path, "open", denied)
    out = tmp_path / "maps"
    assert main([str(folder), "--out-dir", str(out), "--jobs", "1"]) == 2  # a session not redacted
    err = capsys.readouterr().err
    assert f"{locked}: cannot be read (Permission denied)" in err
    assert len(_maps(out)) == sum(placed.values()) - 1  # the others are written
    assert any(e["status"] == batch.BAD for e in _entries(out))


def test_the_manifest_names_no_input_and_json_pairs_them(home: tuple[Path, dict[str, int]], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = home
    out = tmp_path / "maps"
    assert main([str(folder), "--out-dir", str(out), "--json"]) == 0
    local = json.loads(capsys.readouterr().out)
    index = (out / "index.json").read_text()
    assert str(folder) not in index and "dana" not in index and "shop" not in index
    shipped = json.loads(index)
    assert [e["input"] for e in local["entries"]] == [e["input"] for e in shipped["entries"]]
    for e in local["entries"]:
        assert Path(e["path"].split("#")[0]).exists()
        if e["status"] == batch.WRITTEN:
            assert (out / e["output"]).is_file() and e["events"] >= 0


def test_under_a_policy_that_hashes_ids_no_output_is_named_after_its_input(home: tuple[Path, dict[str, int]],
                                                                          tmp_path: Path) -> None:
    folder, placed = home
    key = tmp_path / "key"
    key.write_text(KEY_HEX)
    key.chmod(0o600)
    out = tmp_path / "maps"
    assert main([str(folder), "--out-dir", str(out), "--policy", "public", "--key-file", str(key)]) == 0
    maps = _maps(out)
    assert len(maps) == sum(placed.values())
    ids = {str(m["session"]["id"]).rsplit(":", 1)[-1] for m in maps.values()}  # type: ignore[index]
    stems = {p.name.split(".")[0] for p in folder.rglob("*") if p.is_file()} | {p.name for p in folder.rglob("*")}
    for name in maps:
        stem = name.removesuffix(".json.gz")
        assert stem.startswith("session-") and stem not in stems
        assert not any(raw in name for raw in (CC_SID, "019c0a11", "e00926af", "ses_", "a622273b"))
    assert all(i.startswith("h:") or ":" not in i for i in ids)
    index = (out / "index.json").read_text()  # the manifest leaves too: no raw id in it either
    assert not any(raw in index for raw in (CC_SID, "019c0a11", "e00926af", "ses_", "a622273b"))


def test_ctrl_c_leaves_complete_maps_says_so_and_skip_existing_resumes(home: tuple[Path, dict[str, int]],
                                                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder, placed = home
    total = sum(placed.values())
    whole = tmp_path / "whole"
    assert main([str(folder), "--out-dir", str(whole), "--jobs", "1"]) == 0
    real = batch.redact_one
    calls: list[int] = []

    def stop_at_the_fourth(task: batch.Task, settings: batch.Settings) -> batch.Outcome:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(task, settings)

    monkeypatch.setattr(batch, "redact_one", stop_at_the_fourth)
    out = tmp_path / "maps"
    capsys.readouterr()
    assert main([str(folder), "--out-dir", str(out), "--jobs", "1"]) == 130
    err = capsys.readouterr().err
    assert f"interrupted after 3 of {total} sessions; 3 maps are complete" in err
    assert "nothing written" not in err
    left = _maps(out)  # each one parses whole: no partial map
    assert len(left) == 3 and not list(out.glob(".*"))
    assert all((whole / name).read_bytes() == (out / name).read_bytes() for name in left)
    index = _index(out)
    assert index["interrupted"] is True and index["complete"] is False
    statuses = Counter(str(e["status"]) for e in _entries(out) if e["status"] != batch.SKIPPED or e["output"])
    assert statuses == {"written": 3, "not run": total - 3}
    monkeypatch.setattr(batch, "redact_one", real)
    assert main([str(folder), "--out-dir", str(out), "--jobs", "1", "--skip-existing"]) == 0
    assert sorted(_maps(out)) == sorted(_maps(whole))
    assert all((whole / n).read_bytes() == (out / n).read_bytes() for n in _maps(out))
    resumed = Counter((str(e["status"]), bool(e["output"])) for e in _entries(out))
    assert resumed[("skipped", True)] == 3 and resumed[("written", True)] == total - 3


# -- the output guard ---------------------------------------------------------------------------------

def _refused(args: list[str], victim: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = victim.read_bytes()
    assert main(args) == 2
    assert victim.read_bytes() == before
    assert "refusing to overwrite the input" in capsys.readouterr().err


def test_no_output_replaces_a_stores_wal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "opencode.db"
    writer = storefix.opencode_db(db, keep_open=True)
    assert writer is not None
    try:
        wal = Path(f"{db}-wal")
        _refused([str(db), "-o", str(wal)], wal, capsys)
        _refused([f"{db}-wal", "-o", str(wal)], wal, capsys)  # the store given by its WAL
    finally:
        writer.close()


def test_no_output_replaces_an_opencode_message_or_part_file(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    session = tree(tmp_path / "storage")
    message = next((tmp_path / "storage" / "message").rglob("msg_*.json"))
    part = next((tmp_path / "storage" / "part").rglob("prt_*.json"))
    _refused([str(session), "-o", str(message)], message, capsys)
    _refused([str(session), "-o", str(tmp_path / "m.json"), "--report", str(part)], part, capsys)


def test_no_output_replaces_a_workspace_file_or_a_subagent_transcript(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    state = _copy(FIX / "copilot-cli" / "session-state", tmp_path / "state")
    log = state / "07c40cd0-aaaa-4bbb-8ccc-1234567890ab" / "events.jsonl"
    workspace = log.parent / "workspace.yaml"
    workspace.write_text("cwd: /home/dana/src/shop\n")
    _refused([str(log), "-o", str(workspace)], workspace, capsys)
    chat = _copy(FIX / "copilot-vscode" / "chatSessions", tmp_path / "ws" / "chatSessions")
    folder_file = tmp_path / "ws" / "workspace.json"  # VS Code's: the workspace's folder
    folder_file.write_text('{"folder": "file:///home/dana/src/shop"}')
    session = chat / "a622273b-64af-41b3-b181-debba92c0202.json"
    _refused([str(session), "-o", str(tmp_path / "m.json"), "--report", str(folder_file)], folder_file, capsys)
    project = _copy(CC, tmp_path / "project")
    sub = next((project / CC_SID / "subagents").glob("agent-*.jsonl"))
    _refused([str(project / f"{CC_SID}.jsonl"), "-o", str(sub)], sub, capsys)
    _refused([str(project / f"{CC_SID}.jsonl"), "--to", "native", "-o", str(sub)], sub, capsys)


def test_a_planned_output_is_never_an_input_of_the_batch(tmp_path: Path) -> None:
    """Issue 30: `d/0123abcd.json d/0123abcd.json.gz --out-dir d` named the first map after the
    second input and wrote over it. Both the CLI and plan_batch now take another name."""
    d = tmp_path / "d"
    first = _copy(FIX / "copilot-vscode" / "chatSessions" / "a622273b-64af-41b3-b181-debba92c0202.json",
                  d / "0123abcd.json")
    second = d / "0123abcd.json.gz"
    second.write_bytes(gzip.compress((CC / f"{CC_SID}.jsonl").read_bytes()))
    link = d / "0123abcd-2.json.gz"
    link.symlink_to(second)  # a link to an input is that input too
    before = {p: p.read_bytes() for p in (first, second)}
    pairs, _ = plan_batch([first, second], d)
    outputs = [Path(o) for _, o in pairs]
    inputs = {os.path.realpath(p) for p in (first, second, link)}
    assert len(set(outputs)) == 2 and not {os.path.realpath(o) for o in outputs} & inputs
    assert main([str(first), str(second), "--out-dir", str(d)]) == 0
    assert {p: p.read_bytes() for p in (first, second)} == before
    assert all(o.is_file() and not o.is_symlink() for o in outputs)
    assert json.loads(gzip.decompress(outputs[0].read_bytes()))["session"]["agentTool"] == "copilot-vscode"


def test_stdin_says_its_subagent_transcripts_are_out_of_reach(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    data = (CC / f"{CC_SID}.jsonl").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["-", "-o", str(tmp_path / "m.json")]) == 0
    assert "out of reach" in capsys.readouterr().err
    assert main([str(CC / f"{CC_SID}.jsonl"), "-o", str(tmp_path / "n.json")]) == 0
    assert "out of reach" not in capsys.readouterr().err


# -- many maps ----------------------------------------------------------------------------------------

def test_audit_and_scan_a_folder_of_maps_with_one_summary(home: tuple[Path, dict[str, int]], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder, placed = home
    out = tmp_path / "maps"
    assert main([str(folder), "--out-dir", str(out)]) == 0
    capsys.readouterr()
    n = sum(placed.values())
    assert main(["scan", str(out)]) == 0
    assert f"scanned {n} of {n} map(s): {n} clean, 0 with findings, 0 not scanned" in capsys.readouterr().err
    assert main(["audit", str(out), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["maps"] == n and doc["summary"]["withFindings"] == 0
    assert sorted(Path(r["file"]).name for r in doc["maps"]) == sorted(_maps(out))
    (out / "broken.json").write_text("{")
    assert main(["audit", *(str(p) for p in sorted(out.glob("*.json*")) if p.name != "index.json")]) == 2
    captured = capsys.readouterr()
    assert f"{n + 1} maps" in captured.out and "1 not audited" in captured.out
    assert "broken.json" in captured.err


# -- properties ---------------------------------------------------------------------------------------

_NAMES = st.sampled_from(["0123abcd", "0123abcd-2", "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77", "notes",
                          "session-0123abcd0123", "ses_12be9f828ffeaiYkWjPssYhKmB"])
_SUFFIXES = st.sampled_from([".json", ".json.gz", ".jsonl", ".gz", ""])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.tuples(_NAMES, _SUFFIXES), min_size=1, max_size=6, unique=True), hashed=st.booleans())
def test_no_planned_output_is_an_input_and_no_two_are_the_same(tmp_path_factory: pytest.TempPathFactory,
                                                               names: list[tuple[str, str]], hashed: bool) -> None:
    """For any input names in the output folder itself, planned maps never land on an input (the
    data loss of issue 30), never on each other, and under a policy that hashes ids never carry an
    input's name."""
    d = tmp_path_factory.mktemp("d")
    files = []
    for stem, suffix in names:
        path = d / f"{stem}{suffix}"
        path.write_text('{"schema": "agentplay/v1", "events": []}\n')
        files.append(path)
    tasks, _ = batch.plan([str(p) for p in files], d, hash_names=hashed)
    outputs = [os.path.realpath(t.output) for t in tasks]
    assert len(set(outputs)) == len(outputs) == len(files)
    assert not set(outputs) & {os.path.realpath(p) for p in files}
    if hashed:
        assert all(Path(o).name.startswith("session-") for o in outputs)
        assert not any(stem in Path(o).name for o in outputs for stem, _ in names if stem != "session-0123abcd0123")


def test_ctrl_c_in_the_parallel_path_leaves_exactly_the_maps_it_reports(home: tuple[Path, dict[str, int]],
                                                                        tmp_path: Path) -> None:
    """Workers may finish while the pool stops: every map on disk is among the outcomes returned
    (nothing written that the manifest would not name), and each is complete."""
    folder, placed = home
    out = tmp_path / "maps"
    planned = batch.plan_all([str(folder)], out)
    seen: list[batch.Outcome] = []

    def stop_at_the_second(outcome: batch.Outcome) -> None:
        seen.append(outcome)
        if len(seen) == 2:
            raise KeyboardInterrupt

    from redact.policy.load import load_policy

    with pytest.raises(batch.Interrupted) as stop:
        batch.run(planned.tasks, batch.Settings(load_policy("default")), jobs=2, on_done=stop_at_the_second)
    done = stop.value.done
    assert stop.value.total == sum(placed.values()) and 2 <= len(done) < stop.value.total
    written = {Path(o.output).name for o in done if o.status == batch.WRITTEN and o.output}
    assert set(_maps(out)) == written  # each parses whole, and none is unaccounted for
    assert not [p for p in out.iterdir() if p.name not in written]


def test_the_batch_flags_are_refused_for_one_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `--json` is also a one-file run's summary (issue 27); `--skip-existing` is a batch's alone
    assert main([str(CC / f"{CC_SID}.jsonl"), "-o", str(tmp_path / "m.json"), "--skip-existing"]) == 2
    assert "--skip-existing is for a batch" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists()
    assert main(["--all", str(CC), "--out-dir", str(tmp_path / "maps")]) == 2
    assert "--all searches your home folder" in capsys.readouterr().err


def test_formats_lists_where_each_agent_keeps_its_sessions(capsys: pytest.CaptureFixture[str]) -> None:
    from redact.formats.registry import formats

    assert main(["formats", "--homes"]) == 0
    lines = set(capsys.readouterr().out.splitlines())
    expected = {f"{fmt.name}\t{home}" for fmt in formats() for home in fmt.homes}
    assert lines == expected
    # the agents the issue names each have a place, per OS where the agent is a desktop app
    by_format = {fmt.name: fmt.homes for fmt in formats()}
    assert "~/.claude/projects/*" in by_format["claude-code"]
    for agent in ("cursor", "copilot-vscode", "cline"):
        assert any(h.startswith("~/Library/Application Support/") for h in by_format[agent])
        assert any(h.startswith("~/AppData/Roaming/") for h in by_format[agent])
        assert any(h.startswith("~/.config/") for h in by_format[agent])


def test_a_real_ctrl_c_mid_batch_keeps_the_maps_it_names(tmp_path: Path) -> None:
    """SIGINT to a running batch (as Ctrl-C sends it): exit 130, the message counts what is on
    disk, every map there parses whole, and index.json says which ran."""
    import io
    import re
    import signal
    import subprocess
    import sys
    import time
    import uuid

    sys.path.insert(0, str(ROOT / "bench"))
    from gen_claude_code import generate

    project = tmp_path / "home" / ".claude" / "projects" / "-home-dana-src-big"
    project.mkdir(parents=True)
    for i in range(12):
        buf = io.BytesIO()
        generate(buf, 250_000, i + 1)
        (project / f"{uuid.UUID(int=i + 1)}.jsonl").write_bytes(buf.getvalue())
    out = tmp_path / "maps"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "redact", str(tmp_path / "home"), "--out-dir", str(out),
                             "--jobs", "1"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    deadline = time.monotonic() + 300
    while proc.poll() is None and not list(out.glob("*.json.gz")) and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    said = re.search(r"interrupted after (\d+) of 12 sessions; (\d+) maps are complete", err)
    assert said is not None, err
    maps = _maps(out)  # each one parses whole
    assert len(maps) == int(said[2]) == int(said[1]) < 12
    index = _index(out)
    assert index["interrupted"] is True and index["written"] == len(maps)
    assert sorted(str(e["output"]) for e in _entries(out) if e["status"] == batch.WRITTEN) == sorted(maps)
    assert not [p for p in out.iterdir() if p.name not in maps and p.name != "index.json"]  # no temp left


def test_a_document_longer_than_the_detection_head_is_detected_whole(tmp_path: Path) -> None:
    """A pretty-printed Cline task of several MiB does not parse from its first MiB (which reads as
    a map's start): named or found in a folder, it is still a Cline task."""
    task = json.loads((FIX / "cline" / "tasks" / "1770577372307" / "ui_messages.json").read_text())
    big = tmp_path / "tasks" / "1770577372308" / "ui_messages.json"
    big.parent.mkdir(parents=True)
    copies = task * (1 + (3 << 20) // len(json.dumps(task)))
    big.write_text(json.dumps(copies, indent=2))
    assert big.stat().st_size > 2 << 20
    assert main([str(big), "-o", str(tmp_path / "one.json")]) == 0
    assert json.loads((tmp_path / "one.json").read_text())["session"]["agentTool"] == "cline"
    assert main([str(tmp_path / "tasks"), "--out-dir", str(tmp_path / "maps")]) == 0
    assert len(_maps(tmp_path / "maps")) == 1
