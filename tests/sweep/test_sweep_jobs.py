"""`sweep --jobs N`: the files searched by a pool of processes give the same findings, in the same
order, and the same scrub, as one process."""
from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from redact.keys.material import Key
from redact.sweep import render
from redact.sweep.engine import sweep
from redact.sweep.targets import sweep_inputs
from tests.sweep.plant import make_secrets

KEY = Key(bytes(range(32)), source="test")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool forks on Linux only")


def _tree(root: Path) -> Path:
    """A folder of logs of several kinds: JSONL sessions (two with secrets, one without), a text
    history, a SQLite store with a secret in a cell, and a file that cannot be read."""
    folder = root / "logs"
    folder.mkdir()
    for n in range(4):
        secrets = make_secrets(40 + n)
        recs = [{"type": "user", "uuid": f"u{n}", "timestamp": f"2025-06-0{n + 1}T10:00:00Z",
                 "message": {"role": "user", "content": f"use {secrets['github-token']} then"
                             if n % 2 == 0 else "nothing here but words"}},
                {"type": "assistant", "uuid": f"a{n}", "timestamp": f"2025-06-0{n + 1}T11:00:00Z",
                 "message": {"role": "assistant", "content": f"DATABASE_URL={secrets['database-url']}"
                             if n != 3 else "fine"}}]
        (folder / f"s{n}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    (folder / "history.md").write_text(f"# chat\n\nexport OPENAI_API_KEY={make_secrets(50)['openai-api-key']}\n",
                                       encoding="utf-8")
    db = sqlite3.connect(folder / "store.db")
    db.execute("CREATE TABLE part (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)")
    db.execute("INSERT INTO part VALUES (?, ?, ?)",
               ("prt_01JX9ZQ3R7T8V2W4Y6A8C0E2G4", "ses_01JX9ZQ3R7T8V2W4Y6A8C0E2G5",
                json.dumps({"text": f"token {make_secrets(51)['slack-token']}"})))
    db.commit()
    db.close()
    (folder / "damaged.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"not a gzip stream")
    return folder


def _report(result: Any) -> dict[str, Any]:
    doc = render.report_dict(result)
    doc["summary"].pop("seconds")
    return doc


def _order(result: Any) -> list[tuple[str, int | None, str, str]]:
    return [(f.path, p.line, p.cls, p.fingerprint) for f, p in result.places]


def test_jobs_gives_the_same_findings_in_the_same_order(tmp_path: Path) -> None:
    folder = _tree(tmp_path)
    one = sweep(sweep_inputs([str(folder)]), KEY)
    many = sweep(sweep_inputs([str(folder)]), KEY, jobs=3)
    assert len(one.places) >= 6  # the fixture's secrets are found at all, or the comparison says little
    assert _order(many) == _order(one)
    assert [f.path for f in many.files] == [f.path for f in one.files]
    assert many.unreadable == one.unreadable and [p for p, _ in one.unreadable] == [str(folder / "damaged.jsonl.gz")]
    assert _report(many) == _report(one)


def test_jobs_scrubs_the_same_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    _tree(a)
    _tree(b)
    for base in (a, b):
        (base / "logs" / "damaged.jsonl.gz").unlink()  # the scrub test compares files it can read
    one = sweep(sweep_inputs([str(a / "logs")]), KEY, scrub_to=str(a / "v.vault"))
    many = sweep(sweep_inputs([str(b / "logs")]), KEY, scrub_to=str(b / "v.vault"), jobs=2)
    assert one.scrubbed == many.scrubbed >= 4
    for name in sorted(os.listdir(a / "logs")):
        if name.endswith(".db"):
            rows = [sqlite3.connect(base / "logs" / name).execute("SELECT * FROM part").fetchall()
                    for base in (a, b)]
            assert rows[0] == rows[1]
        else:
            assert (a / "logs" / name).read_bytes() == (b / "logs" / name).read_bytes(), name
    assert "[REDACTED:github-token:" in (b / "logs" / "s0.jsonl").read_text()


def test_jobs_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from redact.cli import main
    from redact.keys.material import keygen

    folder = _tree(tmp_path)
    key = tmp_path / "k.key"
    keygen(key)
    (folder / "damaged.jsonl.gz").unlink()
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.json"
        assert main(["sweep", str(folder), "--format", "json", "-o", str(out), "--jobs", jobs, "--key-file", str(key)]) == 1
        doc = json.loads(out.read_text())
        doc["summary"].pop("seconds")
        outs.append(doc)
    assert outs[0] == outs[1] and outs[0]["secrets"]
    assert main(["sweep", str(folder), "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
