"""The sweep: planted secrets of every class found at their file and line in copies of real
sessions of every agent, never printed; the scrub removes them and keeps everything else; restore
gives the original bytes; a file that changes meanwhile is left alone."""
from __future__ import annotations

import zlib
import base64
import json
import os
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from redact.keys.material import Key
from redact.sweep import render
from redact.sweep.engine import fingerprinter, residue, sweep
from redact.sweep.targets import sweep_inputs
from redact.sweep.vault import restore
from tests.conftest import CORPUS, corpus_case, corpus_params
from tests.sweep.plant import _LITERAL as LITERAL
from tests.sweep.plant import make_secrets, plant_file, secret_value

KEY = Key(bytes(range(32)), source="test")
EXPECTED_CLASS = {c: c for c in make_secrets(0)}


def _agents() -> list[str]:
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    return sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "commands")


def _session_file(agent: str) -> Path | None:
    """A small text session of `agent` in the corpus (stores are tested on their own)."""
    files = sweep_inputs([str(CORPUS / agent)]).files
    texts = [f for f in files if f.stat().st_size < 3_000_000
             and not f.read_bytes()[:16].startswith(b"SQLite format 3") and f.read_bytes()[:2] != b"\x1f\x8b"]
    return min(texts, key=lambda f: abs(f.stat().st_size - 60_000)) if texts else None


def _leaves(doc: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(doc, dict):
        return [(path, "{}"), *[x for k, v in doc.items() for x in _leaves(v, f"{path}/{k}")]]
    if isinstance(doc, list):
        return [(path, "[]"), *[x for i, v in enumerate(doc) for x in _leaves(v, f"{path}/{i}")]]
    return [(path, doc)]


def _docs(data: bytes) -> list[Any]:
    """The document, or each line's record (a line that is not JSON, as some corpus lines are cut
    short, stays its text)."""
    text = data.decode("utf-8", "surrogateescape")
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    docs: list[Any] = []
    for line in text.split("\n"):
        try:
            docs.append(json.loads(line) if line.strip() else None)
        except ValueError:
            docs.append("line: " + line)
    return docs


@pytest.mark.parametrize("agent", corpus_params(_agents))
def test_planted_secrets_found_at_their_line_and_scrubbed(agent: str, tmp_path: Path) -> None:
    corpus_case(agent)
    src = _session_file(agent)
    if src is None:
        pytest.skip(f"no text session of {agent} in the corpus (a store: test_store_scrub)")
    secrets = make_secrets(zlib.crc32(agent.encode()) & 0xFFFF)  # stable: hash() of a str changes per process
    copy = tmp_path / src.name
    placed = plant_file(src, copy, secrets)
    assert len(placed) == len(secrets), "the session has too few strings to plant into"
    fp = fingerprinter(KEY)
    result = sweep(sweep_inputs([str(copy)]), KEY)
    got = {(p.cls, p.fingerprint, p.line) for _, p in result.places}
    for cls, line in placed.items():
        want = (EXPECTED_CLASS[cls], fp(secret_value(cls, secrets[cls])), line)
        assert want in got, f"{cls} not found at line {line}"
    for fmt in render.FORMATS:  # never printed, in any format
        out = render.render(result, fmt)
        for cls, value in secrets.items():
            assert secret_value(cls, value) not in out
            assert secret_value(cls, value)[:12] not in out
    original = copy.read_bytes()
    vault = tmp_path / "s.vault"
    scrubbed = sweep(sweep_inputs([str(copy)]), KEY, scrub_to=str(vault))
    assert scrubbed.scrubbed == 1 and not scrubbed.left_alone, scrubbed.left_alone
    after = copy.read_bytes()
    text = after.decode("utf-8", "surrogateescape")
    originals = {fp(secret_value(c, v)): secret_value(c, v) for c, v in secrets.items()}
    assert residue(text, originals, fp) == []
    for cls, value in secrets.items():
        assert f"[REDACTED:{EXPECTED_CLASS[cls]}:{fp(secret_value(cls, value))[:6]}]" in text
    if original.lstrip()[:1] in (b"{", b"["):  # same records, same ids, every other value kept
        before_docs, after_docs = _docs(original), _docs(after)
        assert len(before_docs) == len(after_docs)
        for b, a in zip(before_docs, after_docs):
            lb, la = _leaves(b), _leaves(a)
            assert [p for p, _ in lb] == [p for p, _ in la]
            for (_, vb), (_, va) in zip(lb, la):
                assert vb == va or (isinstance(va, str) and "[REDACTED:" in va)
    else:  # the ordinary text stays: every line without a secret is the same
        kept = [line for line in original.decode().split("\n") if "here it is" not in line
                and not any(part in line for v in secrets.values() for part in v.split("\n") if len(part) > 8)]
        after_lines = set(text.split("\n"))
        missing = [line for line in kept if line not in after_lines]
        assert len(missing) <= len(result.places) - len(secrets)  # only the lines with its own findings
    assert restore(vault, KEY) == [(str(copy.resolve()), "restored")]
    assert copy.read_bytes() == original


SIGNATURE = base64.b64encode(random.Random(5).randbytes(300)).decode()


def _fixture(tmp_path: Path, secrets: dict[str, str]) -> Path:
    path = tmp_path / "0b7c5e4a-1111-4222-8333-944455556666.jsonl"
    recs = [
        {"type": "user", "uuid": "a1", "timestamp": "2025-05-01T10:00:00Z",
         "message": {"role": "user", "content": f"deploy with {secrets['github-token']} now \u00e9"}},
        {"type": "assistant", "uuid": "a2", "timestamp": "2025-05-03T10:00:00Z",
         "message": {"role": "assistant", "content": [
             {"type": "thinking", "thinking": "fine", "signature": SIGNATURE},
             {"type": "text", "text": f"key {secrets['aws-access-key']} and {secrets['github-token']}"}]}},
    ]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    return path


def test_one_secret_twice_is_one_finding_with_first_and_last_seen(tmp_path: Path) -> None:
    secrets = make_secrets(7)
    path = _fixture(tmp_path, secrets)
    doc = render.report_dict(sweep(sweep_inputs([str(path)]), KEY))
    gh = [s for s in doc["secrets"] if s["class"] == "github-token"]
    assert len(gh) == 1
    assert gh[0]["firstSeen"] == "2025-05-01T10:00:00Z" and gh[0]["lastSeen"] == "2025-05-03T10:00:00Z"
    assert gh[0]["files"] == [{"path": str(path), "lines": ["1", "2"]}]
    assert gh[0]["rotationUrl"] == "https://github.com/settings/tokens"
    assert doc["summary"]["blobsLeftAlone"] == 1  # the thinking signature


def test_signature_blob_is_never_changed(tmp_path: Path) -> None:
    secrets = make_secrets(8)
    path = _fixture(tmp_path, secrets)
    sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    second = json.loads(path.read_text().split("\n")[1])
    assert second["message"]["content"][0]["signature"] == SIGNATURE


def test_file_changed_while_swept_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import redact.sweep.vault as vault_module

    secrets = make_secrets(9)
    path = _fixture(tmp_path, secrets)
    real = vault_module.write_sweep_vault

    def then_agent_writes(*args: Any, **kwargs: Any) -> None:
        real(*args, **kwargs)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"type": "user", "uuid": "a3", "message": {"content": "more"}}) + "\n")

    monkeypatch.setattr(vault_module, "write_sweep_vault", then_agent_writes)
    before = path.read_bytes()
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert result.scrubbed == 0
    assert [p for p, _ in result.left_alone] == [str(path)]
    assert path.read_bytes().startswith(before)  # untouched but for the agent's line
    assert secrets["github-token"] in path.read_text()


def test_restore_refuses_a_file_changed_since_the_scrub(tmp_path: Path) -> None:
    path = _fixture(tmp_path, make_secrets(10))
    sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    with path.open("a") as fh:
        fh.write("{}\n")
    changed = path.read_bytes()
    assert restore(tmp_path / "v.vault", KEY)[0][1].startswith("left alone")
    assert path.read_bytes() == changed


def test_credential_files_are_named_and_not_read(tmp_path: Path) -> None:
    secrets = make_secrets(11)
    folder = tmp_path / "projects" / "-home-me-app"
    folder.mkdir(parents=True)
    _fixture(folder, secrets)
    (folder / "auth.json").write_text(json.dumps({"token": secrets["openai-api-key"]}))
    doc = render.report_dict(sweep(sweep_inputs([str(tmp_path / "projects")]), KEY))
    assert doc["credentialFiles"] == [str(folder / "auth.json")]
    assert "openai-api-key" not in doc["summary"]["byClass"]
    assert doc["summary"]["byClass"].get("github-token") == 1


def test_text_log_scrubbed_keeps_its_other_lines(tmp_path: Path) -> None:
    secrets = make_secrets(12)
    path = tmp_path / ".aider.chat.history.md"
    body = f"# aider chat\n\n#### fix it\n\nexport STRIPE={secrets['stripe-key']}\n\n{secrets['private-key']}\nthe end\n"
    path.write_text(body)
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert {p.cls for _, p in result.places} == {"stripe-key", "private-key"}
    text = path.read_text()
    assert text.startswith("# aider chat\n\n#### fix it\n\nexport STRIPE=[REDACTED:stripe-key:")
    assert text.endswith("]\nthe end\n") and "PRIVATE KEY" not in text
    restore(tmp_path / "v.vault", KEY)
    assert path.read_text() == body


def _store(path: Path, secret: str) -> None:
    """A store as a running agent leaves it: its last rows still in the `-wal`."""
    live = path.with_name("live.db")
    db = sqlite3.connect(live)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)")
    db.execute("CREATE TABLE kv (key TEXT, value BLOB)")
    db.execute("CREATE VIRTUAL TABLE message_fts USING fts5(data, content='message', content_rowid='rowid')")
    db.execute("CREATE VIRTUAL TABLE notes USING fts5(body)")
    for i in range(3):
        data = json.dumps({"role": "user", "text": f"token {secret} row {i}" if i == 1 else f"plain row {i}"})
        db.execute("INSERT INTO message VALUES (?, ?, ?)", (f"msg_{i}", "ses_1", data))
    db.execute("INSERT INTO message_fts(rowid, data) SELECT rowid, data FROM message")
    db.execute("INSERT INTO notes(body) VALUES (?)", (f"remember {secret}",))
    db.execute("INSERT INTO kv VALUES ('cursorAuth/accessToken', ?)", (b"opaque-login",))
    db.execute("INSERT INTO kv VALUES ('chat', ?)", (json.dumps({"t": f"and {secret}"}).encode(),))
    db.commit()
    for suffix in ("", "-wal"):
        shutil.copyfile(str(live) + suffix, str(path) + suffix)
    db.close()


def test_store_scrub_keeps_rows_rebuilds_indexes_and_restores(tmp_path: Path) -> None:
    secret = make_secrets(13)["github-token"]
    path = tmp_path / "opencode.db"
    _store(path, secret)
    assert secret.encode() in path.read_bytes() + Path(str(path) + "-wal").read_bytes()
    found = sweep(sweep_inputs([str(path)]), KEY)
    wheres = sorted(p.where for _, p in found.places)
    assert wheres == ["kv.value row 2", "message.data row 2", "notes.body row 1"]
    assert found.files[0].credential_rows == 1
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert result.scrubbed == 1 and not result.left_alone
    assert not Path(str(path) + "-wal").exists()
    raw = path.read_bytes()
    assert secret.encode() not in raw and secret[4:20].encode() not in raw
    db = sqlite3.connect(path)
    assert [r[0] for r in db.execute("SELECT id FROM message ORDER BY rowid")] == ["msg_0", "msg_1", "msg_2"]
    assert db.execute("SELECT count(*) FROM message_fts WHERE message_fts MATCH 'REDACTED'").fetchone()[0] == 1
    assert db.execute("SELECT value FROM kv WHERE key='cursorAuth/accessToken'").fetchone()[0] == b"opaque-login"
    db.close()
    restore(tmp_path / "v.vault", KEY)
    db = sqlite3.connect(path)
    assert secret in db.execute("SELECT data FROM message WHERE id='msg_1'").fetchone()[0]
    assert secret in db.execute("SELECT body FROM notes").fetchone()[0]
    db.close()


def _stores() -> list[str]:
    found = [f"{agent}/{p.name}" for agent in ("cursor", "crush") if (CORPUS / agent).is_dir()
             for p in sorted((CORPUS / agent).iterdir()) if p.read_bytes()[:15] == b"SQLite format 3"]
    return found or pytest.skip("no stores in the corpus")


def _plant_cell(db: sqlite3.Connection, secret: str) -> str:
    """Append `secret` to the longest JSON text cell of the store's largest table: its table."""
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND sql NOT LIKE 'CREATE VIRTUAL%'")]
    for table in sorted(tables, key=lambda t: -db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]):
        columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
        for column in columns:
            query = (f'SELECT rowid, "{column}" FROM "{table}" WHERE typeof("{column}") IN (?, ?) '
                     f'AND CAST("{column}" AS TEXT) LIKE ? ORDER BY length("{column}") DESC LIMIT 1')
            for start in ("{%", "[%"):
                row = db.execute(query, ("text", "blob", start)).fetchone()
                if row is None:
                    continue
                text = row[1].decode() if isinstance(row[1], bytes) else row[1]
                spot = next((m for m in LITERAL.finditer(text) if m.group(1) is None and len(m.group()) > 12), None)
                if spot is None:
                    continue
                planted = text[:spot.start()] + json.dumps(json.loads(spot.group()) + f" key {secret}") + text[spot.end():]
                json.loads(planted)
                db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = ?', (planted, row[0]))
                return table
    raise AssertionError("no JSON cell to plant into")


@pytest.mark.parametrize("name", corpus_params(_stores))
def test_corpus_store_copy_is_swept_and_scrubbed_readable(name: str, tmp_path: Path) -> None:
    corpus_case(name)
    copy = tmp_path / Path(name).name
    shutil.copyfile(CORPUS / name, copy)
    os.chmod(copy, 0o644)
    db = sqlite3.connect(copy)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    counts = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    secret = make_secrets(14)["anthropic-api-key"]
    _plant_cell(db, secret)
    db.commit()
    db.close()
    result = sweep(sweep_inputs([str(copy)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert any(p.cls == "anthropic-api-key" for _, p in result.places)
    assert result.scrubbed == 1 and not result.left_alone, result.left_alone
    assert secret.encode() not in copy.read_bytes()
    db = sqlite3.connect(copy)
    after = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    db.close()
    assert after == counts


def test_fingerprints_are_keyed() -> None:
    value = make_secrets(15)["github-token"]
    assert fingerprinter(KEY)(value) != fingerprinter(Key(os.urandom(32), source="other"))(value)
    assert fingerprinter(KEY)(value) == fingerprinter(Key(bytes(range(32)), source="again"))(value)
