from __future__ import annotations

import re

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


@pytest.mark.parametrize("host", ["github.com", "docs.python.org", "search"])  # an IP literal is not (issue 23)
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


# -- issue 23, item 4: provider keys and opaque values in kept name slots -------------------------
def _hex(n: int, seed: int) -> str:
    import hashlib

    return hashlib.sha256(str(seed).encode()).hexdigest()[:n] if n <= 64 else _hex(64, seed) + _hex(n - 64, seed + 1)


NEW_KEYS = {
    "openrouter": "sk-" + "or-v1-" + _hex(64, 1),
    "mailgun": "ke" + "y-" + _hex(32, 2),
    "circleci": "CCI" + "PAT_" + "Zq4Rt7Yu1Io3Pa5Sd8Fg0H" + "_" + _hex(40, 3),
    "langsmith": "lsv2" + "_pt_" + _hex(32, 4) + "_" + _hex(10, 5),
    "supabase": "sb_" + "secret_" + "Zq4Rt7Yu1I-o3Pa5Sd8_Fg0Hj2Kl",
}


@pytest.mark.parametrize("policy", ["default", "internal"])
@pytest.mark.parametrize("category", ["repo", "mcp_server", "mcp_tool", "skill", "model", "host"])
@pytest.mark.parametrize("provider", sorted(NEW_KEYS))
def test_a_new_provider_key_is_never_kept_in_a_name_slot(policy: str, category: str, provider: str) -> None:
    token = NEW_KEYS[provider]
    value = f"x-{token}" if category != "host" else f"{token}.example.com"
    out = scrubber(policy).scrub(category, value)
    assert out is None or token.lower() not in str(out).lower()


@pytest.mark.parametrize("value", [
    "tool-" + _hex(32, 7), _hex(40, 8), "srv_" + _hex(8, 9) + "-" + _hex(4, 10) + "-" + _hex(4, 11) + "-"
    + _hex(4, 12) + "-" + _hex(12, 13),
])
@pytest.mark.parametrize("category", ["mcp_server", "mcp_tool", "skill", "repo"])
def test_a_long_bare_hex_or_uuid_in_an_identifier_is_hashed(value: str, category: str) -> None:
    out = scrubber("default").scrub(category, value)
    assert isinstance(out, str) and out.startswith("h:")


def test_a_host_label_is_checked_for_secrets_before_lower_casing() -> None:
    """`AKIA...` lower-cased is no AWS key shape: the check runs on the value as written."""
    key_id = "AK" + "IA" + "ZQ4RT7YU1IO3PA5S"
    out = scrubber("default").scrub("host", f"{key_id}.example.com")
    assert out is None or key_id.lower() not in str(out).lower()


def test_the_scanner_rejects_an_opaque_identifier() -> None:
    from audit.values import ident_verdict

    verdict = ident_verdict("mcp_tool", "tool-" + _hex(32, 7), None, "ok")
    assert "grammar.identifier-opaque" in verdict[1]
    assert ident_verdict("mcp_tool", "list_issues", None, "ok") == ("ident:mcp_tool", ())


def test_a_new_provider_key_in_a_file_name_and_an_mcp_tool_never_reaches_the_map() -> None:
    from redact.api import redact_bytes
    from tests.formats.ccfix import Transcript, text, tool_use

    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/home/zqdev/code/shop", branch="main")
    t.user("go")
    for n, token in enumerate(NEW_KEYS.values()):
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": f"/home/zqdev/code/shop/cfg/{token}.env"})])
        t.result(tid, "x")
        tid = t.tool_id()
        t.assistant([tool_use(tid, f"mcp__srv{n}__call-{token}", {})])
        t.result(tid, "x")
    t.assistant([text("done")], stop="end_turn")
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    assert result.session_map["files"] and result.session_map["events"]
    for token in NEW_KEYS.values():
        assert token.encode() not in result.data


# -- issue 23, item 7: an allowlist matches whole names only ---------------------------------------
@settings(max_examples=200, deadline=None)
@given(suffix=st.from_regex(r"[-_.:/][a-z0-9]{1,12}", fullmatch=True),
       category=st.sampled_from(["mcp_tool", "mcp_server", "model", "tool", "hook", "subagent_type"]))
def test_an_allowlisted_start_does_not_keep_a_longer_name(suffix: str, category: str) -> None:
    """`list_teams-<word>`: a listed value or a pattern that matches only the start keeps nothing."""
    from redact.policy.load import load_policy as load

    allow = load("public").allowlists[category]
    starts = [*allow.values[:20], "claude-sonnet-4-5", "PreToolUse:Bash"]
    s = scrubber("public")
    for start in starts:
        name = start + suffix
        if name in allow.values or any(re.fullmatch(p, name) for p in allow.patterns):
            continue  # the longer name is itself listed: nothing to prove
        out = s.scrub(category, name)
        assert out is None or (isinstance(out, str) and out.startswith("h:")), (category, name)


def test_an_mcp_tool_with_a_listed_start_is_hashed_end_to_end() -> None:
    from redact.api import redact_bytes
    from tests.formats.ccfix import Transcript, text, tool_use

    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/home/zqdev/code/shop", branch="main")
    t.user("go")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__linear__list_teams-zqpayroll", {})])
    t.result(tid, "x")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__linear__list_teams", {})])
    t.result(tid, "x")
    t.assistant([text("done")], stop="end_turn")
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="public", key=KEY)
    assert result.session_map["events"]
    assert b"zqpayroll" not in result.data and b"list_teams" in result.data


# -- issue 23, item 5: sentences in identifier clothing ------------------------------------------
SENTENCE = "we-moved-the-payroll-export-to-the-new-bucket-on-friday-after-the-globex-audit-finished"


@pytest.mark.parametrize("policy", ["default", "internal"])
@pytest.mark.parametrize("category", ["mcp_tool", "mcp_server", "model", "skill", "repo", "subagent_type"])
@pytest.mark.parametrize("value", [SENTENCE, "acme-quarterly-payroll-export-for-globex", "x" * 65])
def test_a_sentence_in_identifier_clothing_is_hashed_and_counted(policy: str, category: str, value: str) -> None:
    s = scrubber(policy)
    out = s.scrub(category, value)
    assert isinstance(out, str) and out.startswith("h:")
    assert sum(n for k, n in s.fallbacks.items() if k.startswith(f"identifier:{category}/")) == 1


@pytest.mark.parametrize("value", ["orders-api", "claude-sonnet-4-5-20250929", "get_pull_request_comments",
                                   "list_directory_with_sizes", "PostToolUseFailure:NotebookEdit"])
def test_ordinary_names_stay(value: str) -> None:
    assert scrubber("default").scrub("mcp_tool", value) == value


def test_a_sentence_file_name_becomes_a_token_and_the_map_is_written() -> None:
    from redact.api import redact_bytes
    from tests.formats.ccfix import Transcript, text, tool_use

    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/home/zqdev/code/shop", branch="main")
    t.user("go")
    for name in (f"notes/{SENTENCE}.md", f"{SENTENCE}/a.py", "src/ok.py"):
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": f"/home/zqdev/code/shop/{name}"})])
        t.result(tid, "x")
    tid = t.tool_id()
    t.assistant([tool_use(tid, f"mcp__srv__{SENTENCE}", {})])
    t.result(tid, "x")
    t.assistant([text("done")], stop="end_turn")
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    assert len(result.session_map["files"]) == 3 and b"payroll" not in result.data
    assert any(k.endswith("sentence-identifier") or k.endswith("long-identifier")
               for k in result.report.fallbacks)


def test_the_scanner_flags_a_sentence_identifier_and_path() -> None:
    from audit.values import ident_verdict, path_verdict

    assert "grammar.identifier-sentence" in ident_verdict("mcp_tool", SENTENCE, None, "ok")[1]
    assert "grammar.path-sentence" in path_verdict(f"docs/{SENTENCE}.md", "relative", "ok")[1]
    assert path_verdict("docs/how-to-install.md", "relative", "ok") == ("path", ())


# -- issue 23, item 6: hosts that name a person, under generalize ----------------------------------
@pytest.mark.parametrize("host", ["8.8.4.4", "203.0.113.9", "2001:4860:4860::8888", "zqalice.github.io",
                                  "zqalice.gitlab.io", "zqshop.netlify.app", "zqhome.duckdns.org",
                                  "zq-4f2a.ngrok-free.app", "zqlaptop.tail1234.ts.net", "zq.trycloudflare.com"])
def test_a_host_that_names_a_person_is_hashed_under_generalize(host: str) -> None:
    out = scrubber("default").scrub("host", host)
    assert isinstance(out, str) and out.startswith("h:")


@pytest.mark.parametrize("host", ["github.com", "api.openai.com", "pypi.org", "docs.python.org", "github.io"])
def test_public_hosts_stay_under_generalize(host: str) -> None:
    assert scrubber("default").scrub("host", host) == host
