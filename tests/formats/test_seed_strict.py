"""Every map the project writes keeps to a strict reading of seed 000 (`seed_strict.py`): no field
and no enum value the seed does not allow. On the shipped example, on every golden file, and on
every map of the shared corpus (Claude Code and Codex, default and public; skipped without it)."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from redact.keys.material import Key
from tests.conftest import corpus_dir
from tests.formats.corpus_cc import sessions
from tests.formats.seed_strict import violations

ROOT = Path(__file__).resolve().parents[2]
KEY = Key(bytes(range(32)), source="test")
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))


def _example() -> dict[str, Any]:
    main = ROOT / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"
    from redact.formats.claude_code.files import find_sidechains

    result = redact_bytes(main.read_bytes(), name=main.name, companions=find_sidechains(main))
    return result.session_map


def test_the_validator_is_strict() -> None:
    m = _example()
    assert violations(m) == []
    for mutate, needle in (
        (lambda x: x["agents"].append({**x["agents"][0], "id": "sa-1", "kind": "helper", "parent": "main"}),
         "/agents/"),
        (lambda x: x["session"].update(title="t"), "/session/title"),
        (lambda x: x["events"][0].update(prompt="p"), "/events/0/prompt"),
        (lambda x: x["events"].__setitem__(0, {**x["events"][0], "kind": "chat"}), "/events/0/kind"),
        (lambda x: x["files"][0].update(repo="r9") if x["files"] else x["files"].append(
            {"id": 0, "repo": "r9", "path": "a"}), "/files/0/repo"),
    ):
        bad = copy.deepcopy(m)
        mutate(bad)
        assert any(v.startswith(needle) for v in violations(bad)), needle


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_maps_keep_to_the_seed(path: Path) -> None:
    assert violations(json.loads(path.read_text(encoding="utf-8"))) == []


@pytest.mark.corpus
def test_every_claude_code_corpus_map_keeps_to_the_seed() -> None:
    bad: dict[str, list[str]] = {}
    for s in sessions(corpus_dir("claude-code")):
        for policy in ("default", "public"):
            m = redact_bytes(s.main.read_bytes(), name=s.name, policy=policy,
                             key=KEY if policy == "public" else None, companions=s.sidechains).session_map
            found = violations(m)
            if found:
                bad[f"{s.name} ({policy})"] = found[:5]
    assert bad == {}


@pytest.mark.corpus
def test_every_codex_corpus_map_keeps_to_the_seed() -> None:
    bad: dict[str, list[str]] = {}
    for path in sorted(p for p in corpus_dir("codex").iterdir() if p.suffix in (".jsonl", ".json")):
        for policy in ("default", "public"):
            m = redact_bytes(path.read_bytes(), name=path.name, policy=policy,
                             key=KEY if policy == "public" else None).session_map
            found = violations(m)
            if found:
                bad[f"{path.name} ({policy})"] = found[:5]
    assert bad == {}
