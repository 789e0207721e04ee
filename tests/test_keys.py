from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.errors import KeyError_
from redact.keys.material import Key, key_from_env, keygen, load_key_file, parse_key_text


def test_keygen_writes_32_bytes_hex_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "key"
    fingerprint = keygen(path)
    text = path.read_text()
    assert len(bytes.fromhex(text.strip())) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key_file(path).fingerprint() == fingerprint


def test_keygen_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("precious")
    with pytest.raises(KeyError_, match="refusing to overwrite"):
        keygen(path)
    assert path.read_text() == "precious"


def test_two_keygens_differ(tmp_path: Path) -> None:
    assert keygen(tmp_path / "a") != keygen(tmp_path / "b")


def test_group_readable_key_is_refused_unless_unsafe(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("ab" * 32)
    os.chmod(path, 0o640)
    with pytest.raises(KeyError_, match="chmod 600") as info:
        load_key_file(path)
    assert "ab" * 32 not in info.value.diagnostic()
    assert load_key_file(path, allow_unsafe_permissions=True).fingerprint()


def test_short_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("ab" * 15)
    os.chmod(path, 0o600)
    with pytest.raises(KeyError_, match="at least 16"):
        load_key_file(path)


def test_non_hex_key_is_refused_without_echo(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("correct horse battery staple and more words")
    os.chmod(path, 0o600)
    with pytest.raises(KeyError_) as info:
        load_key_file(path)
    assert "horse" not in info.value.diagnostic()


def test_missing_key_file(tmp_path: Path) -> None:
    with pytest.raises(KeyError_, match="not found"):
        load_key_file(tmp_path / "nope")


def test_env_key_and_env_key_file(tmp_path: Path) -> None:
    hexkey = "11" * 32
    assert key_from_env({"AGENTPLAY_REDACT_KEY": hexkey}).fingerprint() == Key(bytes.fromhex(hexkey), source="x").fingerprint()  # type: ignore[union-attr]
    path = tmp_path / "k"
    path.write_text(hexkey)
    os.chmod(path, 0o600)
    from_file = key_from_env({"AGENTPLAY_REDACT_KEY_FILE": str(path)})
    assert from_file is not None and from_file.fingerprint() == Key(bytes.fromhex(hexkey), source="x").fingerprint()
    assert key_from_env({}) is None


def test_key_never_shows_in_repr() -> None:
    material = bytes(range(32))
    key = Key(material, source="x")
    assert material.hex() not in repr(key) and material.hex() not in str(key)
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(key)


def test_categories_are_unlinked() -> None:
    key = parse_key_text(b"00" * 32, source="x")
    assert key.ident_token("repo", "api") != key.ident_token("remote", "api")


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=16, max_size=48), st.binary(min_size=16, max_size=48), st.text(min_size=1, max_size=40))
def test_two_keys_give_unlinkable_tokens(a: bytes, b: bytes, value: str) -> None:
    if a == b:
        return
    ka, kb = Key(a, source="a"), Key(b, source="b")
    assert ka.segment_token(value) != kb.segment_token(value)
    assert ka.ident_token("repo", value) != kb.ident_token("repo", value)
    assert ka.fingerprint() != kb.fingerprint()


def test_keygen_makes_a_private_folder_that_loading_accepts(tmp_path: Path) -> None:
    """README's `keygen ~/.config/agentplay/key` on a fresh machine: the folder did not exist and
    keygen failed. It is made with mode 0700, so the key then loads without a permission warning."""
    path = tmp_path / "config" / "agentplay" / "key"
    fingerprint = keygen(path)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load_key_file(path).fingerprint() == fingerprint
