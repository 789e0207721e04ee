"""Determinism (DESIGN.md section 14): the same input, policy and key give byte-identical output (plain
and gzip), the same contentHash and the same JSON report, across runs and across Python hash seeds.
(`--jobs` is covered with the parallel runner's tests.)"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_MAP, EXAMPLE_SESSION, KEY_HEX, ROOT

POLICIES = ("default", "internal", "public")

# One process redacts every input under every policy (plain and .gz outputs, JSON reports), so a
# hash seed is one interpreter start, not one per file.
_DRIVER = """
import sys
from pathlib import Path
from redact.cli import main
inputs, key, out = sys.argv[1].split(","), sys.argv[2], Path(sys.argv[3])
out.mkdir(parents=True, exist_ok=True)
for i, src in enumerate(inputs):
    for policy in ("default", "internal", "public"):
        for ext in (".json", ".json.gz"):
            stem = f"{i}.{policy}{ext}"
            code = main([src, "-o", str(out / stem), "--policy", policy, "--key-file", key,
                         "--mode", "hashed", "--report", str(out / (stem + ".report.json"))])
            if code != 0:
                sys.exit(f"{src} {policy}: exit {code}")
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path]:
    root = tmp_path_factory.mktemp("det")
    project = root / "proj"
    shutil.copytree(EXAMPLE_CC, project)
    keys = root / "keys"
    keys.mkdir(mode=0o700)
    key = keys / "k"
    key.write_text(KEY_HEX + "\n")
    os.chmod(key, 0o600)
    return [project / f"{EXAMPLE_SESSION}.jsonl", EXAMPLE_MAP], key


def _run(seed: str, inputs: list[Path], key: Path, out: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    proc = subprocess.run([sys.executable, "-c", _DRIVER, ",".join(map(str, inputs)), str(key), str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())}


def test_same_bytes_across_runs_and_hash_seeds(tmp_path: Path, inputs: tuple[list[Path], Path]) -> None:
    files, key = inputs
    runs = {seed: _run(seed, files, key, tmp_path / f"seed-{seed}") for seed in ("0", "1234", "random")}
    assert len(runs["0"]) == len(files) * len(POLICIES) * 2 * 2
    assert runs["0"] == runs["1234"] == runs["random"]
    again = _run("0", files, key, tmp_path / "seed-0-again")
    assert again == runs["0"]
    for name in runs["0"]:
        if name.endswith(".report.json"):
            report = json.loads((tmp_path / "seed-0" / name).read_text())
            assert len(report["contentHash"]) == 64


def test_content_hash_matches_across_plain_and_gzip(tmp_path: Path, inputs: tuple[list[Path], Path]) -> None:
    import gzip

    files, key = inputs
    out = tmp_path / "one"
    _run("42", files, key, out)
    for i in range(len(files)):
        for policy in POLICIES:
            plain = (out / f"{i}.{policy}.json").read_bytes()
            assert gzip.decompress((out / f"{i}.{policy}.json.gz").read_bytes()) == plain
            stored = json.loads(plain)["contentHash"]
            assert json.loads((out / f"{i}.{policy}.json.report.json").read_text())["contentHash"] == stored


def test_in_process_repeat_is_identical(inputs: tuple[list[Path], Path]) -> None:
    """Caches (verbs, identifiers, paths) must not make a second run in one process differ."""
    from redact.api import redact_file
    from redact.keys.material import load_key_file

    files, key_path = inputs
    key = load_key_file(key_path)
    for src in files:
        for policy in POLICIES:
            first = redact_file(src, policy=policy, key=key, mode="hashed")
            second = redact_file(src, policy=policy, key=key, mode="hashed")
            assert first.data == second.data
            assert first.report.as_dict() == second.report.as_dict()
