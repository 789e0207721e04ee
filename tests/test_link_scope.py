"""How far hashed tokens link (issue 13): `--link-scope global|dataset:NAME|session`.

`global` is the key itself: its tokens are byte for byte the ones made before scopes existed (pinned
by tests/golden/*.public-global.json, which are the earlier public goldens renamed, unchanged).
`session` gives two maps no token in common; `dataset:NAME` links only the maps of one release; every
scope is deterministic, and the scope (never the key) is in the report, explain and the receipt.
"""
from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import re
import string
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.errors import PolicyError
from redact.share.explain import explain_file
from redact.keys.material import Key, load_signing_key, signing_keygen
from redact.model.grammar import is_link_scope
from redact.policy.load import load_policy
from redact.share.receipt import verify_receipt, write_receipt
from tests.formats.ccfix import Transcript, text, tool_use
from tests.hardening.helpers import KEY_HEX, cli, write_key
from tests.native.helpers import native

KEY = Key(bytes.fromhex(KEY_HEX), source="test")
CWD = "/Users/dana/src/orders-api"
_SEG = re.compile(r"^[0-9a-f]{10}$")
_TOKEN = re.compile(r"h:[0-9a-f]{12}|<script:[0-9a-f]{10}>")


def transcript(sid: str, prompt: str) -> bytes:
    """A session touching the same files and tools as every other one made here: under `global`, two
    such maps share their tokens (the linkage the other scopes remove)."""
    t = Transcript(sid, CWD, branch="main", seed=int(sid[:2], 16))
    t.user(prompt)
    for path in ("README.md", "src/app.py", "tests/test_app.py", "docs/index.md"):
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": f"{CWD}/{path}"})])
        t.result(tid, "contents")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Bash", {"command": "./scripts/deploy-orders.sh --fast"})])
    t.result(tid, "ok")
    t.assistant([text("done")])
    return t.bytes()


A = transcript("1a2b3c4d-0000-4000-8000-000000000001", "first session")
B = transcript("2b3c4d5e-0000-4000-8000-000000000002", "second session")


def tokens(m: dict[str, Any]) -> set[str]:
    """Every keyed token of a map: hashed path segments, `h:` identifiers and ids, keyed script verbs."""
    found: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k != "contentHash":
                    walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str):
            found.update(_TOKEN.findall(value))
            if key in ("path", "target", "targets", "cwd") or "/" in value:
                found.update(seg for seg in value.split("/") if _SEG.match(seg))
    walk(m)
    return found


def run(data: bytes, scope: str | None, policy: str = "public") -> dict[str, Any]:
    return redact_bytes(data, name="s.jsonl", policy=policy, key=KEY, link_scope=scope).session_map


def test_global_links_two_sessions() -> None:
    """The premise: under one key and `global`, two maps of the same tree share their tokens."""
    shared = tokens(run(A, "global")) & tokens(run(B, "global"))
    assert len(shared) >= 5  # README.md, src, app.py, tests, docs, ... and the script's token


def test_session_scope_tokens_of_two_sessions_share_nothing() -> None:
    ta, tb = tokens(run(A, "session")), tokens(run(B, "session"))
    assert ta and tb
    assert not ta & tb
    assert not ta & tokens(run(A, "global"))  # and nothing with the global tokens either


def test_public_defaults_to_session() -> None:
    assert load_policy("public").policy.tokens.link_scope == "session"
    assert load_policy("default").policy.tokens.link_scope == "global"
    assert load_policy("internal").policy.tokens.link_scope == "global"
    assert run(A, None) == run(A, "session")


@pytest.mark.parametrize("scope", ["global", "session", "dataset:release-2026.q1"])
def test_same_input_twice_gives_the_same_bytes(scope: str) -> None:
    first = redact_bytes(A, name="s.jsonl", policy="public", key=KEY, link_scope=scope)
    second = redact_bytes(A, name="other-name.jsonl", policy="public",
                          key=Key(bytes.fromhex(KEY_HEX), source="again"), link_scope=scope)
    assert first.data == second.data


def test_the_public_api_takes_the_scope() -> None:
    import redact

    got = redact.redact_bytes(A, name="s.jsonl", policy="default", key=KEY, mode="hashed", link_scope="session")
    assert got.report.link_scope == "session"
    assert got.data == redact_bytes(A, name="s.jsonl", policy="default", key=KEY, mode="hashed",
                                    link_scope="session").data
    assert got.data != redact_bytes(A, name="s.jsonl", policy="default", key=KEY, mode="hashed").data


def test_dataset_scope_links_one_release_only() -> None:
    a1, b1 = tokens(run(A, "dataset:r1")), tokens(run(B, "dataset:r1"))
    a2 = tokens(run(A, "dataset:r2"))
    assert len(a1 & b1) >= 5  # one release: its maps link, as under global
    assert not a1 & a2  # two releases: nothing in common
    assert not a1 & tokens(run(A, "global"))


def test_default_policy_with_a_key_is_scoped_too() -> None:
    """The scope applies to every keyed token, whatever the policy: `default` with `--mode hashed`."""
    ta = tokens(redact_bytes(A, name="a", policy="default", key=KEY, mode="hashed",
                             link_scope="session").session_map)
    tb = tokens(redact_bytes(B, name="b", policy="default", key=KEY, mode="hashed",
                             link_scope="session").session_map)
    assert ta and tb and not ta & tb


def _hkdf(ikm: bytes, salt: bytes | None, info: bytes) -> bytes:
    """RFC 5869 with SHA-256, written out here so the derivation is pinned independently."""
    prk = hmac.new(salt if salt is not None else b"\0" * 32, ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def test_scoped_keys_are_the_documented_hkdf_derivations() -> None:
    root = bytes.fromhex(KEY_HEX)
    seg = b"README.md"
    ds = _hkdf(root, None, b"agentplay-redact/v1/link-scope/dataset:r1")
    assert KEY.scoped("dataset:r1").segment_token("README.md") == hmac.new(ds, seg, hashlib.sha256).hexdigest()[:10]
    digest = hashlib.sha256(A).digest()
    ss = _hkdf(root, digest, b"agentplay-redact/v1/link-scope/session")
    assert KEY.scoped("session", digest).segment_token("README.md") == \
        hmac.new(ss, seg, hashlib.sha256).hexdigest()[:10]
    assert KEY.scoped("global") is KEY
    # one key, one fingerprint: which key made a map does not depend on the scope
    assert KEY.scoped("session", digest).fingerprint() == KEY.fingerprint()


_NAME_CHARS = string.ascii_lowercase + string.digits
#: Scopes drawn near the grammar, so valid ones are reached often (free text almost never is one):
#: valid dataset names at and around the 64-character limit, near misses (a capital, a trailing `-`,
#: a space, a missing `dataset:`), the two fixed scopes, and free text.
SCOPES = st.one_of(
    st.sampled_from(["global", "session", "Global", "session ", "dataset:", "dataset", "datasets:x"]),
    st.builds(lambda first, middle, last: f"dataset:{first}{middle}{last}",
              st.sampled_from(_NAME_CHARS), st.text(alphabet=_NAME_CHARS + "._-", max_size=64),
              st.sampled_from(list(_NAME_CHARS) + ["", "-", ".", "A", " "])),
    st.text(alphabet=string.ascii_letters + string.digits + ":._-/ @", max_size=80),
)


@given(SCOPES)
def test_the_scope_grammar_is_closed(text_: str) -> None:
    ok = re.fullmatch(r"global|session|dataset:[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?", text_) is not None
    event("valid scope" if ok else "invalid scope")
    if text_.startswith("dataset:"):
        event(f"dataset name of {'at most' if len(text_) <= 72 else 'over'} 64 characters")
    assert is_link_scope(text_) == ok
    if ok:
        assert load_policy("public", link_scope=text_).policy.tokens.link_scope == text_
    else:
        with pytest.raises(PolicyError):
            load_policy("public", link_scope=text_)


def test_the_scope_is_recorded_never_the_key(tmp_path: Path) -> None:
    result = redact_bytes(A, name="s.jsonl", policy="public", key=KEY, link_scope="dataset:r1")
    report = result.report.as_dict()
    assert report["linkScope"] == "dataset:r1" and report["keyFingerprint"] == KEY.fingerprint()
    assert KEY_HEX not in json.dumps(report)
    assert redact_bytes(A, name="s.jsonl", policy="default").report.as_dict()["linkScope"] is None
    priv, pub = tmp_path / "sign.pem", tmp_path / "sign.pub"
    signing_keygen(priv, pub)
    receipt = write_receipt(result, load_signing_key(priv), tmp_path / "r.json")
    assert receipt["linkScope"] == "dataset:r1"
    from redact.keys.material import load_verify_key

    check = verify_receipt(result.data, receipt, load_verify_key(pub))
    assert check.ok and "tokens link dataset:r1" in check.reason
    old = {k: v for k, v in receipt.items() if k != "linkScope"}  # a receipt from before scopes:
    assert verify_receipt(result.data, old, load_verify_key(pub)).reason.startswith("bad signature")


def test_explain_states_the_scope(tmp_path: Path) -> None:
    src = tmp_path / "s.jsonl"
    src.write_bytes(A)
    exp = explain_file(src, policy="public", key=KEY, link_scope="session")
    assert exp.header()["linkScope"] == "session"


def test_cli_single_and_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = write_key(tmp_path)
    (tmp_path / "in").mkdir()
    a, b = tmp_path / "in" / "a.jsonl", tmp_path / "in" / "b.jsonl"
    a.write_bytes(A)
    b.write_bytes(B)
    one = tmp_path / "one.json"
    r = cli(capsys, "--policy", "public", "--key-file", key, "--link-scope", "session", a, "-o", one,
            "--report", tmp_path / "rep.json")
    assert r.code == 0, r.err
    assert json.loads((tmp_path / "rep.json").read_text())["linkScope"] == "session"
    out = tmp_path / "out"
    r = cli(capsys, "--policy", "public", "--key-file", key, "--link-scope", "session", a, b,
            "--out-dir", out)
    assert r.code == 0, r.err
    maps = [orjson.loads(gzip.decompress(p.read_bytes())) for p in sorted(out.glob("*.json.gz"))]
    assert len(maps) == 2 and not tokens(maps[0]) & tokens(maps[1])
    assert orjson.loads(one.read_bytes()) in maps  # batch and single runs agree
    r = cli(capsys, "--policy", "public", "--key-file", key, "--link-scope", "dataset:r1", a, b,
            "--out-dir", tmp_path / "out2")
    assert r.code == 0, r.err
    maps = [orjson.loads(gzip.decompress(p.read_bytes())) for p in sorted((tmp_path / "out2").glob("*.json.gz"))]
    assert len(tokens(maps[0]) & tokens(maps[1])) >= 5


def test_cli_refuses_a_bad_scope_without_echoing_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = write_key(tmp_path)
    src = tmp_path / "a.jsonl"
    src.write_bytes(A)
    r = cli(capsys, "--policy", "public", "--key-file", key, "--link-scope", "dataset:Globex Merger", src,
            "-o", tmp_path / "o.json")
    assert r.code == 2 and "Globex" not in r.err and not (tmp_path / "o.json").exists()


def test_native_session_scope() -> None:
    out_a, rep = native(A, "claude-code", policy="public", key=KEY)
    out_b, _ = native(B, "claude-code", policy="public", key=KEY)
    assert rep.link_scope == "session"
    ta = set(re.findall(rb"h:[0-9a-f]{12}|(?<=/)[0-9a-f]{10}(?=[/\"])", out_a))
    tb = set(re.findall(rb"h:[0-9a-f]{12}|(?<=/)[0-9a-f]{10}(?=[/\"])", out_b))
    assert ta and tb and not ta & tb
    from redact.api_native import scrub_native  # the scope comes with the policy (as the CLI loads it)
    from redact.report import RedactionReport

    g = scrub_native(A, "claude-code", name="a", policy=load_policy("public", link_scope="global"), key=KEY,
                     mode=None, report=RedactionReport(source="a"))
    assert set(re.findall(rb"h:[0-9a-f]{12}|(?<=/)[0-9a-f]{10}(?=[/\"])", g)) != ta


def test_batch_output_names_follow_a_dataset_scope(tmp_path: Path) -> None:
    from redact.batch.inputs import plan

    src = tmp_path / "acme-layoffs-notes.jsonl"
    src.write_bytes(A)
    names = {scope: Path(plan([str(src)], tmp_path / scope.replace(":", "-"), KEY, scope)[0][0].output).name
             for scope in ("global", "session", "dataset:r1", "dataset:r2")}
    assert names["global"] == names["session"]  # keyed by the key file (docs/threat-model.md)
    assert len({names["global"], names["dataset:r1"], names["dataset:r2"]}) == 3
    assert all("acme" not in n for n in names.values())


def test_global_under_a_publish_policy_warns() -> None:
    warned = redact_bytes(A, name="s", policy="public", key=KEY, link_scope="global").report.warnings
    assert any("link scope global" in w for w in warned)
    assert not any("link scope" in w for w in redact_bytes(A, name="s", policy="public", key=KEY).report.warnings)
