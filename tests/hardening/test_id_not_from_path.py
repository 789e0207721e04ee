"""A session's id never comes from where its file sits.

A log that names no session id (an Aider history, a Cline task read outside its task folder, a log
without its id record) gets one: its file stem when that is an id, else the digest of its bytes
(redact/formats/common.py `fallback_id`). It used to be an unkeyed digest of the path the user typed,
which `default` keeps in clear: `sha256("/home/dana/acme/.aider.chat.history.md")` confirms a guess of
the user and the project, and the same session got another id in another folder.

For every format (the registry) and each of its generated sessions: read from two paths naming
different users and projects, the map is byte for byte the same, under `default` (ids in clear) and
`public` (ids hashed with the key).
"""
from __future__ import annotations

import hashlib
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.errors import BadInput
from redact.formats.common import fallback_id, session_id
from redact.formats.registry import formats
from redact.keys.material import Key
from tests.formats.table_inputs import GENERATED

KEY = Key(bytes(range(32)), source="test")
NAMES = [fmt.name for fmt in formats()]
HOMES = ("/home/dana/acme-billing", "/Users/erin/Projects/beta-payroll")


@pytest.mark.parametrize("policy", ["default", "public"])
@pytest.mark.parametrize("name", NAMES)
def test_same_session_same_map_wherever_it_sits(name: str, policy: str) -> None:
    compared = 0
    for source, data in GENERATED[name]():
        maps, ids = [], []
        for home in HOMES:
            where = f"{home}/{source.name}"
            try:
                result = redact_bytes(data, name=where, policy=policy, key=KEY, input_format=name,
                                      file_stem=source.name.split(".")[0], companions=[])
            except BadInput:
                break
            maps.append(result.data)
            ids.append(result.session_map["session"]["id"])
            path_digest = hashlib.sha256(where.encode()).hexdigest()[:16]
            assert path_digest.encode() not in result.data, f"{name}: the id is a digest of the path"
        if len(maps) == 2:
            assert maps[0] == maps[1], (name, source.name, ids)
            compared += 1
    assert compared, f"{name}: no generated session was read"


def test_fallback_id_is_the_stem_when_it_is_an_id_else_the_content() -> None:
    uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert fallback_id(b"anything", uuid) == uuid
    assert fallback_id(b"one log", ".aider") == hashlib.sha256(b"one log").hexdigest()[:32]
    assert fallback_id(b"one log") != fallback_id(b"another log")


def test_session_id_is_the_named_id_else_the_fallback() -> None:
    uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert session_id(uuid, b"log") == uuid
    assert session_id("ses_12be9f", b"log") == hashlib.sha256(b"ses_12be9f").hexdigest()[:16]
    for missing in (None, "", 7):
        assert session_id(missing, b"log", ".aider") == fallback_id(b"log")


@cache
def _inputs() -> tuple[tuple[str, str, bytes, bytes], ...]:
    """(format, file name, bytes, the map read from a reference home) of every generated session."""
    out = []
    for name in NAMES:
        for given_path, data in GENERATED[name]():
            try:
                ref = redact_bytes(data, name=f"/srv/ref/{given_path.name}", policy="default", input_format=name,
                                   file_stem=given_path.name.split(".")[0], companions=[]).data
            except BadInput:
                continue
            out.append((name, given_path.name, data, ref))
    return tuple(out)


_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=16).filter(
    lambda n: n not in (".", ".."))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(root=st.sampled_from(["/home", "/Users", "C:\\Users", "/mnt/c/Users"]), user=_NAME, project=_NAME)
def test_no_folder_changes_a_map(root: str, user: str, project: str) -> None:
    """Property: for any folder the file sits in, every format's map is the reference map."""
    sep = "\\" if root.startswith("C:") else "/"
    for name, file_name, data, ref in _inputs():
        where = sep.join((root, user, project, file_name))
        got = redact_bytes(data, name=where, policy="default", input_format=name,
                           file_stem=file_name.split(".")[0], companions=[]).data
        assert got == ref, (name, file_name)
