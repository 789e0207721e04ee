from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.apply.identifiers import IdentScrubber, is_private_host, normalize_remote, strip_url
from redact.keys.material import Key
from redact.model.fieldclass import IDENT_CATEGORIES
from redact.policy import load_policy

KEY = Key(bytes(range(32)), source="test")
ALL_ACTIONS = ("keep", "hash", "allowlist")


def scrubber(policy: str = "internal", key: Key | None = KEY) -> IdentScrubber:
    return IdentScrubber(load_policy(policy), key)


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        ("https://alice:s3cr3t@github.com/acme/api.git", "acme/api"),
        ("https://x-access-token:tok@github.com/acme/api?ref=main#frag", "acme/api"),
        ("git@github.com:acme/api.git", "acme/api"),
        ("ssh://git@gitlab.com/acme/api.git", "acme/api"),
        ("https://git.corp.example:8443/team/api.git", "git.corp.example/team/api"),
        ("acme/api", "acme/api"),
    ],
)
def test_remote_normalisation_removes_credentials(remote: str, expected: str) -> None:
    assert normalize_remote(remote) == expected


def test_url_loses_credentials_query_and_fragment() -> None:
    assert strip_url("https://u:p@github.com/acme/api/pull/3?token=x#y") == "https://github.com/acme/api/pull/3"


@pytest.mark.parametrize("host", ["10.1.2.3", "192.168.0.4", "127.0.0.1", "::1", "jira", "wiki.acme.internal",
                                  "build.corp", "printer.local", "fd00::1"])
def test_private_hosts(host: str) -> None:
    assert is_private_host(host)


@pytest.mark.parametrize("host", ["github.com", "docs.python.org", "8.8.8.8", "search"])
def test_public_hosts(host: str) -> None:
    assert not is_private_host(host)


def test_generalize_keeps_public_hashes_private() -> None:
    s = scrubber("default")
    assert s.scrub("host", "https://docs.python.org/3/x?q=1") == "docs.python.org"
    token = s.scrub("host", "wiki.acme.internal")
    assert isinstance(token, str) and token.startswith("h:") and "acme" not in token


def test_allowlist_keeps_public_models_and_hashes_private_ones() -> None:
    s = scrubber("public")
    assert s.scrub("model", "claude-sonnet-4-5-20250929") == "claude-sonnet-4-5-20250929"
    assert s.scrub("model", "gpt-5-codex") == "gpt-5-codex"
    assert str(s.scrub("model", "acme-finetune-v7")).startswith("h:")
    assert s.report.kept["model"] == {"claude-sonnet-4-5-20250929", "gpt-5-codex"}


def test_hash_without_key_drops_and_counts() -> None:
    s = scrubber("public", key=None)
    assert s.scrub("repo", "orders-api") is None
    assert s.report.no_key_drops == 1


def test_drop_action_and_numeric_pr() -> None:
    s = scrubber("public")
    assert s.scrub("pr", 142) is None
    assert s.scrub("pr", "https://github.com/acme/api/pull/142") is None
    assert scrubber("internal").scrub("pr", 142) == 142


@pytest.mark.parametrize("category", IDENT_CATEGORIES)
@pytest.mark.parametrize("policy", ["internal", "default", "public"])
def test_email_never_survives(category: str, policy: str) -> None:
    out = scrubber(policy).scrub(category, "alice.smith@acme-corp.com")
    assert out is None or ("alice" not in str(out) and "@" not in str(out))


@pytest.mark.parametrize("policy", ["internal", "default", "public"])
def test_whitespace_or_invisible_values_are_never_kept_in_clear(policy: str) -> None:
    s = scrubber(policy)
    for value in ["Fix the bug for Globex", "re\u200bpo", "line\nbreak", "tab\tname"]:
        out = s.scrub("repo", value)
        assert out is None or (isinstance(out, str) and out.startswith("h:"))


canary = st.from_regex(r"Zq[a-z]{6}Canary", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(category=st.sampled_from(IDENT_CATEGORIES), secret=canary,
       shape=st.sampled_from(["{}", "https://{}:{}@h.example/{}", "{}.acme.internal", "user-{}", "{}@corp.com",
                              "https://github.com/acme/{}/pull/1?x={}"]))
def test_no_canary_survives_under_public(category: str, secret: str, shape: str) -> None:
    value = shape.format(secret, secret, secret)
    out = scrubber("public").scrub(category, value)
    assert out is None or secret not in str(out)


@pytest.mark.parametrize("value", ["/Users/alice/repos/api.git", "~/src/api", "C:\\Users\\bob\\api",
                                   "file:///home/carol/api.git", "Users/dave/src/x"])
def test_local_paths_are_never_kept_in_clear(value: str) -> None:
    out = scrubber("internal").scrub("remote", value)
    assert isinstance(out, str) and out.startswith("h:")
