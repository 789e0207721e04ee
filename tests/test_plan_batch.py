"""`redact.plan_batch` (stable API): the sessions and map names of `redact INPUT... --out-dir DIR`, so
that a caller who schedules the work itself (examples/distributed/) writes the CLI's maps exactly:
a Claude Code session's subagent transcripts are read with it and never listed on their own, and the
names (harness names kept, other names digested, keyed with a key, duplicates suffixed) are the CLI's."""
from __future__ import annotations

import gzip
import json
import shutil
import sys
from pathlib import Path

import pytest

import redact
from redact.cli import main

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from gen_tree import write_session  # noqa: E402 - importable once sys.path has the folder

KEY_HEX = "3c" * 32


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A projects tree: two project folders, sessions with subagent transcripts, a user-named copy."""
    root = tmp_path / "projects"
    write_session(root / "-Users-u-src-a", 60_000, seed=1, subagents=2, cwd="/Users/u/src/a")
    write_session(root / "-Users-u-src-a", 40_000, seed=2, subagents=0, cwd="/Users/u/src/a")
    write_session(root / "-Users-u-src-b", 60_000, seed=3, subagents=1, cwd="/Users/u/src/b")
    first = sorted((root / "-Users-u-src-b").glob("*.jsonl"))[0]
    shutil.copy(first, tmp_path / "acme-layoffs-notes.jsonl")
    return root


def _cli_maps(args: list[str], out: Path) -> dict[str, bytes]:
    code = main([*args, "--out-dir", str(out), "--jobs", "1"])
    assert code in (0, None)
    return {p.name: p.read_bytes() for p in sorted(out.glob("*.json.gz"))}


def test_plan_lists_main_transcripts_only_with_the_clis_names(tree: Path, tmp_path: Path) -> None:
    note = tmp_path / "acme-layoffs-notes.jsonl"
    args = [str(tree), str(note), str(tmp_path / "nothing-*.jsonl")]
    sessions, unusable = redact.plan_batch(args, tmp_path / "planned")
    assert (tmp_path / "planned").is_dir()
    subagents = {str(p) for p in tree.rglob("agent-*.jsonl")}
    assert len(subagents) == 3
    mains = sorted(str(p) for p in tree.glob("*/*.jsonl"))
    assert [s for s, _ in sessions] == [*mains, str(note)]
    assert not subagents & {s for s, _ in sessions}
    assert [a for a, _ in unusable] == [args[2]]
    assert "nothing-" in unusable[0][1] and "\n" not in unusable[0][1]
    # the CLI writes exactly these names, in the same folder layout
    written = _cli_maps(args[:2], tmp_path / "cli")
    assert sorted(Path(o).name for _, o in sessions) == sorted(written)
    assert all(Path(o).parent == tmp_path / "planned" for _, o in sessions)
    # a name the harness did not choose is not kept
    assert not any("acme" in Path(o).name for _, o in sessions)


def test_redact_file_on_each_planned_pair_makes_the_clis_bytes(tree: Path, tmp_path: Path) -> None:
    key_path = tmp_path / "key"
    key_path.write_text(KEY_HEX)
    key_path.chmod(0o600)
    key = redact.load_key_file(key_path)
    note = tmp_path / "acme-layoffs-notes.jsonl"
    sessions, unusable = redact.plan_batch([tree, note], tmp_path / "api", key=key, policy="public")
    assert unusable == []
    for source, target in sessions:
        redact.redact_file(source, target, policy="public", key=key)
    api = {p.name: p.read_bytes() for p in sorted((tmp_path / "api").iterdir())}
    cli = _cli_maps([str(tree), str(note), "--policy", "public", "--key-file", str(key_path)], tmp_path / "cli")
    assert api == cli
    # each parent map has its subagent lanes
    lanes = sorted(sum(a["kind"] == "subagent" for a in json.loads(gzip.decompress(b))["agents"])
                   for b in api.values())
    assert lanes == [0, 0, 1, 2]  # the copy outside the tree has no subagent transcripts beside it


def test_a_keyed_digest_name_depends_on_the_key_and_the_link_scope(tmp_path: Path) -> None:
    note = tmp_path / "my notes.jsonl"
    note.write_bytes(b"")
    (tmp_path / "k1").write_text(KEY_HEX)
    (tmp_path / "k2").write_text("4d" * 32)
    for k in ("k1", "k2"):
        (tmp_path / k).chmod(0o600)
    k1, k2 = redact.load_key_file(tmp_path / "k1"), redact.load_key_file(tmp_path / "k2")

    def name(**kw: object) -> str:
        return Path(redact.plan_batch([note], tmp_path / "out", **kw)[0][0][1]).name  # type: ignore[arg-type]

    names = {name(), name(key=k1), name(key=k2), name(key=k1, link_scope="dataset:r1")}
    assert len(names) == 4 and all(n.startswith("session-") for n in names)
    assert name(key=k1, policy="public") == name(key=k1)  # session and global: the key file's digest
