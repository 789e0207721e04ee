"""The test vectors printed in docs/ are checked here, so the docs and the code cannot drift."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from redact.model.canonical import canonical_json, content_hash, format_number
from redact.keys.material import Key, parse_key_text
from redact.apply.paths import apply_mode, normalize

DOCS = Path(__file__).resolve().parents[1] / "docs"
ROW = re.compile(r"^\| `([^`]*)` \| `([^`]*)` \|(?: `([^`]*)` \|)?$")


def _section_rows(doc: str, heading: str) -> list[tuple[str, ...]]:
    text = (DOCS / doc).read_text(encoding="utf-8")
    start = text.index(heading)
    nxt = text.find("\n#", start + len(heading))
    body = text[start: nxt if nxt != -1 else None]
    rows = [tuple(g for g in m.groups() if g is not None)
            for m in (ROW.match(line) for line in body.splitlines()) if m]
    assert rows, f"no vectors under {heading!r} in docs/{doc}"
    return rows


def _doc_key() -> "Key":
    text = (DOCS / "paths.md").read_text(encoding="utf-8")
    return parse_key_text(re.search(r"Key \(hex\): `([0-9a-f]+)`", text).group(1).encode(), source="doc")  # type: ignore[union-attr]


def test_dirs_only_vectors() -> None:
    for rel, expected in _section_rows("paths.md", "### dirs_only vectors"):
        assert apply_mode(rel, "dirs_only", None) == expected


def test_relative_fallback_vectors() -> None:
    rows = _section_rows("paths.md", "### relative fallback vectors")
    assert len(rows) >= 4
    for rel, expected in rows:
        assert apply_mode(rel, "relative", None) == expected


def test_hashed_vectors() -> None:
    key = _doc_key()
    for segment, expected in _section_rows("paths.md", "### hashed vectors"):
        assert apply_mode(segment, "hashed", key) == expected


def test_normalisation_vectors() -> None:
    for raw, expected in _section_rows("paths.md", "### Normalisation vectors"):
        assert normalize(raw) == expected


def test_fingerprint_vector() -> None:
    for key_hex, expected in _section_rows("paths.md", "## Keys"):
        assert parse_key_text(key_hex.encode(), source="doc").fingerprint() == expected


def test_link_scope_vectors() -> None:
    key = _doc_key()
    rows = [r for r in _section_rows("paths.md", "## Link scopes") if r[0] != "scope"]
    assert {r[0] for r in rows} == {"global", "dataset:release-1", "session"}
    for scope, digest, expected in rows:
        if scope == "session":
            assert digest == hashlib.sha256(b"{}\n").hexdigest()
        scoped = key.scoped(scope, bytes.fromhex(digest) if digest != "-" else None)
        assert scoped.segment_token("README.md") == expected, scope


def test_identifier_token_vectors() -> None:
    key = _doc_key()
    for category, value, expected in _section_rows("paths.md", "## Identifier tokens"):
        assert key.ident_token(category, value) == expected


def test_content_hash_vector() -> None:
    text = (DOCS / "content-hash.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:json)?\n(.*?)```", text, re.S)
    session_map = json.loads(blocks[0])
    canonical = blocks[1].strip()
    expected = re.search(r"contentHash `([0-9a-f]{64})`", text).group(1)  # type: ignore[union-attr]
    without = json.loads(blocks[0])
    del without["session"]["cliVersion"]
    assert canonical_json(without).decode() == canonical
    assert content_hash(session_map) == expected


@pytest.mark.parametrize("row", _section_rows("content-hash.md", "## Test vector"))
def test_number_vectors(row: tuple[str, str]) -> None:
    number, expected = row
    assert format_number(float(number)) == expected
