"""Tests for the secrets layer of the leak scanner (redact/contract/secrets/, which the scanner and the
redactor's fallback both ask).

Every fake credential here is assembled at run time from a prefix and a seeded random body, so the
repository itself holds no credential-shaped literal for other scanners to trip on.
"""

from __future__ import annotations

import random
import re
import socket
import string
import sys
import time
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.contract import secrets
from redact.contract.secrets import SecretHit, find_secrets, is_exempt, mask
from redact.contract.secrets import plugins
from redact.contract.secrets import scan as secrets_scan

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"


def body(alphabet: str, n: int, seed: int) -> str:
    """n characters of `alphabet`, random but reproducible."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(raw: str) -> str:
    import base64

    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def fake_jwt() -> str:
    header = b64url('{"alg":"HS256","typ":"JWT"}')
    payload = b64url('{"sub":"' + body(LOWER_ALNUM, 12, 40) + '","iat":1700000000}')
    return f"{header}.{payload}.{body(ALNUM + '-_', 43, 41)}"


def fake_uuid(seed: int) -> str:
    h = body(HEX, 32, seed)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# rule -> (a token of that shape, the exact value the rule must report)
PROVIDER_TOKENS: dict[str, str] = {
    "github-token/ghp": "gh" + "p_" + body(ALNUM, 36, 1),
    "github-token/gho": "gh" + "o_" + body(ALNUM, 36, 2),
    "github-token/ghu": "gh" + "u_" + body(ALNUM, 36, 3),
    "github-token/ghs": "gh" + "s_" + body(ALNUM, 36, 4),
    "github-token/ghr": "gh" + "r_" + body(ALNUM, 36, 5),
    "github-fine-grained-pat": "github" + "_pat_" + body(ALNUM, 22, 6) + "_" + body(ALNUM, 59, 7),
    "openai-api-key/proj": "sk-" + "proj-" + body(ALNUM + "-_", 80, 8),
    "openai-api-key/classic": "sk-" + body(ALNUM, 48, 9),
    "anthropic-api-key": "sk-" + "ant-api03-" + body(ALNUM + "-_", 93, 10) + "AA",
    "slack-token/xoxb": "xo" + "xb-" + body(string.digits, 12, 11) + "-" + body(string.digits, 13, 12)
    + "-" + body(ALNUM, 24, 13),
    "slack-token/xoxp": "xo" + "xp-" + body(string.digits, 12, 14) + "-" + body(string.digits, 12, 15)
    + "-" + body(string.digits, 13, 16) + "-" + body(HEX, 32, 17),
    "slack-token/xoxa": "xo" + "xa-2-" + body(string.digits, 12, 18) + "-" + body(HEX, 32, 19),
    "slack-token/xoxr": "xo" + "xr-" + body(string.digits, 12, 20) + "-" + body(ALNUM, 30, 21),
    "gitlab-token": "gl" + "pat-" + body(ALNUM + "-_", 20, 22),
    "google-api-key": "AI" + "za" + body(ALNUM + "-_", 35, 23),
    "aws-access-key/AKIA": "AK" + "IA" + body(string.ascii_uppercase + "234567", 16, 24),
    "aws-access-key/ASIA": "AS" + "IA" + body(string.ascii_uppercase + "234567", 16, 25),
    "npm-token": "np" + "m_" + body(ALNUM, 36, 26),
    "pypi-token": "py" + "pi-AgEIcHlwaS5vcmc" + body(ALNUM + "-_", 70, 27),
    "stripe-key/sk_live": "sk" + "_live_" + body(ALNUM, 24, 28),
    "stripe-key/rk_live": "rk" + "_live_" + body(ALNUM, 24, 29),
    "jwt": fake_jwt(),
    "private-key": "-----BEGIN " + "RSA PRIVATE KEY-----",
    "huggingface-token": "hf" + "_" + body(string.ascii_letters, 34, 30),
    "jwt-base64": __import__("base64").b64encode(fake_jwt().encode()).decode(),
    "twitter-bearer-token": "A" * 22 + body(ALNUM, 90, 31),
    "square-access-token": "EA" + "AA" + body(ALNUM + "-_", 40, 32),
    "square-oauth-secret": "sq0" + "csp-" + body(ALNUM + "-_", 43, 33),
    "facebook-access-token/page": "EA" + "AM" + body(ALNUM, 120, 34),
    "facebook-access-token/app": body(string.digits, 15, 35) + "|" + body(ALNUM + "-_", 27, 36),
    "easypost-api-token": "EZ" + "AK" + body(ALNUM, 54, 37),
    # issue 23, item 4: shapes from each provider's documentation, bodies drawn here
    "openrouter-api-key": "sk-" + "or-v1-" + body(HEX, 64, 38),
    "mailgun-api-key": "ke" + "y-" + body(HEX, 32, 39),
    "circleci-token/pat": "CCI" + "PAT_" + body(ALNUM, 22, 42) + "_" + body(HEX, 40, 43),
    "circleci-token/prj": "CCI" + "PRJ_" + body(ALNUM, 22, 44) + "_" + body(HEX, 40, 45),
    "langsmith-api-key/pt": "lsv2" + "_pt_" + body(HEX, 32, 46) + "_" + body(HEX, 10, 47),
    "langsmith-api-key/sk": "lsv2" + "_sk_" + body(HEX, 32, 48) + "_" + body(HEX, 10, 49),
    "supabase-token/secret": "sb_" + "secret_" + body(ALNUM, 10, 61) + "-" + body(ALNUM, 8, 62) + "_"
    + body(ALNUM, 12, 63),
}


def rule_of(key: str) -> str:
    return key.split("/")[0]


# (string, rule, the secret inside it) for detectors that need context around the secret
CONTEXT_CASES: list[tuple[str, str, str]] = [
    (f"https://deploy:{(pw := 'Tr0ub4' + body(ALNUM, 6, 50))}@git.example.org/acme/api.git",
     "url-credentials", pw),
    (f"Authorization: Bearer {(tok := body(ALNUM, 40, 51))}", "authorization-header", tok),
    (f"-H 'Authorization: Basic {(basic := b64url('admin:' + body(ALNUM, 12, 52)))}'",
     "authorization-header", basic),
    (f"export DB_PASSWORD={(pw2 := 'S3cure!' + body(ALNUM, 5, 53))}", "password-assignment", pw2),
    (f"password = '{(pw3 := 'hunter' + body(string.digits, 3, 54))}'", "password-assignment", pw3),
    (f'token: "{(tok2 := body(LOWER_ALNUM, 32, 55))}"', "secret-assignment", tok2),
    (f"CLIENT_SECRET={(sec := body(ALNUM, 28, 56))}", "secret-assignment", sec),
    (f"curl -u admin:{(pw4 := 'pw' + body(ALNUM, 10, 57))} https://api.example.org", "cli-credentials", pw4),
    (f"mytool --api-token {(tok3 := body(ALNUM, 30, 58))} --verbose", "secret-flag", tok3),
    # a symbol-rich literal (detect-secrets' KeywordDetector cases): quoted, compared, passed to a call
    (f'api_key = "{(sym := "Qx{" + body(ALNUM, 8, 59) + ")p$#" + body(ALNUM, 4, 60))}"',
     "secret-assignment", sym),
    (f'if (db_pass != "{sym}") {{', "password-assignment", sym),
    (f'if ("{sym}" === my_password) {{', "password-comparison", sym),
    (f'if ("{sym}" == private_key) {{', "secret-comparison", sym),
    (f'std::string secret("{sym}");', "secret-assignment", sym),
    (f'char secret[25] = "{sym}";', "secret-assignment", sym),
    (f'password "{sym}";', "password-assignment", sym),
]

HIGH_ENTROPY = body(ALNUM, 40, 60)  # no prefix: only the entropy check can see it

OWN_TOKENS = [
    "h:" + body(HEX, 12, 70),
    body(HEX, 10, 71),
    "\u2022" + body(HEX, 6, 72),
    "<script:" + body(HEX, 10, 73) + ">",
    body(HEX, 40, 74),
    body(HEX, 64, 75),
    body(HEX, 7, 76),
    fake_uuid(77),
    fake_uuid(78).upper(),
    "sa-" + body(HEX, 12, 79),
    "local:claude-code:" + fake_uuid(80),
    "/".join(body(HEX, 10, 81 + i) for i in range(4)),
    "/".join(body(HEX, 10, 90 + i) for i in range(3)) + "/\u2022" + body(HEX, 6, 95),
    "2025-11-29T19:24:03.123Z",
    "2025-11-29T19:24:03+01:00",
    "2025-11-29",
    body(HEX, 128, 96),  # a sha512 digest (lock-file checksums)
]

ORDINARY = [
    "claude-sonnet-4-5",
    "claude-3-5-sonnet-20241022",
    "gpt-4o-mini-2024-07-18",
    "github.com",
    "git log",
    "gh pr view",
    "npm run build",
    "src/\u2022a1b2c3",
    "acme/api",
    "src/components/orders/OrderTable.tsx",
    "node_modules/.pnpm/react@18.2.0/node_modules/react/index.js",
    "mcp__github__get_pull_request",
    "PostToolUse:Bash",
    "https://docs.python.org/3/library/re.html",
    "~/.claude/projects",
    "outside-repo",
    "toolu_" + "01" + body(ALNUM, 22, 100),  # API object ids are public, not credentials
    "msg_" + "01" + body(ALNUM, 22, 101),
    "call_" + body(ALNUM, 24, 102),
    "max_tokens: 4096",
    "tokenizer: bert-base-uncased",
    "password = var.db_password",
    "password: ${DB_PASSWORD}",
    "export API_KEY=$OPENAI_API_KEY",
    "postgres://user:password@localhost:5432/app",
    "https://{USER}:{PASS}@example.com",
    "Authorization: Bearer $TOKEN",
    "gh" + "p_" + "x" * 36,  # placeholders are not secrets
    "AK" + "IA" + "Z" * 16,
    "key_name: prod-eu-west-1",
    'api_key = "{{ .Values.apiKey }}"',  # well-formed templates are references
    'token: "${{ secrets.GITHUB_TOKEN }}"',
    "password = '${DB_PASSWORD}'",
]


def hits_for(text: str) -> list[SecretHit]:
    return find_secrets([text])


# ---------------------------------------------------------------------------------------------
# Detection


@pytest.mark.parametrize("key", sorted(PROVIDER_TOKENS))
def test_provider_rule_finds_whole_token(key: str) -> None:
    token = PROVIDER_TOKENS[key]
    assert (rule_of(key), mask(token)) in {(h.rule, h.masked) for h in hits_for(token)}


@pytest.mark.parametrize("key", sorted(PROVIDER_TOKENS))
def test_provider_rule_finds_token_inside_a_line(key: str) -> None:
    token = PROVIDER_TOKENS[key]
    line = f'config = {{"name": "acme", "value": "{token}", "enabled": true}}'
    assert (rule_of(key), mask(token)) in {(h.rule, h.masked) for h in hits_for(line)}


def test_github_token_is_reported_whole_not_just_its_prefix() -> None:
    # detect-secrets' own GitHub plugin reports only "ghp" as the secret value
    token = PROVIDER_TOKENS["github-token/ghp"]
    [hit] = hits_for(token)
    assert hit.masked == token[:4] + "\u2026(40 chars)"


@pytest.mark.parametrize(("text", "rule", "secret"), CONTEXT_CASES)
def test_context_rule_finds_value(text: str, rule: str, secret: str) -> None:
    assert (rule, mask(secret)) in {(h.rule, h.masked) for h in hits_for(text)}


def test_high_entropy_token_without_prefix() -> None:
    assert [h.rule for h in hits_for(HIGH_ENTROPY)] == ["high-entropy-base64"]
    assert [h.rule for h in hits_for(f"the key is {HIGH_ENTROPY}, keep it safe")] == ["high-entropy-base64"]


def test_random_run_glued_to_a_stray_symbol_is_a_fragment() -> None:
    # trufflehog's near-miss rows: a token of a valid shape with a character no token holds inside
    fragment = body(LOWER_ALNUM, 12, 111) + "?" + body(LOWER_ALNUM, 30, 112)
    assert hits_for(f"service = '{fragment}'") == []
    # but a token that is a URL's query parameter, after `?name=`, is judged on its own
    assert hits_for(f"https://cdn.example.org/file.zip?sig={HIGH_ENTROPY}&v=2")


def test_template_markers_inside_a_literal_do_not_hide_it() -> None:
    # `${` and `{{` count as a template only when well formed
    literal = "m{{h}o)p${e]" + body(ALNUM, 10, 113) + "$#x}}"
    assert "secret-assignment" in {h.rule for h in hits_for(f"api_key = '{literal}'")}


def test_detect_secrets_plugins_add_their_own_findings() -> None:
    # Twilio API key shape: only detect-secrets' plugin knows it
    token = "SK" + body(string.ascii_lowercase + string.digits, 32, 110)
    assert "twilio-api-key" in {h.rule for h in hits_for(f"twilio = {token}")}


# ---------------------------------------------------------------------------------------------
# No false alarms


@pytest.mark.parametrize("value", OWN_TOKENS)
def test_own_tokens_uuids_digests_and_timestamps_are_exempt(value: str) -> None:
    assert is_exempt(value)
    assert find_secrets([value]) == []


@pytest.mark.parametrize("value", ORDINARY)
def test_ordinary_strings_are_not_flagged(value: str) -> None:
    assert find_secrets([value]) == []


@pytest.mark.parametrize(
    "value",
    [
        "h:" + body(HEX, 11, 120),  # one hex short
        body(HEX, 65, 121),  # longer than a sha256
        "src/" + body(HEX, 10, 122),  # a path with a clear segment is not a hashed path
        PROVIDER_TOKENS["github-token/ghp"],
        "",
    ],
)
def test_is_exempt_is_narrow(value: str) -> None:
    assert not is_exempt(value)


def test_hex_digest_exemption_does_not_hide_a_keyed_secret() -> None:
    secret = body(HEX, 32, 123)
    assert find_secrets([secret]) == []  # a bare hex string could be any digest
    assert [h.rule for h in hits_for(f"api_key = '{secret}'")] == ["secret-assignment"]


# ---------------------------------------------------------------------------------------------
# Masking


def test_mask_example() -> None:
    token = PROVIDER_TOKENS["github-token/ghp"]
    assert mask(token) == token[:4] + "\u2026(40 chars)"


def test_mask_short_values_show_less() -> None:
    assert mask("hunter22") == "hu\u2026(8 chars)"
    assert mask("abc") == "\u2026(3 chars)"
    assert mask("") == "\u2026(0 chars)"
    assert mask(PROVIDER_TOKENS["npm-token"], keep=0) == "\u2026(40 chars)"
    with pytest.raises(ValueError):
        mask("secret", keep=-1)


@settings(max_examples=200)
@given(value=st.text(), keep=st.integers(min_value=0, max_value=12))
def test_mask_never_shows_more_than_keep_characters(value: str, keep: int) -> None:
    masked = mask(value, keep)
    shown, _, hint = masked.partition("\u2026")
    assert hint == f"({len(value)} chars)"
    assert value.startswith(shown)
    assert len(shown) <= min(keep, len(value) // 4)


secret_bodies = st.text(alphabet=ALNUM, min_size=36, max_size=36)


@settings(max_examples=50)
@given(rest=secret_bodies)
def test_findings_never_show_more_than_four_characters(rest: str) -> None:
    token = "gh" + "p_" + rest
    for hit in find_secrets([f"GITHUB_TOKEN={token}", token]):
        shown = hit.masked.partition("\u2026")[0]
        assert len(shown) <= 4
        assert all(token[i : i + 5] not in hit.masked for i in range(len(token) - 4))


# ---------------------------------------------------------------------------------------------
# Anywhere in a longer string

EMBEDDABLE = sorted(PROVIDER_TOKENS)
SEPARATORS = [" ", "\n", "\t", ",", ";", "(", ")", '"', "'", " = ", ": "]
filler = st.text(st.characters(codec="utf-8"), max_size=60)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(EMBEDDABLE),
    before=filler,
    after=filler,
    left=st.sampled_from(SEPARATORS),
    right=st.sampled_from(SEPARATORS),
)
def test_secret_embedded_anywhere_is_found(key: str, before: str, after: str, left: str, right: str) -> None:
    token = PROVIDER_TOKENS[key]
    text = before + left + token + right + after
    assert (rule_of(key), mask(token)) in {(h.rule, h.masked) for h in hits_for(text)}


@settings(max_examples=50)
@given(before=filler, after=filler, left=st.sampled_from(SEPARATORS), right=st.sampled_from(SEPARATORS))
def test_high_entropy_secret_embedded_anywhere_is_found(
    before: str, after: str, left: str, right: str
) -> None:
    assert hits_for(before + left + HIGH_ENTROPY + right + after)


@settings(max_examples=100)
@given(
    kind=st.sampled_from(["hash", "segment", "file", "script", "agent", "session", "sha1", "sha256", "uuid"]),
    hexes=st.text(alphabet=HEX, min_size=64, max_size=64),
)
def test_own_tokens_are_never_flagged(kind: str, hexes: str) -> None:
    uuid = f"{hexes[:8]}-{hexes[8:12]}-{hexes[12:16]}-{hexes[16:20]}-{hexes[20:32]}"
    value = {
        "hash": "h:" + hexes[:12],
        "segment": "/".join(hexes[i : i + 10] for i in range(0, 60, 10)),
        "file": "src/lib/\u2022" + hexes[:6],
        "script": "<script:" + hexes[:10] + ">",
        "agent": "sa-" + hexes[:12],
        "session": "local:claude-code:" + uuid,
        "sha1": hexes[:40],
        "sha256": hexes,
        "uuid": uuid,
    }[kind]
    assert find_secrets([value]) == []


# ---------------------------------------------------------------------------------------------
# API shape


def test_duplicates_are_scanned_once_and_reported_for_every_index(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_scan = secrets_scan._scan

    def counting(text: str) -> list[tuple[int, int, str]]:
        calls.append(text)
        return real_scan(text)

    monkeypatch.setattr(secrets_scan, "_scan", counting)
    secrets_scan._found.cache_clear()  # an earlier test may have scanned the token already
    token = PROVIDER_TOKENS["npm-token"]
    hits = find_secrets([token, "git log", token])
    assert calls.count(token) == 1
    assert [(h.index, h.rule) for h in hits] == [(0, "npm-token"), (2, "npm-token")]


def test_a_short_string_is_scanned_once_per_process_a_long_one_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_scan = secrets_scan._scan

    def counting(text: str) -> list[tuple[int, int, str]]:
        calls.append(text)
        return real_scan(text)

    monkeypatch.setattr(secrets_scan, "_scan", counting)
    secrets_scan._found.cache_clear()
    token = PROVIDER_TOKENS["npm-token"]
    long_text = "x" * secrets_scan._CACHED_LEN + " " + token
    first = find_secrets([token, long_text])
    again = find_secrets([long_text, token])
    assert calls.count(token) == 1
    assert calls.count(long_text) == 2
    assert [(h.index, h.rule, h.masked) for h in first] == [(0, "npm-token", again[1].masked),
                                                            (1, "npm-token", again[0].masked)]


def test_order_is_by_index_then_position() -> None:
    a, b = PROVIDER_TOKENS["npm-token"], PROVIDER_TOKENS["aws-access-key/AKIA"]
    hits = find_secrets(["clean", f"{b} then {a}", a])
    assert [(h.index, h.rule) for h in hits] == [(1, "aws-access-key"), (1, "npm-token"), (2, "npm-token")]


def test_secret_hit_is_frozen_and_holds_no_secret() -> None:
    token = PROVIDER_TOKENS["npm-token"]
    [hit] = find_secrets([token])
    with pytest.raises(AttributeError):
        hit.rule = "other"  # type: ignore[misc]
    assert token not in repr(hit)


def test_empty_input() -> None:
    assert find_secrets([]) == []
    assert find_secrets(["", "a", "short"]) == []


# ---------------------------------------------------------------------------------------------
# Safety: no verification, no network, no global settings, no scan_line


def plugin_classes() -> set[type]:
    """Every detect-secrets plugin class loaded by the secrets layer (reached without importing it
    here: only redact/contract/secrets/plugins.py may import detect_secrets)."""
    some_plugin = plugins._PLUGINS[0][0]
    base = next(c for c in type(some_plugin).__mro__ if c.__name__ == "BasePlugin")

    def walk(cls: type) -> Iterator[type]:
        sub: type
        for sub in cls.__subclasses__():
            yield sub
            yield from walk(sub)

    return {base, *walk(base)}


def everything() -> list[str]:
    return [*PROVIDER_TOKENS.values(), *(text for text, _, _ in CONTEXT_CASES), HIGH_ENTROPY, *ORDINARY]


def test_scan_works_when_every_verify_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[type] = []

    def make(cls: type) -> Callable[..., None]:
        def verify(*_args: object, **_kwargs: object) -> None:
            called.append(cls)
            raise AssertionError(f"{cls.__name__}.verify called")

        return verify

    classes = plugin_classes()
    assert len(classes) > 20
    for cls in classes:
        monkeypatch.setattr(cls, "verify", make(cls))
    hits = find_secrets(everything())
    assert called == []
    assert {h.rule for h in hits} >= {rule_of(k) for k in PROVIDER_TOKENS}


def test_plugin_instances_cannot_verify() -> None:
    for plugin, *_ in plugins._PLUGINS:
        with pytest.raises(secrets.VerificationForbidden):
            plugin.verify("anything")


def test_no_socket_is_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[object] = []

    def record(*args: object, **_kwargs: object) -> None:
        attempts.append(args)
        raise OSError("no network in tests")

    monkeypatch.setattr(socket.socket, "connect", record)
    monkeypatch.setattr(socket.socket, "connect_ex", record)
    monkeypatch.setattr(socket, "create_connection", record)
    monkeypatch.setattr(socket, "getaddrinfo", record)
    assert find_secrets(everything())
    assert attempts == []


def test_global_settings_and_scan_line_are_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("detect-secrets global settings or scan_line used")

    for name in ("detect_secrets.settings", "detect_secrets.plugins.base", "detect_secrets.core.scan"):
        module = sys.modules.get(name)
        for attr in ("get_settings", "get_plugins", "get_filters", "scan_line", "transient_settings"):
            if module is not None and hasattr(module, attr):
                monkeypatch.setattr(module, attr, forbidden)
    assert find_secrets(everything())


# detect-secrets plugin -> a line its denylist matches, to check the literal hints that gate it
DS_SAMPLES: dict[str, str] = {
    "ArtifactoryDetector": "artifactory: AKC" + body(ALNUM, 20, 130),
    "AWSKeyDetector": 'aws_secret_key = "' + body(ALNUM + "/+", 40, 131) + '"',
    "AzureStorageKeyDetector": "AccountKey=" + body(ALNUM, 86, 132) + "==",
    "BasicAuthDetector": "https://user:" + body(ALNUM, 12, 133) + "@example.org",
    "CloudantDetector": 'cloudant_password = "' + body(HEX, 64, 134) + '"',
    "DiscordBotTokenDetector": "M" + body(ALNUM, 23, 135) + "." + body(ALNUM, 6, 136) + "."
    + body(ALNUM, 27, 137),
    "GitHubTokenDetector": PROVIDER_TOKENS["github-token/ghp"],
    "GitLabTokenDetector": PROVIDER_TOKENS["gitlab-token"],
    "IbmCloudIamDetector": 'ibm_cloud_iam_key = "' + body(ALNUM, 44, 138) + '"',
    "IbmCosHmacDetector": 'cos_hmac_secret_access_key = "' + body(HEX, 48, 139) + '"',
    "JwtTokenDetector": fake_jwt(),
    "MailchimpDetector": body(HEX, 32, 140) + "-us12",
    "NpmDetector": "//registry.npmjs.org/:_authToken=" + PROVIDER_TOKENS["npm-token"],
    "OpenAIDetector": "sk-" + body(ALNUM, 20, 141) + "T3Blbk" + "FJ" + body(ALNUM, 20, 142),
    "PrivateKeyDetector": PROVIDER_TOKENS["private-key"],
    "PypiTokenDetector": PROVIDER_TOKENS["pypi-token"],
    "SendGridDetector": "SG." + body(ALNUM, 22, 143) + "." + body(ALNUM, 43, 144),
    "SlackDetector": PROVIDER_TOKENS["slack-token/xoxb"].lower(),
    "SoftlayerDetector": 'softlayer_api_key = "' + body(LOWER_ALNUM, 64, 145) + '"',
    "SquareOAuthDetector": "sq0" + "csp-" + body(ALNUM, 43, 146),
    "StripeDetector": PROVIDER_TOKENS["stripe-key/sk_live"],
    "TelegramBotTokenDetector": body(string.digits, 9, 147) + ":" + body(ALNUM, 35, 148),
    "TwilioKeyDetector": "AC" + body(LOWER_ALNUM, 32, 149),
}


@pytest.mark.parametrize(
    ("plugin", "rule", "hints", "gate"), [(p, r, h, g) for p, r, _, h, g in plugins._PLUGINS]
)
def test_detect_secrets_hints_admit_what_the_plugin_finds(
    plugin: object, rule: str, hints: tuple[str, ...], gate: re.Pattern[str] | None
) -> None:
    sample = DS_SAMPLES[type(plugin).__name__]
    assert list(plugin.analyze_string(sample))  # type: ignore[attr-defined]
    assert any(hint in sample.lower() for hint in hints)
    assert gate is None or gate.search(sample)
    present = secrets_scan._HINTS.present(sample.lower())
    assert rule in {r for _, _, r in plugins.detect_secrets_findings(sample, present)}


# ---------------------------------------------------------------------------------------------
# Pathological input (speed itself is measured in bench/bench_secrets.py, not here)


@pytest.mark.parametrize(
    "text",
    [
        "password=" + "a" * 100_000,
        "key " * 30_000,
        "://" * 30_000,
        body(ALNUM + "+/", 300_000, 150),
        "x-" * 50_000 + "@",
        "token=" * 20_000,
        "-----BEGIN " * 20_000,
    ],
)
def test_pathological_input_does_not_hang(text: str) -> None:
    start = time.perf_counter()
    find_secrets([text])
    assert time.perf_counter() - start < 10.0  # a hang guard: each takes well under a second


def test_rule_names_are_kebab_case() -> None:
    names = [name for name, _ in secrets.PROVIDER_RULES] + [name for name, *_ in secrets.CONTEXT_RULES]
    names += [rule for _, rule, *_ in plugins._PLUGINS]
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", name) for name in names)


# ---------------------------------------------------------------------------------------------
# The shortcuts of the scan change no result: each family skips the value checks of spans already
# taken, and case-insensitive context rules run on the lowercased string. Checked against a plain
# reference: every family's findings without skipping, merged by precedence as the layer states it.

PIECES = [
    *PROVIDER_TOKENS.values(),
    *(text for text, _, _ in CONTEXT_CASES),
    HIGH_ENTROPY,
    *ORDINARY,
    "password=",
    "api_key: ",
    "Authorization: Bearer ",
    "https://user:",
    "@host.example.org/x",
    "İ",  # lowercases to two characters: the case-insensitive rules take their slow path
    "\u212a",  # KELVIN SIGN, a `k` to case-insensitive matching
]


def reference_scan(text: str) -> list[tuple[int, int, str]]:
    from redact.contract.secrets import context, entropy, providers

    if len(text) < 8 or is_exempt(text):
        return []
    present = secrets_scan._HINTS.present(text.lower())
    slow = text.lower() + "\x00"  # a lowercased string of another length: the (?i) regexes on `text`
    families = [
        providers.provider_findings(text),
        plugins.detect_secrets_findings(text, present),
        context.context_findings(text, present, lowered=slow),
        entropy.entropy_findings(text),
    ]
    accepted: list[tuple[int, int, str]] = []
    for _, start, end, rule in sorted((p, s, e, r) for p, found in enumerate(families) for s, e, r in found):
        if all(end <= s or e <= start for s, e, _ in accepted):
            accepted.append((start, end, rule))
    return sorted(accepted)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.sampled_from(SEPARATORS), filler), min_size=1,
                max_size=6))
def test_scan_shortcuts_give_the_reference_result(parts: list[str]) -> None:
    text = "".join(parts)
    assert secrets_scan._scan(text) == reference_scan(text)
