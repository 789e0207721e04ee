"""Keys: the key never appears in any output, report, error or log line (with `--verbose` too); the key
file and its folder are checked; every report carries the fingerprint; a new key unlinks every token.
"""
from __future__ import annotations

import base64
import os
import re
import stat
from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.apply import walk as apply_module
from redact.keys.material import Key, keygen, load_key_file
from tests.formats.ccfix import Transcript, text, tool_use
from tests.hardening.helpers import EXAMPLE_MAP, assert_one_line, cli, snapshot

KEY_ENV = "AGENTPLAY_REDACT_KEY"


@pytest.fixture()
def private(tmp_path: Path) -> Path:
    folder = tmp_path / "private"
    folder.mkdir(mode=0o700)
    return folder


@pytest.fixture()
def key_path(private: Path) -> Path:
    path = private / "redact.key"
    keygen(path)
    return path


def _encodings(path: Path) -> list[bytes]:
    """The key as its file holds it and in every other spelling it could leak as."""
    hex_text = path.read_text().strip()
    raw = bytes.fromhex(hex_text)
    return [hex_text.encode(), hex_text.upper().encode(), raw, base64.b64encode(raw),
            base64.urlsafe_b64encode(raw).rstrip(b"="), hex_text[:16].encode(), hex_text[-16:].encode()]


def _transcript() -> bytes:
    t = Transcript("1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0", "/home/dev/acme/api", seed=5)
    t.user("deploy it")
    for cmd in ("git status", "./scripts/release.sh --prod", "npm test"):
        tid = t.tool_id()
        t.assistant([text("ok"), tool_use(tid, "Bash", {"command": cmd})])
        t.result(tid, "done")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": "/home/dev/acme/api/src/secret-plans/q3.py"})])
    t.result(tid, "x")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__acmecorp-internal__lookup", {"q": "x"})], model="acme-private-model")
    t.result(tid, "x")
    return t.bytes()


def _blob_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and "private" not in p.parts]


def _assert_no_key(key_path: Path, texts: list[bytes]) -> None:
    for needle in _encodings(key_path):
        for blob in texts:
            assert needle not in blob


# ---- the key never appears ------------------------------------------------------------------------

@pytest.mark.parametrize("policy", ["default", "internal", "public"])
@pytest.mark.parametrize("report_ext", [".json", ".md", ".html"])
def test_key_absent_from_outputs_reports_and_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    key_path: Path, policy: str, report_ext: str) -> None:
    src = tmp_path / "s.jsonl"
    src.write_bytes(_transcript())
    out = tmp_path / "map.json.gz"
    report = tmp_path / f"report{report_ext}"
    run = cli(capsys, src, "-o", out, "--policy", policy, "--mode", "hashed", "--key-file", key_path,
              "--report", report, "--verbose")
    assert run.code == 0, run.err  # these inputs give a map: a refusal is a failure here
    import gzip

    blobs = [run.err.encode(), run.out.encode(), report.read_bytes()]
    if out.exists():
        blobs.append(gzip.decompress(out.read_bytes()))
    _assert_no_key(key_path, blobs + [p.read_bytes() for p in _blob_files(tmp_path) if p != src])
    fingerprint = load_key_file(key_path).fingerprint()
    assert fingerprint in report.read_text(), "every report names the key by its fingerprint"


def test_key_from_the_environment_is_absent_too(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch, key_path: Path) -> None:
    monkeypatch.setenv(KEY_ENV, key_path.read_text().strip())
    src = tmp_path / "m.json"
    src.write_bytes(EXAMPLE_MAP.read_bytes())
    report = tmp_path / "r.json"
    run = cli(capsys, src, "-o", tmp_path / "o.json", "--policy", "public", "--report", report, "--verbose")
    assert run.code == 0, run.err  # these inputs give a map: a refusal is a failure here
    _assert_no_key(key_path, [run.err.encode(), report.read_bytes()] +
                   [p.read_bytes() for p in _blob_files(tmp_path)])
    assert load_key_file(key_path).fingerprint() in report.read_text()


def test_key_absent_when_the_scanner_blocks(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A blocked run prints findings and writes the report: neither holds the key."""
    from audit import scan as scan_module

    real = scan_module.scan_map

    def leaky(session_map: dict[str, Any], **kwargs: Any) -> Any:
        session_map = dict(session_map, session=dict(session_map["session"], agentTool="ghp_" + "a1B2" * 9))
        return real(session_map, **kwargs)

    monkeypatch.setattr(scan_module, "scan_map", leaky)
    src = tmp_path / "m.json"
    src.write_bytes(EXAMPLE_MAP.read_bytes())
    report = tmp_path / "r.html"
    run = cli(capsys, src, "-o", tmp_path / "o.json", "--policy", "public", "--key-file", key_path,
              "--report", report, "--verbose")
    assert run.code == 1 and not (tmp_path / "o.json").exists(), run.err
    _assert_no_key(key_path, [run.err.encode(), report.read_bytes()])
    assert load_key_file(key_path).fingerprint() in report.read_text()


def test_key_absent_from_an_internal_error_with_verbose(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        key_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug deep in the redactor, where the key is a local: `--verbose` shows frame places only."""
    def boom(self: Any, *args: Any, **kwargs: Any) -> None:
        material = self.key._bytes  # noqa: F841 - a local holding the key when the bug strikes
        raise RuntimeError(f"bug near {self.key!r} {material.hex()}")

    monkeypatch.setattr(apply_module.MapRedactor, "opaque_id", boom)
    src = tmp_path / "m.json"
    src.write_bytes(EXAMPLE_MAP.read_bytes())
    run = cli(capsys, src, "-o", tmp_path / "o.json", "--policy", "public", "--key-file", key_path, "--verbose")
    assert run.code == 3
    assert "internal error (RuntimeError)" in run.err and "bug near" not in run.err
    _assert_no_key(key_path, [run.err.encode(), run.out.encode()])


@pytest.mark.parametrize("content", ["correct horse battery staple", "zz" * 32, "ab" * 8, "ab" * 32 + "\nsecond line"])
def test_malformed_key_files_are_not_echoed(private: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str) -> None:
    path = private / "bad.key"
    path.write_text(content)
    os.chmod(path, 0o600)
    src = tmp_path / "m.json"
    src.write_bytes(EXAMPLE_MAP.read_bytes())
    run = cli(capsys, src, "-o", tmp_path / "o.json", "--key-file", path, "--verbose")
    line = assert_one_line(run, code=2, names=path)
    assert content not in line and "horse" not in line and content[:8] not in line


def test_key_repr_and_str_show_only_the_fingerprint(key_path: Path) -> None:
    key = load_key_file(key_path)
    hex_text = key_path.read_text().strip()
    for shown in (repr(key), str(key), f"{key}", "%s" % key):
        assert hex_text not in shown and hex_text[:12] not in shown and key.fingerprint() in shown


# ---- permissions of the key file and its folder ---------------------------------------------------

def _redact_with(capsys: pytest.CaptureFixture[str], tmp_path: Path, key: Path, *extra: str) -> Any:
    src = tmp_path / "m.json"
    if not src.exists():
        src.write_bytes(EXAMPLE_MAP.read_bytes())
    out = tmp_path / "o.json"
    if out.exists():
        out.unlink()
    return cli(capsys, src, "-o", out, "--mode", "hashed", "--key-file", key, *extra)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_key_file_readable_by_others_is_refused(private: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                key_path: Path, mode: int) -> None:
    os.chmod(key_path, mode)
    before = snapshot(tmp_path)
    run = _redact_with(capsys, tmp_path, key_path)
    assert_one_line(run, code=2, names=key_path, says="chmod 600")
    assert not (tmp_path / "o.json").exists()
    assert snapshot(tmp_path).keys() == before.keys() | {"m.json"}


@pytest.mark.parametrize("mode", [0o777, 0o773, 0o775, 0o757])
def test_key_in_a_folder_others_can_write_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     mode: int) -> None:
    """Whoever can write the folder can rename their own key over this one, then test guesses."""
    folder = tmp_path / "shared"
    folder.mkdir()
    key = folder / "k"
    keygen(key)
    os.chmod(folder, mode)
    run = _redact_with(capsys, tmp_path, key)
    assert_one_line(run, code=2, names=folder, says="without the sticky bit")
    assert not (tmp_path / "o.json").exists()


def test_key_in_a_sticky_shared_folder_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """/tmp-like folders (1777): others cannot rename over a file they do not own."""
    folder = tmp_path / "sticky"
    folder.mkdir()
    key = folder / "k"
    keygen(key)
    os.chmod(folder, 0o1777)
    run = _redact_with(capsys, tmp_path, key)
    assert run.code == 0, run.err


def test_key_through_a_link_into_a_shared_folder_is_refused(tmp_path: Path, private: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    real = shared / "k"
    keygen(real)
    os.chmod(shared, 0o777)
    link = private / "k"
    link.symlink_to(real)
    run = _redact_with(capsys, tmp_path, link)
    assert_one_line(run, code=2, names=shared, says="writable by group or others")


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_key_owned_by_another_user_is_refused(tmp_path: Path, private: Path, capsys: pytest.CaptureFixture[str],
                                              key_path: Path) -> None:
    os.chown(key_path, 4242, 4242)
    run = _redact_with(capsys, tmp_path, key_path)
    assert_one_line(run, code=2, names=key_path, says="belongs to another user")


def test_unsafe_key_permissions_accepts_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    key = folder / "k"
    keygen(key)
    os.chmod(key, 0o644)
    os.chmod(folder, 0o777)
    run = _redact_with(capsys, tmp_path, key, "--unsafe-key-permissions")
    assert run.code == 0, run.err
    assert "warning: --unsafe-key-permissions" in run.err


def test_key_path_is_a_folder_or_missing(tmp_path: Path, private: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_one_line(_redact_with(capsys, tmp_path, private), code=2, names=private, says="not a regular file")
    missing = private / "nope"
    assert_one_line(_redact_with(capsys, tmp_path, missing), code=2, names=missing, says="not found")


def test_keygen_in_a_private_folder_gives_a_usable_key(private: Path) -> None:
    path = private / "new.key"
    keygen(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key_file(path).fingerprint()


# ---- rotation ---------------------------------------------------------------------------------------

_TOKEN = re.compile(r"h:[0-9a-f]{12}|<script:[0-9a-f]{10}>|(?<![0-9a-f])[0-9a-f]{10}(?![0-9a-f])")


def _tokens(data: bytes) -> set[str]:
    m = orjson.loads(data)
    m.pop("contentHash", None)
    m["session"].pop("id", None)
    found = set(_TOKEN.findall(orjson.dumps(m).decode()))
    return found


def test_rotation_new_key_new_tokens_no_linkage(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                private: Path) -> None:
    """docs/threat-model.md, "Rotating the key": the same session under two keys shares no token, and
    the reports name two different fingerprints."""
    old, new = private / "old.key", private / "new.key"
    keygen(old)
    keygen(new)
    src = tmp_path / "s.jsonl"
    src.write_bytes(_transcript())
    outs = {}
    for name, key in (("old", old), ("new", new), ("old-again", old)):
        out = tmp_path / f"{name}.json"
        report = tmp_path / f"{name}.report.json"
        run = cli(capsys, src, "-o", out, "--policy", "public", "--key-file", key, "--report", report)
        assert run.code == 0, run.err
        outs[name] = (out.read_bytes(), orjson.loads(report.read_bytes())["keyFingerprint"])
    old_tokens, new_tokens = _tokens(outs["old"][0]), _tokens(outs["new"][0])
    assert old_tokens and new_tokens
    assert not old_tokens & new_tokens
    assert outs["old"][0] == outs["old-again"][0]  # same key: same tokens, the same map
    assert outs["old"][1] != outs["new"][1] and outs["old"][1] == outs["old-again"][1]


def test_fingerprint_is_not_a_token_of_anything(private: Path) -> None:
    """The fingerprint is a keyed hash of a fixed label: it cannot be used to test a guessed name."""
    path = private / "k"
    keygen(path)
    key = load_key_file(path)
    fp = key.fingerprint()
    assert fp not in {key.segment_token(x) for x in ("", "fingerprint", "agentplay-redact/v1/fingerprint")}
    other = Key(bytes(32), source="zero")
    assert other.fingerprint() != fp
