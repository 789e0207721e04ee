"""The CLI is an adapter: for the same settings it writes the same map and the same report as the
library (issue 30: the CLI merged `--mode` into the policy and passed it again, so the report's
policy hash depended on the route)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import redact
from audit.render import render
from redact.errors import UsageError
from redact.keys.material import load_key_file
from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_MAP, EXAMPLE_SESSION, KEY_HEX, cli

CASES = [("default", "hashed"), ("default", "dirs_only"), ("internal", "relative"), ("public", None),
         ("public", "hashed"), ("default", None)]


def _key(tmp_path: Path) -> Path:
    path = tmp_path / "k.key"
    path.write_text(KEY_HEX + "\n")
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("source", ["map", "transcript"])
@pytest.mark.parametrize(("policy", "mode"), CASES)
def test_cli_and_library_write_the_same_map_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       policy: str, mode: str | None, source: str) -> None:
    if source == "map":
        src = tmp_path / "in.json"
        shutil.copy(EXAMPLE_MAP, src)
    else:
        shutil.copytree(EXAMPLE_CC, tmp_path / "cc")
        src = tmp_path / "cc" / f"{EXAMPLE_SESSION}.jsonl"
    key_path = _key(tmp_path)
    by_cli, report_path = tmp_path / "cli.json", tmp_path / "cli-report.json"
    args: list[object] = [src, "-o", by_cli, "--policy", policy, "--key-file", key_path, "--report", report_path]
    if mode is not None:
        args += ["--mode", mode]
    run = cli(capsys, *args)
    assert run.code == 0, run.err
    result = redact.redact_file(src, tmp_path / "lib.json", policy=policy, key=load_key_file(key_path), mode=mode)
    assert by_cli.read_bytes() == (tmp_path / "lib.json").read_bytes()
    from_cli = json.loads(report_path.read_text())
    from_library = json.loads(render(result.report, result.session_map, "json"))
    # where the key came from is the one fact the two runs differ in: the flag, or a Key the caller made
    assert (from_cli.pop("keySource"), from_library.pop("keySource")) == ("--key-file", "the caller")
    assert from_cli == from_library


def test_a_mode_the_policy_forbids_is_refused_the_same_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--mode relative` under `public` names the flag and the policy, on both routes."""
    src = tmp_path / "in.json"
    shutil.copy(EXAMPLE_MAP, src)
    run = cli(capsys, src, "-o", tmp_path / "o.json", "--policy", "public", "--key-file", _key(tmp_path),
              "--mode", "relative")
    assert run.code == 2 and "--mode relative conflicts with policy public" in run.err, run.err
    assert "public.toml" not in run.err
    with pytest.raises(UsageError, match="--mode relative conflicts with policy public"):
        redact.redact_file(src, None, policy="public", key=load_key_file(tmp_path / "k.key"), mode="relative")
    assert not (tmp_path / "o.json").exists()
