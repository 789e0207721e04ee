"""The sweep: planted secrets of every class found at their file and line in copies of real
sessions of every agent, never printed; the scrub removes them and keeps everything else; restore
gives the original bytes; a file that changes meanwhile is left alone."""
from __future__ import annotations

import base64
import functools
import json
import os
import random
import shutil
import sqlite3
import zlib
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


def _all_agents() -> list[str]:
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    return sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and p.name != "commands")


def _is_store(path: Path) -> bool:
    with path.open("rb") as fh:
        return fh.read(16) == b"SQLite format 3\x00"


@functools.cache
def _session_file(agent: str) -> Path | None:
    """A small text session of `agent` in the corpus (its stores: `test_corpus_store_...`)."""
    from redact.batch.inputs import expand
    from redact.formats.runs import split_run
    from redact.io.store import split_ref

    sessions = {split_run(split_ref(f)[0])[0] for f in expand([str(CORPUS / agent)])[0]}  # the reader's
    texts = [f for f in sorted(sessions) if f.stat().st_size < 3_000_000 and not _is_store(f)
             and f.read_bytes()[:2] != b"\x1f\x8b"]
    return min(texts, key=lambda f: abs(f.stat().st_size - 60_000)) if texts else None


def _agents() -> list[str]:
    """The corpus agents with a text session (the others keep theirs in stores only: Crush, Cursor,
    Zed; `_stores` plants into those, and `test_every_corpus_agent_is_planted` holds both lists to
    the whole corpus)."""
    return [a for a in _all_agents() if _session_file(a) is not None]


def _reader_view(path: Path | str) -> Any:
    """What the format's reader makes of a session: its map's events (type and id), or the refusal."""
    from redact import redact_file
    from redact.errors import RedactError

    from redact.batch.inputs import expand

    view = []
    for one in expand([str(path)])[0]:  # a log of several runs (Aider's) is a session per run
        try:
            result = redact_file(one, key=KEY, skip_bad_lines=True)
        except RedactError as exc:
            return ("refused", type(exc).__name__)
        view.append([(e.get("type"), e.get("id")) for e in result.session_map["events"]])
    return view


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
    assert src is not None
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
    before_view = _reader_view(copy)
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
    assert _reader_view(copy) == before_view  # the same reader reads the same records and ids
    assert before_view and before_view[0] != "refused", before_view
    assert restore(vault, KEY) == [(str(copy.resolve()), "restored")]
    assert copy.read_bytes() == original


def test_every_corpus_agent_is_planted() -> None:
    """No agent of the corpus is left out of the plant tests: each has a text session or a store."""
    agents = corpus_params(_all_agents)
    corpus_case(agents[0])
    stored = {name.split("/")[0] for name in _stores()}
    assert [a for a in agents if _session_file(a) is None and a not in stored] == []


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
    """Every SQLite store of the corpus, `agent/relative path` (its -wal beside it, when there is one)."""
    found = [f"{agent}/{p.relative_to(CORPUS / agent)}" for agent in _all_agents()
             for p in sorted((CORPUS / agent).rglob("*")) if p.is_file() and _is_store(p)]
    return found or pytest.skip("no stores in the corpus")


_ZSTD = b"\x28\xb5\x2f\xfd"


def _cell_text(value: Any) -> str | None:
    import zstandard

    raw = zstandard.ZstdDecompressor().decompressobj().decompress(value) \
        if isinstance(value, bytes) and value[:4] == _ZSTD else value
    try:
        return raw.decode() if isinstance(raw, bytes) else raw if isinstance(raw, str) else None
    except UnicodeDecodeError:
        return None


def _planted(text: str, extra: str) -> str | None:
    """`text` with `extra` added where a reader keeps it: inside a string value of a JSON text, at
    the end of any other text; None for JSON with no string value to plant into."""
    if text.lstrip()[:1] not in ("{", "["):
        return text + extra
    spots = [m for m in LITERAL.finditer(text) if m.group(1) is None and len(m.group()) > 12]
    if not spots:
        return None
    spot = max(spots, key=lambda m: (" " in m.group(), len(m.group())))  # prose, not an id the reader keys by
    return text[:spot.start()] + json.dumps(json.loads(spot.group()) + extra) + text[spot.end():]


def _plant_cell(db: sqlite3.Connection, secrets: dict[str, str]) -> str:
    """Plant `secrets` into the longest text cell of the store's largest table that holds one (a JSON
    one first, into a string of it: a bare text may be an id the reader keys sessions by; a zstd-compressed cell decompressed, planted, compressed again);
    never into a credential row, which the sweep counts and never reads: `table.column row N`."""
    import zstandard

    from redact.sweep.store import _credential_key

    extra = "".join(f" key {v} ok" for v in secrets.values())
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                       "AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE '%fts%'")]
    for table in sorted(tables, key=lambda t: -db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]):
        cursor = db.execute(f'SELECT rowid AS __rowid__, * FROM "{table}"')
        columns = [d[0] for d in cursor.description]
        best: tuple[tuple[bool, int], int, str, Any, str] | None = None  # JSON first, then the longest
        for values in cursor:
            row = dict(zip(columns, values))
            rowid = row.pop("__rowid__")
            if _credential_key(row):
                continue
            for column, value in row.items():
                text = _cell_text(value)
                planted = _planted(text, extra) if text is not None and len(text) > 12 else None
                rank = (text.lstrip()[:1] in ("{", "["), len(planted)) if planted is not None else None
                if rank is not None and planted is not None and (best is None or rank > best[0]):
                    best = (rank, rowid, column, value, planted)
        if best is None:
            continue
        _, rowid, column, value, planted = best
        new: Any = planted
        if isinstance(value, bytes):
            new = zstandard.ZstdCompressor().compress(planted.encode()) if value[:4] == _ZSTD else planted.encode()
        db.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE rowid = ?', (new, rowid))
        return f"{table}.{column} row {rowid}"
    raise AssertionError("no text cell to plant into")


def _exports(path: Path) -> dict[str, list[Any]]:
    """Each session of the store as its format's store reader exports it, record by record."""
    from redact.formats.stores import export, sessions_of

    return {sid: _docs(export(path, sid, where=str(path))[1]) for sid in sessions_of(path)}


@pytest.mark.parametrize("name", corpus_params(_stores))
def test_corpus_store_copy_is_swept_and_scrubbed_readable(name: str, tmp_path: Path) -> None:
    """Secrets of every class planted in a copy of each corpus store (Cursor, Crush, Zed, Goose,
    opencode, Kiro, Hermes with its FTS index and -wal): found at their cell, scrubbed, every table
    keeps its rows, the store's reader exports the same sessions with the same records, and restore
    puts the cells back."""
    corpus_case(name)
    agent, rel = name.split("/", 1)
    src = CORPUS / agent / rel
    copy = tmp_path / src.name
    for suffix in ("", "-wal"):
        if Path(str(src) + suffix).is_file():
            shutil.copyfile(str(src) + suffix, str(copy) + suffix)
    os.chmod(copy, 0o644)
    db = sqlite3.connect(copy)
    virtual = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")]
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
              if not any(r[0].startswith(v + "_") for v in virtual)]  # a rebuilt index has other segments
    secrets = make_secrets(zlib.crc32(name.encode()) & 0xFFFF)
    where = _plant_cell(db, secrets)
    db.commit()
    counts = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    db.close()
    exports = _exports(copy)
    fp = fingerprinter(KEY)
    found = sweep(sweep_inputs([str(copy)]), KEY)
    got = {(p.cls, p.fingerprint, p.where) for _, p in found.places}
    for cls, value in secrets.items():
        assert (EXPECTED_CLASS[cls], fp(secret_value(cls, value)), where) in got, f"{cls} not found at {where}"
    for fmt in render.FORMATS:
        out = render.render(found, fmt)
        assert not any(secret_value(c, v)[:12] in out for c, v in secrets.items())
    vault = tmp_path / "v.vault"
    result = sweep(sweep_inputs([str(copy)]), KEY, scrub_to=str(vault))
    assert result.scrubbed == 1 and not result.left_alone, result.left_alone
    raw = copy.read_bytes()
    assert not any(secret_value(c, v).encode() in raw for c, v in secrets.items())
    assert sweep(sweep_inputs([str(copy)]), KEY).places == []  # proved again from outside
    db = sqlite3.connect(copy)
    assert {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables} == counts
    db.close()
    after = _exports(copy)
    assert list(after) == list(exports)  # the same sessions
    for sid, records in exports.items():
        assert len(after[sid]) == len(records)
        for b, a in zip(records, after[sid]):
            lb, la = _leaves(b), _leaves(a)
            assert [p for p, _ in lb] == [p for p, _ in la]
            assert all(vb == va or (isinstance(va, str) and "[REDACTED:" in va) for (_, vb), (_, va) in zip(lb, la))
    restore(vault, KEY)
    assert _exports(copy) == exports


def test_fingerprints_are_keyed() -> None:
    value = make_secrets(15)["github-token"]
    assert fingerprinter(KEY)(value) != fingerprinter(Key(os.urandom(32), source="other"))(value)
    assert fingerprinter(KEY)(value) == fingerprinter(Key(bytes(range(32)), source="again"))(value)


def test_gzip_log_is_scrubbed_recompressed_and_restored_byte_for_byte(tmp_path: Path) -> None:
    """A compressed rollout (Codex's archived sessions, `*.jsonl.gz`): found at its line, scrubbed
    inside the decompressed records, recompressed; restore gives the original compressed bytes."""
    import gzip

    secrets = make_secrets(30)
    plain = _fixture(tmp_path, secrets)
    records = plain.read_bytes()
    path = tmp_path / "rollout-2025-05-01T10-00-00-0b7c5e4a.jsonl.gz"
    path.write_bytes(gzip.compress(records, compresslevel=9, mtime=1_700_000_000))
    plain.unlink()
    original = path.read_bytes()
    found = sweep(sweep_inputs([str(path)]), KEY)
    assert {(p.cls, p.line) for _, p in found.places} >= {("github-token", 1), ("aws-access-key", 2)}
    assert found.files[0].kind == "gzip"
    vault = tmp_path / "v.vault"
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(vault))
    assert result.scrubbed == 1 and not result.left_alone, result.left_alone
    after = gzip.decompress(path.read_bytes())
    for value in (secrets["github-token"], secrets["aws-access-key"]):
        assert value.encode() not in after and value.encode() not in path.read_bytes()
    before_docs = [json.loads(line) for line in records.splitlines()]
    after_docs = [json.loads(line) for line in after.splitlines()]
    assert [d["uuid"] for d in after_docs] == [d["uuid"] for d in before_docs]
    assert after_docs[1]["message"]["content"][0] == before_docs[1]["message"]["content"][0]  # signature kept
    assert "[REDACTED:github-token:" in after_docs[0]["message"]["content"]
    assert sweep(sweep_inputs([str(path)]), KEY).places == []  # the proof, from outside: nothing left
    assert restore(vault, KEY) == [(str(path.resolve()), "restored")]
    assert path.read_bytes() == original


def test_a_gzip_bomb_or_a_damaged_gzip_is_listed_as_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    import redact.io.read as read_module

    bomb = tmp_path / "a.jsonl.gz"
    bomb.write_bytes(gzip.compress(b"{}\n" * 400_000))
    damaged = tmp_path / "b.jsonl.gz"
    damaged.write_bytes(gzip.compress(b'{"a": 1}\n' * 100)[:-12])
    monkeypatch.setattr(read_module, "LIMITS", read_module.Limits(1 << 30, 50, 1 << 16))
    result = sweep(sweep_inputs([str(tmp_path)]), KEY)
    why = dict(result.unreadable)
    assert "gzip bomb" in why[str(bomb)] and "truncated" in why[str(damaged)]
    assert not result.files


def test_every_file_not_read_is_listed_with_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder that cannot be listed, a file that cannot be read, a link: each named with a
    reason in the report, never passed over in silence (a clean report must mean something).
    Permissions do not bind root, so the refusals are made by the calls themselves."""
    folder = tmp_path / "projects" / "-home-me-app"
    folder.mkdir(parents=True)
    _fixture(folder, make_secrets(31))
    locked = folder / "locked.jsonl"
    locked.write_text("{}\n")
    closed = folder / "closed"
    closed.mkdir()
    (closed / "x.jsonl").write_text("{}\n")
    (folder / "elsewhere.jsonl").symlink_to(tmp_path / "outside.jsonl")
    (tmp_path / "outside.jsonl").write_text("{}\n")
    real_read, real_scandir = Path.read_bytes, os.scandir

    def read_bytes(self: Path) -> bytes:
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read(self)

    def scandir(path: Any = ".") -> Any:
        if Path(path) == closed:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(os, "scandir", scandir)
    doc = render.report_dict(sweep(sweep_inputs([str(tmp_path / "projects")]), KEY))
    why = {u["path"]: u["reason"] for u in doc["unreadable"]}
    assert "cannot read" in why[str(locked)], why
    assert "cannot be listed" in why[str(closed)], why
    assert "link" in why[str(folder / "elsewhere.jsonl")], why
    assert doc["summary"]["byClass"].get("github-token") == 1  # the rest is still swept
    table = render.render(sweep(sweep_inputs([str(tmp_path / "projects")]), KEY), "table")
    assert str(locked) in table and str(closed) in table


def test_is_scrubbed_recognises_a_scrubbed_log_of_every_kind(tmp_path: Path) -> None:
    """The public `is_scrubbed` (for the map pre-commit hook): a log, a gzip log and a store are
    scrubbed after a sweep's scrub, not before; a file that cannot be read is not."""
    import gzip

    from redact.sweep import is_scrubbed

    secrets = make_secrets(32)
    text = _fixture(tmp_path, secrets)
    packed = tmp_path / "b.jsonl.gz"
    packed.write_bytes(gzip.compress(text.read_bytes()))
    store = tmp_path / "opencode.db"
    _store(store, secrets["github-token"])
    paths = [text, packed, store]
    assert not any(is_scrubbed(p) for p in paths)
    result = sweep(sweep_inputs([str(p) for p in paths]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert result.scrubbed == 3, result.left_alone
    assert all(is_scrubbed(p) for p in paths)
    assert not is_scrubbed(tmp_path / "missing.jsonl")


def test_words_outside_json_strings_are_searched_too(tmp_path: Path) -> None:
    """A JSON Lines log with a line that is not JSON (a crash message, a line cut short): its words
    are searched as text, and the scrub keeps every JSON line valid."""
    secrets = make_secrets(33)
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps({"type": "user", "uuid": "a1", "text": "hi there"}) + "\n"
                    + f"panic: token {secrets['github-token']} rejected\n"
                    + json.dumps({"type": "assistant", "uuid": "a2", "n": 1.5e3, "ok": True}) + "\n")
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert [(p.cls, p.line) for _, p in result.places] == [("github-token", 2)]
    lines = path.read_text().splitlines()
    assert secrets["github-token"] not in path.read_text() and "[REDACTED:github-token:" in lines[1]
    assert [json.loads(lines[i])["uuid"] for i in (0, 2)] == ["a1", "a2"]


def test_a_file_no_format_reads_is_named_for_the_agent_whose_place_holds_it(tmp_path: Path) -> None:
    """A checkpoint or a prompt history has no session format of its own, but it sits in one
    agent's place: the report names that agent (not "unknown"), for the person deciding what to
    rotate; a file outside every agent's place stays unknown."""
    secret = make_secrets(41)["github-token"]
    chats = tmp_path / ".qwen" / "tmp" / ("ab" * 32) / "chats"
    chats.mkdir(parents=True)
    checkpoint = chats.parent / "checkpoint-notes.json"
    checkpoint.write_text(json.dumps([{"role": "user", "parts": [{"text": f"token {secret}"}]}]))
    elsewhere = tmp_path / "notes" / "todo.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text(f"token {secret}\n")
    inputs = sweep_inputs([], home=tmp_path)
    assert str(checkpoint) in {str(p) for p in inputs.files}
    explicit = sweep_inputs([str(checkpoint), str(elsewhere)], home=tmp_path)
    agents = {f.path: f.agent for f in sweep(explicit, KEY).files}
    assert agents == {str(checkpoint): "qwen-code", str(elsewhere): "unknown"}
