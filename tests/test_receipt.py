"""Signed receipts (redact/share/receipt.py, `receipt keygen|sign|verify`): a receipt is valid for exactly one
map and one key; any changed byte of either, or another key, makes verification fail."""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from redact import api
from redact.cli import main
from redact.errors import BadInput, KeyError_, LeakFound
from redact.keys.material import load_signing_key, load_verify_key, signing_keygen
from redact.share.receipt import FORMAT, make_receipt, receipt_bytes, verify_files, verify_receipt, write_receipt
from tests.maps import EXAMPLE

KEY_HEX = "3c" * 32


@pytest.fixture()
def keys(tmp_path: Path) -> dict[str, Path]:
    key = tmp_path / "redact.key"
    key.write_text(KEY_HEX + "\n")
    os.chmod(key, 0o600)
    sig, pub = tmp_path / "sig.pem", tmp_path / "sig.pub"
    signing_keygen(sig, pub)
    other_sig, other_pub = tmp_path / "other.pem", tmp_path / "other.pub"
    signing_keygen(other_sig, other_pub)
    return {"key": key, "sig": sig, "pub": pub, "other_sig": other_sig, "other_pub": other_pub}


@pytest.fixture()
def signed(tmp_path: Path, keys: dict[str, Path]) -> tuple[Path, Path]:
    """A public-policy map made by the library, and its receipt from `write_receipt`."""
    out, receipt = tmp_path / "map.json", tmp_path / "map.json.receipt.json"
    result = api.redact_file(EXAMPLE, out, policy="public", key=_key(keys))
    write_receipt(result, keys["sig"], receipt)
    return out, receipt


def _key(keys: dict[str, Path]) -> object:
    from redact.keys.material import load_key_file

    return load_key_file(keys["key"])


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_receipt_holds_the_facts_and_verifies(signed: tuple[Path, Path], keys: dict[str, Path]) -> None:
    map_path, receipt_path = signed
    receipt = json.loads(receipt_path.read_text())
    doc = json.loads(map_path.read_text())
    assert receipt["format"] == FORMAT
    assert receipt["map"]["contentHash"] == doc["contentHash"]
    assert receipt["policy"]["name"] == "public" and len(receipt["policy"]["hash"]) == 64
    assert receipt["pathMode"] == "hashed"
    assert receipt["keyFingerprint"] == _key(keys).fingerprint()  # type: ignore[attr-defined]
    assert receipt["scanner"] == {"grammar": "pass", "language": "pass", "secrets": "pass", "taint": "pass"}
    assert receipt["tool"]["name"] == "agentplay-redact"
    assert receipt["signer"] == {"alg": "Ed25519", "keyId": load_verify_key(keys["pub"]).key_id}
    assert "createdAt" not in receipt and len(receipt["signature"]) == 128
    check = verify_files(map_path, receipt_path, keys["pub"])
    assert check.ok, check.reason


def test_receipts_are_deterministic(tmp_path: Path, keys: dict[str, Path]) -> None:
    result = api.redact_file(EXAMPLE, None, policy="public", key=_key(keys))
    write_receipt(result, keys["sig"], tmp_path / "a.json")
    write_receipt(result, keys["sig"], tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_one_changed_byte_of_the_map_fails(signed: tuple[Path, Path], keys: dict[str, Path]) -> None:
    map_path, receipt_path = signed
    data = map_path.read_bytes()
    receipt = json.loads(receipt_path.read_text())
    pub = load_verify_key(keys["pub"])
    assert verify_receipt(data, receipt, pub).ok
    for i in range(len(data)):
        changed = data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]
        assert not verify_receipt(changed, receipt, pub).ok, f"byte {i} of the map changed, still valid"


def test_one_changed_byte_of_the_receipt_fails(signed: tuple[Path, Path], keys: dict[str, Path]) -> None:
    map_path, receipt_path = signed
    data, raw = map_path.read_bytes(), receipt_path.read_bytes()
    pub = load_verify_key(keys["pub"])
    for i in range(len(raw)):
        changed = raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1:]
        try:
            parsed = json.loads(changed)
        except ValueError:
            continue  # not JSON any more: the CLI refuses it (exit 2)
        try:
            ok = verify_receipt(data, parsed, pub).ok
        except BadInput:
            continue
        assert not ok, f"byte {i} of the receipt changed, still valid"


def test_cli_exit_codes(tmp_path: Path, signed: tuple[Path, Path], keys: dict[str, Path],
                        capsys: pytest.CaptureFixture[str]) -> None:
    map_path, receipt_path = signed
    code, out, _ = cli(capsys, "receipt", "verify", map_path, receipt_path, "--pubkey", keys["pub"])
    assert code == 0 and out.startswith("valid:")

    code, _, err = cli(capsys, "receipt", "verify", map_path, receipt_path, "--pubkey", keys["other_pub"])
    assert code == 1 and "signed by another key" in err

    tampered_map = tmp_path / "tampered.json"
    tampered_map.write_bytes(map_path.read_bytes().replace(b'"hashed"', b'"dirs_only"', 1))
    code, _, err = cli(capsys, "receipt", "verify", tampered_map, receipt_path, "--pubkey", keys["pub"])
    assert code == 1 and "not the one signed" in err

    receipt = json.loads(receipt_path.read_text())
    receipt["scanner"]["taint"] = "skipped"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(receipt))
    code, _, err = cli(capsys, "receipt", "verify", map_path, forged, "--pubkey", keys["pub"])
    assert code == 1 and "bad signature" in err

    code, _, err = cli(capsys, "receipt", "verify", map_path, tmp_path / "none.json", "--pubkey", keys["pub"])
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, _ = cli(capsys, "receipt", "verify", map_path, map_path, "--pubkey", keys["pub"])
    assert code == 2  # a map is not a receipt
    code, _, _ = cli(capsys, "receipt", "verify", map_path, receipt_path, "--pubkey", keys["sig"])
    assert code == 2  # a private key is not a public key
    code, _, err = cli(capsys, "receipt", "verify", map_path, receipt_path, "--pubkey", keys["key"])
    assert code == 1 and "signed by another key" in err  # 64 hex reads as a raw public key


def test_a_receipt_re_signed_by_another_key_but_naming_the_first_fails(
        signed: tuple[Path, Path], keys: dict[str, Path]) -> None:
    map_path, receipt_path = signed
    receipt = json.loads(receipt_path.read_text())
    other = load_signing_key(keys["other_sig"])
    body = {k: v for k, v in receipt.items() if k != "signature"}
    from redact.model.canonical import canonical_json

    receipt["signature"] = other.sign(canonical_json(body)).hex()
    check = verify_receipt(map_path.read_bytes(), receipt, load_verify_key(keys["pub"]))
    assert not check.ok and "bad signature" in check.reason


def test_verify_takes_a_gzipped_map_and_a_hex_public_key(tmp_path: Path, keys: dict[str, Path],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.json.gz"
    result = api.redact_file(EXAMPLE, out, policy="public", key=_key(keys))
    write_receipt(result, keys["sig"], tmp_path / "r.json")
    hex_pub = tmp_path / "pub.hex"
    hex_pub.write_text(load_verify_key(keys["pub"]).raw.hex() + "\n")
    code, _, err = cli(capsys, "receipt", "verify", out, tmp_path / "r.json", "--pubkey", hex_pub)
    assert code == 0, err
    # the 64 hex characters themselves, as docs/receipts.md says (they were taken for a file name)
    raw = load_verify_key(keys["pub"]).raw.hex()
    code, out_text, err = cli(capsys, "receipt", "verify", out, tmp_path / "r.json", "--pubkey", raw)
    assert code == 0 and out_text.startswith("valid:"), err
    other = load_verify_key(keys["other_pub"]).raw.hex()
    code, _, err = cli(capsys, "receipt", "verify", out, tmp_path / "r.json", "--pubkey", other)
    assert code == 1 and "invalid" in err


def test_receipt_keygen_prints_the_hex_and_makes_the_folder(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    private = tmp_path / "new" / "folder" / "s.pem"
    code, _, err = cli(capsys, "receipt", "keygen", private)
    assert code == 0, err
    assert load_verify_key(private.with_name("s.pem.pub")).raw.hex() in err
    assert (private.parent.stat().st_mode & 0o777) == 0o700


def test_sign_an_existing_map(tmp_path: Path, keys: dict[str, Path],
                              capsys: pytest.CaptureFixture[str]) -> None:
    out, report = tmp_path / "m.json", tmp_path / "m.report.json"
    code, _, err = cli(capsys, "--policy", "public", "--key-file", keys["key"], EXAMPLE, "-o", out,
                       "--report", report)
    assert code == 0, err
    code, _, err = cli(capsys, "receipt", "sign", out, "--signing-key", keys["sig"])
    assert code == 0, err
    plain = json.loads((tmp_path / "m.json.receipt.json").read_text())
    assert plain["scanner"]["taint"] == "skipped" and plain["policy"] == {"name": None, "hash": None}
    code, _, err = cli(capsys, "receipt", "sign", out, "--signing-key", keys["sig"], "--report-json", report,
                       "-o", tmp_path / "r2.json")
    assert code == 0, err
    full = json.loads((tmp_path / "r2.json").read_text())
    assert full["scanner"]["taint"] == "pass" and full["policy"]["name"] == "public"
    assert full["keyFingerprint"] == _key(keys).fingerprint()  # type: ignore[attr-defined]
    for receipt in ("m.json.receipt.json", "r2.json"):
        code, _, err = cli(capsys, "receipt", "verify", out, tmp_path / receipt, "--pubkey", keys["pub"])
        assert code == 0, err


def test_sign_refuses_a_leaking_map_and_a_report_of_another_map(
        tmp_path: Path, keys: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    leaking = tmp_path / "leak.json"
    doc = json.loads(EXAMPLE.read_text())
    from redact.model.canonical import content_hash

    doc["contentHash"] = content_hash(doc)
    leaking.write_text(json.dumps(doc))
    code, _, err = cli(capsys, "receipt", "sign", leaking, "--signing-key", keys["sig"])
    assert code == 1 and not (tmp_path / "leak.json.receipt.json").exists()
    with pytest.raises(LeakFound):
        make_receipt(b"{}", content_hash="0" * 64, policy_name=None, policy_hash=None, path_mode="relative",
                     key_fingerprint=None, scanner={"grammar": "fail"},
                     signing_key=load_signing_key(keys["sig"]))
    good, report = tmp_path / "good.json", tmp_path / "other.report.json"
    api.redact_file(EXAMPLE, good, policy="public", key=_key(keys))
    report.write_text(json.dumps({"contentHash": "0" * 64, "scanner": {"grammar": "pass"}}))
    code, _, err = cli(capsys, "receipt", "sign", good, "--signing-key", keys["sig"], "--report-json", report)
    assert code == 2 and "another map" in err


def test_signing_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "receipt", "keygen", tmp_path / "k.pem")
    assert code == 0, err
    private, public = tmp_path / "k.pem", tmp_path / "k.pem.pub"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in private.read_bytes() and b"PUBLIC KEY" in public.read_bytes()
    key_id = load_verify_key(public).key_id
    assert key_id in err and private.read_text() not in err
    assert load_signing_key(private).verify_key().key_id == key_id
    assert key_id in repr(load_signing_key(private)) and "PRIVATE" not in repr(load_signing_key(private))
    code, _, err = cli(capsys, "receipt", "keygen", tmp_path / "k.pem")
    assert code == 2 and "refusing to overwrite" in err
    os.chmod(private, 0o644)
    with pytest.raises(KeyError_, match="chmod 600"):
        load_signing_key(private)
    junk = tmp_path / "junk.pem"
    junk.write_text("not a key at all, secret words\n")
    os.chmod(junk, 0o600)
    with pytest.raises(KeyError_) as info:
        load_signing_key(junk)
    assert "secret words" not in info.value.diagnostic()


def test_receipt_never_holds_key_material(signed: tuple[Path, Path], keys: dict[str, Path]) -> None:
    _, receipt_path = signed
    text = receipt_path.read_text()
    assert KEY_HEX not in text
    pem_body = "".join(keys["sig"].read_text().splitlines()[1:-1])
    assert pem_body not in text and pem_body[:20] not in text
    assert receipt_bytes(json.loads(text)).decode() == text


def test_redact_with_receipt_end_to_end(tmp_path: Path, keys: dict[str, Path],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out, receipt = tmp_path / "m.json.gz", tmp_path / "m.receipt.json"
    code, _, err = cli(capsys, "--policy", "public", "--key-file", keys["key"], EXAMPLE, "-o", out,
                       "--receipt", receipt, "--signing-key", keys["sig"])
    assert code == 0, err
    assert json.loads(receipt.read_text())["scanner"]["taint"] == "pass"
    code, _, err = cli(capsys, "receipt", "verify", out, receipt, "--pubkey", keys["pub"])
    assert code == 0, err
