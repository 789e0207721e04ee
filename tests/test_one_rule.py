"""Rules that were written several times and had already drifted (issue 30) now stand in one place:
the path modes, the latest time a log can mean, the program hasher, a harness's timestamp rule and
Codex's working-directory rule under `--to native`."""
from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from redact import options
from redact.formats.codex import native as codex_native
from redact.formats.codex import reader as codex_reader
from redact.formats.codex.keys import PART_TEXT
from redact.keys.material import Key
from redact.model.grammar import PATH_MODES
from redact.model.values import PathMode
from redact.policy import model as policy_model

ROOT = Path(__file__).resolve().parents[1]


def _sources() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
            for folder in ("redact", "audit") for p in (ROOT / folder).rglob("*.py")}


def test_the_path_modes_are_one_list() -> None:
    assert get_args(PathMode) == PATH_MODES
    assert options.MODES is PATH_MODES
    assert policy_model.PathMode is PathMode
    spelled = [path for path, text in _sources().items()
               if re.search(r"""["']relative["'],\s*["']dirs_only["'],\s*["']hashed["']""", text)]
    assert sorted(spelled) == ["redact/model/grammar.py", "redact/model/values.py"], spelled


def test_the_latest_time_is_one_bound() -> None:
    spelled = [path for path, text in _sources().items() if "7_258_118_400_000" in text]
    assert spelled == ["redact/formats/common.py"], spelled


def test_the_program_hasher_is_one_method() -> None:
    spelled = [path for path, text in _sources().items() if 'ident_digest("program"' in text]
    assert spelled == ["redact/keys/material.py"], spelled
    key = Key(bytes(range(32)), source="<test>")
    assert key.program_digest("deploy-acme.sh") == key.ident_digest("program", "deploy-acme.sh", 10)


def test_claude_code_reads_times_by_the_shared_rule() -> None:
    from redact.formats import common
    from redact.formats.claude_code import records

    assert records.epoch_ms is common.epoch_ms
    assert common.epoch_ms("2025-06-01T10:00:00.500Z") == 1748772000500.0
    assert common.epoch_ms("2200-01-01T00:00:00Z") is None


def test_codex_native_finds_the_working_directory_the_reader_finds() -> None:
    """The reader accepts the older `Current working directory:` line; `--to native` missed it and
    then treated the session's files as outside any repository."""
    for text in ("<environment_context>\n  <cwd>/home/dev/shop</cwd>\n</environment_context>",
                 "<environment_context>\nCurrent working directory: /home/dev/shop\n</environment_context>"):
        assert codex_reader.env_cwd(text) == "/home/dev/shop"
        assert codex_native._env_cwd([{PART_TEXT: text}]) == "/home/dev/shop"
    assert codex_native._env_cwd([{PART_TEXT: "Current working directory: /x"}]) is None
