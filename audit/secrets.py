"""Secrets layer of the leak scanner (DESIGN.md section 8, layer 2).

`find_secrets` looks for credentials in the distinct strings of an output: short identifiers, URLs,
hosts, paths and verbs in a well-formed map, and anything at all in a map made by another producer.
Four detector families run over every string, each kept small and data-like:

* provider rules: a name and a regex for a token format with a recognisable shape (`ghp_`, `AKIA`,
  `sk-ant-`, PEM headers, JWTs, ...); the whole match is the secret;
* detect-secrets' regex plugins, instantiated here, their denylists run as `analyze_string` runs
  them (with positions), as an independent second opinion;
* context rules: a credential named by what surrounds it (`password=...`, `Authorization: Bearer ...`,
  `scheme://user:pass@host`, `curl -u user:pass`), reported when the value is not a placeholder, a
  variable reference or an ordinary word;
* a high-entropy check for long opaque tokens, calibrated so identifiers, model names, paths and this
  tool's own hash tokens stay quiet.

Overlapping findings are merged, in that order of precedence. docs/scanner.md has the figures.

Safety. This is the only module that imports detect_secrets. It never touches its global settings,
never calls its ad-hoc `scan_line` (which flags nearly every word), and never calls a plugin's
`analyze_line` or `verify` (which can send the secret to its provider): the plugin instances made
here have `verify` replaced by a function that raises, so even a future code path that tried would
fail closed, offline. Findings carry a masked value (`mask`), never the secret.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from redact.model.grammar import LOCAL_ID_TOOLS

__all__ = ["SecretHit", "find_secrets", "is_exempt", "mask"]


@dataclass(frozen=True, slots=True)
class SecretHit:
    """One credential-shaped value found in one input string. Never holds the value itself."""

    index: int  # index into the input sequence
    rule: str  # detector name, e.g. "github-token", "aws-access-key", "high-entropy-base64"
    masked: str  # at most the first 4 characters kept, plus the length: "ghp_…(40 chars)"


def mask(value: str, keep: int = 4) -> str:
    """`value` with at most `keep` leading characters kept (fewer for short values) and its length.

    At most a quarter of the value is ever shown, so a short password keeps one character or none.
    """
    if keep < 0:
        raise ValueError("keep must be >= 0")
    shown = min(keep, len(value) // 4)
    return f"{value[:shown]}\u2026({len(value)} chars)"


# ---------------------------------------------------------------------------------------------
# Exemptions: strings proven harmless.

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_ISO_TIME = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
# This tool's own tokens: identifier hash, dirs_only file name, script token, agent id, session id.
_OWN_TOKEN = (
    rf"h:[0-9a-f]{{12}}|\u2022[0-9a-f]{{6}}|<script:[0-9a-f]{{10}}>|sa-[0-9a-f]{{6,32}}"
    rf"|local:(?:{'|'.join(LOCAL_ID_TOOLS)}):{_UUID}"
)
_HEX_DIGEST = r"[0-9a-f]{7,64}|[0-9A-F]{7,64}"  # sha1/sha256/git short shas; 10-hex hashed segments
_ATOM = rf"(?:{_OWN_TOKEN}|{_UUID}|{_HEX_DIGEST}|{_ISO_TIME})"
_EXEMPT = re.compile(rf"{_ATOM}(?:/{_ATOM})*")  # an atom, or a hashed path made of atoms
_OWN_OR_TIME = re.compile(rf"(?:{_OWN_TOKEN}|{_ISO_TIME})")


def is_exempt(value: str) -> bool:
    """True when `value` is proven harmless: one of this tool's own tokens (`h:` + 12 hex, 10-hex
    path segments, `•` + 6 hex, `<script:` + 10 hex + `>`, `sa-` + hex, `local:<tool>:<uuid>`), a
    UUID, a hex digest of 7-64 characters, an ISO-8601 timestamp, or a `/`-path made only of these."""
    return _EXEMPT.fullmatch(value) is not None


# ---------------------------------------------------------------------------------------------
# Value heuristics shared by the detectors.

_PLACEHOLDER = re.compile(
    r"x{4}|\*{3}|\.{3}|(.)\1{5}|\$\{|\$\(|\{\{|%[sd(]|<[^>]*>|example|placeholder|changeme|change_me"
    r"|redacted|dummy|your[_-]|insert[_-]|replace[_-]|fake",
    re.IGNORECASE,
)
# A variable, template, path or call rather than a literal value; and an attribute chain.
_REFERENCE = re.compile(r"[$%@&*<{\[(]|~?\.{0,2}/|[A-Za-z_][\w.]*[(\[]")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_HOSTNAME = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}")
_SEPARATOR = re.compile(r"[-_]")
_CHUNK = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_HEX_CHARS = frozenset("0123456789abcdefABCDEF")
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")
_UPPER = re.compile(r"[A-Z]")
_LOWER = re.compile(r"[a-z]")
# Random-looking but public: object ids of model APIs, all over agent logs, and subresource
# integrity digests (`sha512-...` in lock files).
_API_OBJECT_ID = re.compile(
    r"(?:(?:mapr|agent)_)?(?:srvtoolu|toolu|msg|req|call|resp|rs|fc|ctc|file|batch|run|thread|asst"
    r"|step|chatcmpl)[_-][A-Za-z0-9]{16,48}(?:_\d+)?|sha(?:1|256|384|512)-[A-Za-z0-9+/]{27,86}={0,2}"
)


def _is_placeholder(value: str) -> bool:
    return _PLACEHOLDER.search(value) is not None


def _is_reference(value: str) -> bool:
    """`$DB_PASS`, `{{ token }}`, `./key.pem`, `get_secret()`, `var.db_password`; not a dotted token
    such as a JWT or a Discord bot token, whose parts are long or look random."""
    if _REFERENCE.match(value):
        return True
    if _DOTTED.fullmatch(value) is None:
        return False
    return not any(len(part) > 32 or _looks_random(part) for part in value.split("."))


def _entropy(value: str) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _looks_random(value: str) -> bool:
    """Letters and digits mixed in short chunks, as in a random token, not words and numbers.

    `n7r27svaq5hi1alylhvcsc` splits into chunks of mean length 2.4, `claude-3-5-sonnet-20241022`
    into chunks of mean length 4.8 (and its separators split it further, see `_is_opaque`)."""
    chunks = _CHUNK.findall(value)
    alnum = sum(map(len, chunks))
    if alnum < 10 or _DIGIT.search(value) is None or _LETTER.search(value) is None:
        return False
    # In random mixed-case text chunks are short (99th percentile 3.0); with one case only, letter
    # runs between digits are longer (97th percentile 4.5 for 20-40 characters).
    # A capital or two in a lowercase token (`ACf3...`) do not make it mixed-case.
    upper, lower = len(_UPPER.findall(value)), len(_LOWER.findall(value))
    mixed_case = 0.1 < upper / (upper + lower) < 0.9
    return alnum / len(chunks) <= (3.0 if mixed_case else 4.5)


def _unpronounceable(value: str) -> bool:
    """16 letters or more with few vowels (random lowercase has 19%, English words about 40%) and
    a digit: `lujs8uilmoppwjfcrdgwaw8xywulgrjt`. Used only where a keyword already points at a secret."""
    letters = [c for c in value.lower() if c.isalpha()]
    if len(letters) < 16 or not any(c.isdigit() for c in value):
        return False
    return sum(c in "aeiouy" for c in letters) < 0.25 * len(letters) and _entropy(value) >= 3.5


def _expected_entropy(n: int, alphabet: int) -> float:
    """About the Shannon entropy of n characters drawn uniformly from `alphabet` symbols: the log of
    the expected number of distinct characters."""
    return math.log2(alphabet * (1 - (1 - 1 / alphabet) ** n))


def _is_opaque(token: str) -> bool:
    """A long token random-looking enough to be a key, for the entropy detector: at least 20
    characters, not an API object id, and a part of 10 or more between `-`/`_` separators that
    looks random (so `gpt-4o-mini-2024-07-18` stays quiet), is not a hex digest, and has an entropy
    near that of random characters of its alphabet."""
    if len(token) < 20:
        return False
    part = max(_SEPARATOR.split(token), key=len)
    if len(part) < 10 or not _looks_random(part) or is_exempt(part):
        return False
    if is_exempt(token) or _API_OBJECT_ID.fullmatch(token) or _is_placeholder(token):
        return False
    return _near_random_entropy(part, 0.5)


def _near_random_entropy(value: str, margin: float) -> bool:
    """Entropy within `margin` bits of random characters from the value's alphabet (hex, one case
    and digits, or both cases); repeated patterns such as `abcd1234abcd1234` fall far below."""
    if _HEX_CHARS.issuperset(value):
        alphabet = 16
    elif value.isupper() or value.islower():
        alphabet = 36
    else:
        alphabet = 62
    return _entropy(value) >= _expected_entropy(min(len(value), 40), alphabet) - margin


# ---------------------------------------------------------------------------------------------
# Provider rules: (name, regex). The whole match is the secret. All rules run as one combined
# regex behind a single start-of-token look-behind, which fails at once inside words, so a search
# only tries the rules where a token starts (about 3x faster than without it on base64 and prose).
# Order matters: the first rule that matches at a position names the finding.

_E = r"(?![A-Za-z0-9])"  # token end
PROVIDER_RULES: tuple[tuple[str, str], ...] = (
    ("private-key", r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d"),
    ("github-fine-grained-pat", r"github_pat_[A-Za-z0-9_]{22,255}"),
    ("github-token", rf"gh[pousr]_[A-Za-z0-9]{{36,255}}{_E}"),
    ("gitlab-token", r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas|ffct)-[A-Za-z0-9_.\-]{20,}"),
    ("gitlab-token", r"GR1348941[A-Za-z0-9_\-]{20,}"),
    ("anthropic-api-key", r"sk-ant-[A-Za-z0-9_\-]{32,}"),
    ("openai-api-key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}"),
    ("openai-api-key", rf"sk-[A-Za-z0-9_\-]*T3BlbkFJ[A-Za-z0-9_\-]{{16,}}|sk-[A-Za-z0-9]{{32,}}{_E}"),
    ("slack-token", r"xox[abposre](?:\.xox[bp])?-\d+-[A-Za-z0-9\-]{8,}|xapp-\d-[A-Za-z0-9\-]{10,}"),
    ("slack-webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}"),
    ("google-api-key", r"AIza[0-9A-Za-z_\-]{35}"),
    ("aws-access-key", rf"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{{16}}{_E}"),
    ("aws-bedrock-key", r"ABSK[A-Za-z0-9+/]{100,}=*"),
    ("npm-token", rf"npm_[A-Za-z0-9]{{36}}{_E}"),
    ("pypi-token", r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\-]{50,}"),
    ("stripe-key", r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}"),
    ("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-+/=]*"),
    ("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-+/=]{8,}"),
    ("huggingface-token", rf"(?:hf|api_org)_[A-Za-z]{{34}}{_E}"),
    ("sendgrid-api-key", r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,64}"),
    ("digitalocean-token", rf"do[opr]_v1_[a-f0-9]{{64}}{_E}"),
    ("shopify-token", rf"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}{_E}"),
    ("vault-token", r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    ("terraform-cloud-token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,}"),
    ("databricks-token", rf"dapi[a-fA-F0-9]{{32}}(?:-\d)?{_E}"),
    ("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    ("grafana-token", r"glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("sentry-token", r"sntry[su]_[A-Za-z0-9+/=_\-]{40,}"),
    ("linear-api-key", rf"lin_api_[A-Za-z0-9]{{40}}{_E}"),
    ("postman-api-key", rf"PMAK-[a-f0-9]{{24}}-[a-f0-9]{{34}}{_E}"),
    ("pulumi-token", rf"pul-[a-f0-9]{{40}}{_E}"),
    ("atlassian-api-token", r"ATATT3[A-Za-z0-9_\-=]{100,}"),
    ("flyio-token", r"fm[12][ar]?_[A-Za-z0-9+/]{40,}={0,3}"),
    ("1password-token", r"ops_eyJ[A-Za-z0-9+/=]{100,}"),
    ("1password-secret-key", r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}"),
    ("planetscale-token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._\-]{32,64}"),
    ("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("tailscale-key", r"tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{10,}"),
    ("groq-api-key", rf"gsk_[A-Za-z0-9]{{48,}}{_E}"),
    ("perplexity-api-key", rf"pplx-[A-Za-z0-9]{{40,}}{_E}"),
    ("notion-token", rf"ntn_[0-9]{{11}}[A-Za-z0-9]{{32,}}{_E}"),
    ("replicate-token", rf"r8_[A-Za-z0-9]{{37}}{_E}"),
    ("supabase-token", rf"sbp_[a-f0-9]{{40}}{_E}"),
    ("openshift-token", rf"sha256~[A-Za-z0-9_\-]{{43}}{_E}"),
    ("cloudflare-origin-ca-key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("docker-token", r"dckr_pat_[A-Za-z0-9_\-]{27,}"),
    ("figma-token", r"figd_[A-Za-z0-9_\-]{40,}"),
    ("vercel-token", rf"vc[pirk]_[A-Za-z0-9]{{24,}}{_E}"),
    ("sourcegraph-token", rf"sgp_(?:local_|[a-fA-F0-9]{{16}}_)?[a-fA-F0-9]{{40}}{_E}"),
    ("azure-storage-key", r"AccountKey=[A-Za-z0-9+/]{86}=="),
    ("azure-ad-client-secret", rf"[A-Za-z0-9_~.]{{3}}\dQ~[A-Za-z0-9_~.\-]{{31,34}}{_E}"),
)
_PROVIDER_RULES = tuple((name, re.compile(pattern)) for name, pattern in PROVIDER_RULES)
_PROVIDER = re.compile("(?<![A-Za-z0-9])(?:" + "|".join(pattern for _, pattern in PROVIDER_RULES) + ")")
_RULES_WITHOUT_SANITY = frozenset({"private-key"})


def _provider_rule(text: str, start: int, end: int) -> str:
    """The name of the first rule that matches text[start:end], as the combined regex chose it."""
    for name, pattern in _PROVIDER_RULES:
        m = pattern.match(text, start)
        if m is not None and m.end() == end:
            return name
    return "provider-token"  # unreachable: the combined regex is the union of the rules


def _wordy(value: str) -> bool:
    """Mostly words of four letters or more and no digit: `gloas-checking_Length-Is-...`."""
    chunks = _CHUNK.findall(value)
    letters = sum(len(c) for c in chunks if c.isalpha())
    if not letters or any(c.isdigit() for c in value):
        return False
    return sum(len(c) for c in chunks if len(c) >= 4 and c.isalpha()) >= 0.6 * letters


def _plausible_token(text: str, start: int, end: int, rule: str) -> bool:
    """A provider match that is not a placeholder and is not made of words."""
    value = text[start:end]
    if _is_placeholder(value):
        return False
    return rule in _RULES_WITHOUT_SANITY or (_entropy(value) >= 3.0 and not _wordy(value))


# ---------------------------------------------------------------------------------------------
# Context rules: (name, regex with a `v` group holding the secret and, for credentials in URLs and
# `-u user:pass`, a `u` group for the user; the value check). Checks: `any` reports anything but a
# placeholder, a reference or user == password; `password` wants more than a bare word; `random`
# wants a random-looking token (the keyword alone is weak evidence: `tokenizer: bert-base-uncased`).

# A bare `pass` counts only before `=`: `DB_PASS=...`, not test output such as `PASS: TestSuite/...`.
_KEYWORD_PASSWORD = (
    r"passw(?:or)?d|passwd|pwd|passphrase|(?<![a-z])pass(?![a-z])(?![\w.\-]*[\"'\]]{0,2}[ \t]*:(?!=))"
)
_KEYWORD_OTHER = (
    r"secret|token|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key|private[_.-]?key|credentials?"
    r"|(?<![a-z])(?:auth|key)(?![a-z])"
)
_ASSIGN = r"[\"'\]]{0,2}(?:[ \t]+\w+)?[ \t]*(?::::=|::=|:=|=>|\?=|\.=|\+=|=|:)[ \t]*@?[\"'`]?"
_VALUE = r"(?P<v>[^\s\"'`,;)\]}>]{6,200})"
_PASSWORD_HINTS = ("pass", "pwd")
_SECRET_HINTS = ("secret", "token", "key", "cred", "auth")
CONTEXT_RULES: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    # (name, hints: one must occur in the lowercased string for the regex to run, regex, check)
    (
        "url-credentials",
        ("://",),
        r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://(?P<u>[^\s:/?#@\"'<>]*):(?P<v>[^\s/?#\"'<>]+)@[\w\-\[]",
        "any",
    ),
    (
        "cli-credentials",
        ("-u", "--user"),
        r"(?:^|\s)(?:-u|--user)[ \t]*[\"']?(?P<u>[^\s:\"']*):(?P<v>[^\s\"']+)",
        "any",
    ),
    (
        "authorization-header",
        ("authorization",),
        (
            r"(?i)authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:bearer|basic|token|digest|apikey|sso-key)?"
            r"[ \t]*(?P<v>[A-Za-z0-9._~+/\-]{8,}=*)"
        ),
        "random",
    ),
    (
        "authorization-header",
        ("bearer", "basic"),
        r"(?i)\b(?:bearer|basic)[ \t]+(?P<v>[A-Za-z0-9._~+/\-]{16,}=*)",
        "random",
    ),
    (
        "password-assignment",
        _PASSWORD_HINTS,
        rf"(?i)(?P<k>(?:{_KEYWORD_PASSWORD})[\w.\-]*){_ASSIGN}{_VALUE}",
        "password",
    ),
    (
        "secret-assignment",
        _SECRET_HINTS,
        rf"(?i)(?P<k>(?:{_KEYWORD_OTHER})[\w.\-]*){_ASSIGN}{_VALUE}",
        "random",
    ),
    (
        "secret-element",
        _PASSWORD_HINTS + _SECRET_HINTS,
        rf"(?i)<(?P<k>[\w.\-]*(?:{_KEYWORD_PASSWORD}|{_KEYWORD_OTHER})[\w.\-]*)>\s*{_VALUE}\s*</",
        "random",
    ),
    (
        "secret-argument",
        _PASSWORD_HINTS + _SECRET_HINTS,
        (
            rf"(?i)[\"'](?P<k>[\w.\-]*(?:{_KEYWORD_PASSWORD}|{_KEYWORD_OTHER})[\w.\-]*)[\"'][ \t]*,[ \t]*"
            rf"[\"']{_VALUE}[\"']"
        ),
        "random",
    ),
    (
        "password-flag",
        ("--",),
        rf"(?i)(?<![\w-])--[\w-]{{0,64}}(?:{_KEYWORD_PASSWORD})[\w-]{{0,64}}[= ][ \t]*[\"']?{_VALUE}",
        "password",
    ),
    # a flag starts a word and its name is short: a long run of dashes must not cost cubic time
    (
        "secret-flag",
        ("--",),
        rf"(?i)(?<![\w-])--[\w-]{{0,64}}(?:{_KEYWORD_OTHER})[\w-]{{0,64}}[= ][ \t]*[\"']?{_VALUE}",
        "random",
    ),
)
_CONTEXT = tuple((name, hints, re.compile(pattern), check) for name, hints, pattern, check in CONTEXT_RULES)
# A key ending in one of these names something about the secret, not the secret: `key_name: ...`.
_KEY_ABOUT = re.compile(
    r"(?:name|id|ids|type|file|path|url|uri|len|length|size|count|format|version|alias|ref|hint|prefix"
    r"|env|var|field|header|param|dir|mode|policy|ttl|timeout|expiry|expires|expires_at)[\"'\]]*$",
    re.IGNORECASE,
)
_PLACEHOLDER_WORD = re.compile(
    r"(?:my|your|the)?[_-]?(?:pass(?:word|wd)?|pwd|secret|token|user(?:name)?|login|admin|test|foo|bar)",
    re.IGNORECASE,
)


def _password_like(value: str) -> bool:
    """Two character classes or more, and not a `snake_case` or `kebab-case` word."""
    classes = (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )
    return classes >= 2 and not value.isalpha() and not re.fullmatch(r"[a-z]+(?:[_-][a-z]+)+", value)


def _value_ok(value: str, check: str, user: str | None = None) -> bool:
    """Whether a value found next to a keyword (or in a URL, header, flag) is worth reporting."""
    value = value.strip("\"'`")
    if _is_placeholder(value) or _is_reference(value):
        return False
    value = value.strip("<>()[]{}")
    if len(value) < 4 or len(set(value)) == 1 or value == user or _OWN_OR_TIME.fullmatch(value):
        return False
    if check == "any":
        return _PLACEHOLDER_WORD.fullmatch(value) is None
    if value.isdigit():
        return check == "random" and len(value) >= 24  # a long number next to `secret`, not a count
    if _HOSTNAME.fullmatch(value):
        return False
    if check == "password":
        return len(value) >= 6 and _password_like(value)
    return (_looks_random(value) and _near_random_entropy(value, 1.0)) or _unpronounceable(value)


# ---------------------------------------------------------------------------------------------
# detect-secrets' regex plugins: (class, rule name, whether the value must look random, hints).
# The hints are literals that every match of the plugin's denylist contains (read from its source,
# detect-secrets==1.5.0 is pinned; compared lowercased): a string with none of them skips the
# plugin, which keeps the plugins' unanchored regexes off most strings.
# Left out on purpose: KeywordDetector (on the benchmark it found nothing the context rules below do
# not, at 60% of the scan time), the two HighEntropyString plugins (they need quoted strings, and
# the ad-hoc unquoted mode flags every word: the entropy check replaces them), and IPPublicDetector
# (an IP address is an identifier for the host policy, not a credential).

_DS_PLUGINS: tuple[tuple[type[RegexBasedDetector], str, bool, tuple[str, ...]], ...] = (
    (ArtifactoryDetector, "artifactory-token", True, ("akc", "ap")),
    (AWSKeyDetector, "aws-access-key", False, ("a3t", "abia", "acca", "akia", "asia", "aws")),
    (AzureStorageKeyDetector, "azure-storage-key", False, ("accountkey=",)),
    (BasicAuthDetector, "url-credentials", False, ("://",)),
    (CloudantDetector, "cloudant-credentials", True, ("cl",)),
    (DiscordBotTokenDetector, "discord-bot-token", True, (".",)),
    (GitHubTokenDetector, "github-token", False, ("gh",)),
    (GitLabTokenDetector, "gitlab-token", False, ("gl", "gr1348941")),
    (IbmCloudIamDetector, "ibm-cloud-iam-key", True, ("key", "pwd", "pass", "token")),
    (IbmCosHmacDetector, "ibm-cos-hmac", False, ("secret",)),
    (JwtTokenDetector, "jwt", False, ("eyj",)),
    (MailchimpDetector, "mailchimp-api-key", False, ("-us",)),
    (NpmDetector, "npm-token", False, ("_authtoken=",)),
    (OpenAIDetector, "openai-api-key", False, ("t3blbkfj",)),
    (PrivateKeyDetector, "private-key", False, ("begin", "putty")),
    (PypiTokenDetector, "pypi-token", False, ("pypi-",)),
    (SendGridDetector, "sendgrid-api-key", False, ("sg.",)),
    (SlackDetector, "slack-token", False, ("xox", "hooks.slack.com")),
    (SoftlayerDetector, "softlayer-credentials", True, ("softlayer", "sl")),
    (SquareOAuthDetector, "square-oauth-secret", False, ("sq0csp-",)),
    (StripeDetector, "stripe-key", False, ("k_live_",)),
    (TelegramBotTokenDetector, "telegram-bot-token", True, (":",)),
    (TwilioKeyDetector, "twilio-api-key", True, ("ac", "sk")),
)


class VerificationForbidden(RuntimeError):
    """Raised if anything tries to verify a secret with its provider (a network call)."""


def _no_verify(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise VerificationForbidden("secret verification is disabled in agentplay-redact")


def _make_plugins() -> tuple[tuple[RegexBasedDetector, str, bool, tuple[str, ...]], ...]:
    """One instance per plugin class, made here rather than through detect-secrets' settings, with
    `verify` replaced so that nothing can ever send a finding to its provider."""
    made = []
    for cls, rule, needs_random, hints in _DS_PLUGINS:
        plugin = cls()
        plugin.verify = _no_verify  # type: ignore[method-assign]
        made.append((plugin, rule, needs_random, hints))
    return tuple(made)


_PLUGINS = _make_plugins()
# Every detect-secrets regex finding contains a run of 10 alphanumerics, a URL or a key header;
# strings without one skip the plugins (most identifiers, verbs and short paths).
_DS_GATE = re.compile(r"[A-Za-z0-9]{10}|://|PRIVATE KEY|PuTTY")

# ---------------------------------------------------------------------------------------------
# High-entropy tokens.

_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{20,}")
_PATH_WORD = re.compile(r"[A-Za-z][a-z0-9_.\-]{2,}|[a-z]{3,}")


def _opaque_spans(text: str) -> list[tuple[int, int]]:
    """Spans of long opaque tokens. A run with `/` whose segments are mostly words, numbers or hashes
    is a path: its segments are judged one by one, so hashed paths and source paths stay quiet, while
    a base64 blob with slashes is judged whole."""
    spans = []
    for m in _RUN.finditer(text):
        run = m.group()
        parts = [(run, 0)]
        if "/" in run:
            pieces, offset = [], 0
            for piece in run.split("/"):
                pieces.append((piece, offset))
                offset += len(piece) + 1
            named = [p for p, _ in pieces if p]
            words = sum(1 for p in named if p.isdigit() or is_exempt(p) or _PATH_WORD.fullmatch(p))
            if 2 * words >= len(named):
                parts = pieces
        for part, offset in parts:
            token = part.strip("=-_+")
            if _is_opaque(token):
                start = m.start() + offset + part.index(token)
                spans.append((start, start + len(token)))
    return spans


def _entropy_rule(token: str) -> str:
    if _HEX_CHARS.issuperset(token):
        return "high-entropy-hex"
    return "high-entropy-base64"


# ---------------------------------------------------------------------------------------------
# Scanning.

_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_\-+/=.]")
_DELIMITERS = frozenset(" \t\r\n\"'=:`")
_USERINFO = re.compile(r"//([^\s:/?#@\"'<>]*):$")


def _expand(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a too-short finding (detect-secrets' GitHub plugin reports only `ghp`) to its token."""
    while start > 0 and _TOKEN_CHAR.match(text[start - 1]):
        start -= 1
    while end < len(text) and _TOKEN_CHAR.match(text[end]):
        end += 1
    return start, end


def _detect_secrets_findings(text: str, lowered: str) -> list[tuple[int, int, str]]:
    """detect-secrets' plugins over one string: `analyze_string` with positions. Each denylist regex
    runs as the plugin runs it; the finding is the last group that matched (the secret, for plugins
    whose regex also matches a keyword or a URL), else the match, trimmed of the delimiters some
    denylists include, and then checked like a context rule's value. No settings, no verification."""
    found: list[tuple[int, int, str]] = []
    for plugin, rule, needs_random, hints in _PLUGINS:
        if not any(hint in lowered for hint in hints):
            continue
        for regex in plugin.denylist:
            for m in regex.finditer(text):
                span = _plugin_span(text, m)
                if span is None:
                    continue
                start, end = span
                value = text[start:end]
                if isinstance(plugin, JwtTokenDetector) and not plugin.is_formally_valid(value):
                    continue
                user = _USERINFO.search(text, max(0, start - 256), start)  # `//user:` before a password
                if _value_ok(value, "random" if needs_random else "any", user and user.group(1)):
                    found.append((start, end, rule))
    return found


def _plugin_span(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """The secret in a denylist match: its last group that matched, else the match, without the
    delimiters some denylists include; widened to the whole token when too short (the GitHub
    plugin's `ghp`), dropped when glued inside a longer word (`TODAYINASIAASACK...` is no AWS id)."""
    matched = [g for g in range(1, len(m.groups()) + 1) if m.group(g)]
    start, end = m.span(matched[-1]) if matched else m.span()
    while start < end and text[start] in _DELIMITERS:
        start += 1
    while end > start and (text[end - 1] in _DELIMITERS or text[end - 1] == "."):
        end -= 1
    if end - start < 8:
        return _expand(text, start, end)
    if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return None
    return start, end


def _scan(text: str) -> list[tuple[int, int, str]]:
    """All findings in one string as (start, end, rule); of overlapping findings, provider rules
    win over detect-secrets, which wins over context rules, which win over the entropy check."""
    if len(text) < 8 or is_exempt(text):
        return []
    candidates: list[tuple[int, int, int, str]] = []  # (priority, start, end, rule)
    for m in _PROVIDER.finditer(text):
        rule = _provider_rule(text, m.start(), m.end())
        if _plausible_token(text, m.start(), m.end(), rule):
            candidates.append((0, m.start(), m.end(), rule))
    lowered = text.lower()
    if _DS_GATE.search(text):
        candidates.extend((1, s, e, rule) for s, e, rule in _detect_secrets_findings(text, lowered))
    for name, hints, pattern, check in _CONTEXT:
        if not any(hint in lowered for hint in hints):
            continue
        for m in pattern.finditer(text):
            groups = m.groupdict()
            if groups.get("k") and _KEY_ABOUT.search(groups["k"]):
                continue
            if _value_ok(m.group("v"), check, groups.get("u")):
                candidates.append((2, m.start("v"), m.end("v"), name))
    for start, end in _opaque_spans(text):
        candidates.append((3, start, end, _entropy_rule(text[start:end])))
    accepted: list[tuple[int, int, str]] = []  # disjoint, by start
    starts: list[int] = []
    for _, start, end, rule in sorted(candidates):
        i = bisect.bisect_right(starts, start)
        if (i > 0 and accepted[i - 1][1] > start) or (i < len(accepted) and accepted[i][0] < end):
            continue  # overlaps a finding already accepted
        accepted.insert(i, (start, end, rule))
        starts.insert(i, start)
    return accepted


def find_secrets(strings: Sequence[str]) -> list[SecretHit]:
    """Credential-shaped values in `strings`, ordered by index and then by position in the string.

    Each distinct string is scanned once; every index that holds it gets its hits. A string that
    `is_exempt` yields nothing. Nothing is sent anywhere: no plugin verification, no network.
    """
    where: dict[str, list[int]] = {}
    for index, text in enumerate(strings):
        where.setdefault(text, []).append(index)
    hits: list[SecretHit] = []
    for text, indices in where.items():
        found = [(rule, mask(text[start:end])) for start, end, rule in _scan(text)]
        hits.extend(SecretHit(index, rule, masked) for index in indices for rule, masked in found)
    hits.sort(key=lambda hit: hit.index)  # stable: findings keep their order within a string
    return hits
