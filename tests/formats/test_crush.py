"""Crush: the project's `.crush/crush.db` read read-only, one map per session, paths under the project."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from redact.api import redact_file
from redact.cli import main
from tests.formats import storefix
from tests.formats.test_opencode import CALLS, _state


def _store(tmp_path: Path) -> Path:
    folder = tmp_path / "shop" / ".crush"
    folder.mkdir(parents=True)
    db = folder / "crush.db"
    storefix.crush_db(db, root=str(tmp_path / "shop"))
    return db


def test_a_session_becomes_a_map(tmp_path: Path) -> None:
    db = _store(tmp_path)
    before = _state(db)
    result = redact_file(db, policy="default")
    assert _state(db) == before
    m = result.session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = storefix.CRUSH_COUNTS
    assert m["session"]["agentTool"] == "crush" and m["session"]["models"] == ["gpt-4o"]
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    assert kinds["error"] == want["errors"]
    assert [e.get("host") for e in m["events"] if e["kind"] == "web"] == ["docs.example.com"]
    # the project folder holding .crush/ is the repository: its files are repo-relative
    assert sorted(f["path"] for f in m["files"]) == ["README.md", "main.go"]
    shells = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert sum(1 for e in shells if e.get("err")) == 1


def test_project_folder_discovery_and_canaries(tmp_path: Path) -> None:
    db = _store(tmp_path)
    out = tmp_path / "out"
    assert main([str(tmp_path / "shop"), "--out-dir", str(out)]) == 0
    assert [p.name for p in out.glob("*.json.gz")] == [storefix.CRUSH_SID + ".json.gz"]
    from redact.formats.stores import export

    _, data = export(db, None, where="x")
    assert b"files content" not in data and b"session title" in data  # the files table is never read


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(tmp_path: Path, policy: str) -> None:
    from tests.formats.canary import KEY

    seen: list[str] = []

    def text(slot: str) -> str:
        value = f"zqcanary{len(seen)}qz and more"
        seen.append(value.split()[0])
        return value

    db = tmp_path / "crush.db"
    storefix.crush_db(db, text)
    result = redact_file(db, policy=policy, key=KEY if policy == "public" else None)
    out = result.data.decode() + str(result.report.as_dict())
    assert not [c for c in seen if c in out]
