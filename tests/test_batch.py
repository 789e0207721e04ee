"""Many inputs at once (redact/batch/run.py and `redact --out-dir`): the parallel path writes exactly what
the serial one and a single-input run write, one bad input does not stop the others, exit codes say
the worst outcome, and outputs do not depend on --jobs or on PYTHONHASHSEED."""
from __future__ import annotations

import gzip
import io
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from redact.batch import run as batch
from redact.api import redact_file
from redact.cli import main
from redact.keys.material import Key, parse_key_text
from redact.policy.load import load_policy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from gen_claude_code import generate  # noqa: E402 - importable once sys.path has the folder

KEY_HEX = "5e" * 32
LEAKY_POLICY = 'name = "keep-tasks"\nextends = "default"\n[text]\nkeep_task_names = true\n'


def _transcript(path: Path, size: int, seed: int) -> Path:
    buf = io.BytesIO()
    generate(buf, size, seed)
    path.write_bytes(buf.getvalue())
    return path


@pytest.fixture()
def inputs(tmp_path: Path) -> Path:
    """A folder of inputs: a Claude Code project (with a subagent), two generated transcripts, a map."""
    folder = tmp_path / "in"
    shutil.copytree(ROOT / "examples" / "claude-code", folder / "project")
    _transcript(folder / "gen-a.jsonl", 120_000, 1)
    _transcript(folder / "gen-b.jsonl", 80_000, 2)
    shutil.copy(ROOT / "examples" / "session-map.json", folder / "map.json")
    return folder


@pytest.fixture()
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "key.hex"
    path.write_text(KEY_HEX + "\n")
    path.chmod(0o600)
    return path


def _args(folder: Path) -> list[str]:
    return [str(folder / "project"), str(folder / "gen-*.jsonl"), str(folder / "map.json")]


def _maps(out: Path) -> dict[str, bytes]:
    """The maps of an output folder (its manifest, index.json, aside)."""
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.name != "index.json"}


def _run(args: list[str], out: Path, *more: str) -> int:
    out.mkdir(exist_ok=True)
    return main([*args, "--out-dir", str(out), *more])


def test_parallel_outputs_equal_serial_and_single_runs_byte_for_byte(inputs: Path, key_file: Path,
                                                                      tmp_path: Path) -> None:
    common = ["--mode", "hashed", "--key-file", str(key_file)]
    assert _run(_args(inputs), tmp_path / "serial", "--jobs", "1", *common) == 0
    assert _run(_args(inputs), tmp_path / "parallel", "--jobs", "2", *common) == 0
    serial, parallel = _maps(tmp_path / "serial"), _maps(tmp_path / "parallel")
    key = parse_key_text(KEY_HEX.encode(), source="test")
    named = {batch.output_name(Path(p), key) for p in ("gen-a.jsonl", "gen-b.jsonl", "map.json")}
    assert sorted(serial) == sorted({"5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.json.gz", *named})
    assert parallel == serial
    alone = tmp_path / "alone.json.gz"
    redact_file(inputs / "gen-a.jsonl", alone, policy="default", key=key, mode="hashed")
    gen_a = batch.output_name(Path("gen-a.jsonl"), key)
    assert alone.read_bytes() == serial[gen_a]
    made = json.loads(gzip.decompress(serial[gen_a]))
    assert made["session"]["pathMode"] == "hashed"  # the workers loaded the key themselves


def test_one_bad_input_does_not_stop_the_others(inputs: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (inputs / "broken.jsonl").write_bytes(b'{"type": "user"\n')
    args = [*_args(inputs), str(inputs / "broken.jsonl"), str(inputs / "nothing-*.jsonl")]
    code = _run(args, tmp_path / "out", "--jobs", "2")
    err = capsys.readouterr().err
    assert code == 2
    assert len(_maps(tmp_path / "out")) == 4
    assert f"error: {inputs / 'broken.jsonl'}" in err and "no file matches" in err
    assert "wrote 4 map(s)" in err and "2 input(s) failed" in err


def test_a_leak_among_good_inputs_exits_1_and_a_bad_input_outranks_it(inputs: Path, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "keep.toml"
    policy.write_text(LEAKY_POLICY)
    doc = json.loads((inputs / "map.json").read_text())
    doc["tasks"][0]["name"] = "mail dana.kowalski@example.org the refund numbers"
    (inputs / "leaky.json").write_text(json.dumps(doc))
    args = [*_args(inputs), str(inputs / "leaky.json")]
    assert _run(args, tmp_path / "out", "--jobs", "2", "--policy", str(policy)) == 1
    err = capsys.readouterr().err
    assert "finding: leaky.json: grammar.email at /tasks/0/name" in err
    assert "dana.kowalski@example.org" not in err  # findings are masked
    assert "leaky.json.gz" not in _maps(tmp_path / "out")
    (inputs / "broken.jsonl").write_bytes(b"not json\n")
    assert _run([*args, str(inputs / "broken.jsonl")], tmp_path / "out2", "--policy", str(policy)) == 2


def test_exit_code_is_the_worst_outcome() -> None:
    def o(code: int) -> batch.Outcome:
        return batch.Outcome("x", None, batch.WRITTEN, code)

    assert batch.exit_code([o(0), o(0)]) == 0
    assert batch.exit_code([o(0), o(1)]) == 1
    assert batch.exit_code([o(1), o(2), o(0)]) == 2
    assert batch.exit_code([o(2), o(3)]) == 3


def test_outputs_do_not_depend_on_jobs_or_hash_seed(inputs: Path, key_file: Path, tmp_path: Path) -> None:
    made = []
    for seed, jobs in (("0", "1"), ("4242", "2")):
        out = tmp_path / f"out-{seed}"
        out.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        env.pop("AGENTPLAY_REDACT_KEY", None)
        env.pop("AGENTPLAY_REDACT_KEY_FILE", None)
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from redact.cli import main; sys.exit(main())", *_args(inputs), "--out-dir", str(out), "--jobs", jobs,
             "--policy", "internal", "--mode", "hashed", "--key-file", str(key_file)],
            env=env, capture_output=True, text=True, timeout=120, cwd=ROOT, check=False)
        assert done.returncode == 0, done.stderr
        made.append(_maps(out))
    assert made[0] == made[1] and len(made[0]) == 4


def test_keys_never_travel_to_workers(key_file: Path) -> None:
    key = parse_key_text(KEY_HEX.encode(), source="test")
    with pytest.raises(TypeError):
        pickle.dumps(key)
    source = batch.KeySource.for_loaded(key, key_file)
    blob = pickle.dumps(batch.Settings(load_policy("default"), source))
    assert KEY_HEX.encode() not in blob and bytes.fromhex(KEY_HEX) not in blob
    assert KEY_HEX not in repr(source)
    loaded = source.load()
    assert isinstance(loaded, Key) and loaded.fingerprint() == key.fingerprint()
    key_file.write_text("6f" * 32 + "\n")  # replaced while running: the worker refuses it
    with pytest.raises(Exception, match="key changed"):
        source.load()


def test_expand_folders_globs_and_names(tmp_path: Path) -> None:
    projects = tmp_path / "projects"  # a tree of Claude Code project folders
    for name in ("-Users-ann-src-a", "-Users-ann-src-b"):
        shutil.copytree(ROOT / "examples" / "claude-code", projects / name)
    (projects / "-Users-ann-src-b" / "loop").symlink_to(projects)  # links are not followed
    out = tmp_path / "out"
    out.mkdir()
    tasks, unusable = batch.plan([str(projects), str(projects / "*" / "*.jsonl")], out)
    assert unusable == []
    names = [Path(t.output).name for t in tasks]
    session = "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77"
    assert names == [f"{session}.json.gz", f"{session}-2.json.gz"]  # each input once; names kept apart
    assert all("ann" not in name for name in names)
    rollout = "rollout-2025-08-19T08-25-08-38b123ff-933b-4dfe-bd12-d42671fcb25f"
    assert batch.output_name(Path(f"x/{rollout}.jsonl.gz")) == f"{rollout}.json.gz"


@pytest.mark.parametrize("name", ["acme-layoffs-notes.jsonl", "alice_session.json", "rollout-1.jsonl.gz",
                                  "Zq7Canary.jsonl"])
def test_an_output_is_not_named_after_a_file_name_the_harness_did_not_write(name: str) -> None:
    """The output file is shared with its map: a user's own file name (`acme-layoffs-notes`) used
    to become the map's name. Only harness names (session ids, rollouts) are kept; others are a
    digest, the same every run, and the summary pairs each input with its output."""
    out = batch.output_name(Path("logs") / name)
    stem = name.split(".")[0]
    assert stem not in out and re.fullmatch(r"session-[0-9a-f]{12}\.json\.gz", out)
    assert out == batch.output_name(Path("elsewhere") / name)


def test_a_missing_out_dir_is_made_and_a_file_is_refused(tmp_path: Path) -> None:
    """README's `--out-dir maps/` on a fresh machine: the folder is made. A file there is refused."""
    src = ROOT / "examples" / "session-map.json"
    assert main([str(src), str(src), "--out-dir", str(tmp_path / "new" / "maps")]) == 0
    assert len(list((tmp_path / "new" / "maps").glob("*.json.gz"))) == 1  # one input, named once
    (tmp_path / "afile").write_text("x")
    assert main([str(src), str(src), "--out-dir", str(tmp_path / "afile")]) == 2


def test_with_a_key_the_output_name_digest_is_keyed() -> None:
    """Without a key, `session-<hex>` is SHA-256 of the name: a guessed name can be tested. With a
    key it is keyed: the same for one key, different for another, never the unkeyed one."""
    from redact.keys.material import Key

    one, two = Key(bytes(range(32)), source="t"), Key(bytes(range(1, 33)), source="t")
    path = Path("logs/acme-layoffs-notes.jsonl")
    names = {batch.output_name(path), batch.output_name(path, one), batch.output_name(path, two)}
    assert len(names) == 3 and batch.output_name(path, one) == batch.output_name(Path("x") / path.name, one)
    assert all(re.fullmatch(r"session-[0-9a-f]{12}\.json\.gz", n) for n in names)
    rollout = Path("rollout-2025-08-19T08-25-08-38b123ff-933b-4dfe-bd12-d42671fcb25f.jsonl")
    assert batch.output_name(rollout, one) == batch.output_name(rollout)  # harness names stay


def test_the_summary_table_fits_100_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Input and output both repeated the session id (a Codex rollout's name is 70 characters): every
    row wrapped at 120 columns. The output is `= .json.gz` when named after its input."""
    codex = ROOT / "tests" / "fixtures" / "codex" / \
        "rollout-2026-03-02T09-00-00-019c0a11-2b3c-7d4e-8f50-61728394a5b6.jsonl"
    claude = ROOT / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"
    bad = tmp_path / "notes.jsonl"
    bad.write_text("not json at all, a long line that is not a log " * 4)
    code = main([str(codex), str(claude), str(bad), "--out-dir", str(tmp_path / "maps"), "--jobs", "1"])
    assert code == 2
    err = capsys.readouterr().err
    table = err[err.index("3 input(s)"):err.index("agentplay-redact: dropped")]
    assert max(len(line) for line in table.splitlines()) <= 100, table
    rows = [line for line in table.splitlines() if "written" in line and ".json" in line]
    assert len(rows) == 2, table
    for row in rows:
        assert "= .json.gz" in row
    assert sum(row.count("5f3c2a10") for row in rows) == 1  # each id once: input only
    assert sum(row.count("728394a5b6") for row in rows) == 1


def test_a_codex_sessions_tree_lists_its_single_json_rollouts(tmp_path: Path) -> None:
    """The August-2025 Codex layout wrote each rollout as one JSON document (`rollout-<date>-<uuid>.json`):
    batch mode found only the JSON Lines ones and left these out of `~/.codex/sessions` silently."""
    from tests.formats import make_codex

    day = tmp_path / "sessions" / "2025" / "08" / "23"
    day.mkdir(parents=True)
    single = tmp_path / "sessions" / "rollout-2025-08-23-672ef139-69c2-459c-811e-750869be452a.json"
    single.write_bytes(make_codex.legacy_json())
    lines = day / "rollout-2025-08-23T05-46-47-a3e9dc1b-d96a-4423-afc1-79625a539643.jsonl"
    lines.write_bytes(make_codex.modern())
    found, unusable = batch.expand([str(tmp_path / "sessions")])
    assert not unusable
    assert sorted(p.name for p in found) == sorted([single.name, lines.name])
    code = main([str(tmp_path / "sessions"), "--out-dir", str(tmp_path / "maps"), "--jobs", "1"])
    assert code == 0 and len(list((tmp_path / "maps").glob("*.json.gz"))) == 2
