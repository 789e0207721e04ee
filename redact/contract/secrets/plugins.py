"""detect-secrets' regex plugins, as an independent second opinion on the other detectors.

Safety. This is the only module that imports detect_secrets (tests/test_boundaries.py). It never
touches its global settings, never calls its ad-hoc `scan_line` (which flags nearly every word), and
never calls a plugin's `analyze_line` or `verify` (which can send the secret to its provider): the
plugin instances made here have `verify` replaced by a function that raises, so even a future code
path that tried would fail closed, offline. The denylists run as `analyze_string` runs them, with
positions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from redact.contract.secrets.providers import empty_pem
from redact.contract.secrets.rules import admitted, by_hint
from redact.contract.secrets.values import value_ok
from redact.io.cache import cached

if TYPE_CHECKING:
    from detect_secrets.plugins.base import RegexBasedDetector

__all__ = ["VerificationForbidden", "detect_secrets_findings"]

# detect-secrets' regex plugins: (class, rule name, the value check, hints, gate). The check is a context
# rule's (values.value_ok): `any` for a plugin whose regex pins the format, `password` for one that
# pins a credential-specific key name and the value's length (IBM Cloud IAM: a 44-character value
# after an `ibm`/`cloud`/`iam` key), `random` for one whose regex alone is weak evidence.
# The hints are literals that every match of the plugin's denylist contains (read from its source,
# detect-secrets==1.5.0 is pinned; compared lowercased): a string with none of them skips the
# plugin, which keeps the plugins' unanchored regexes off most strings. The gate, for the plugins
# whose hints are short or common (`ap`, `cl`, `key`, `:`), is a simple regex that every match of
# the denylist contains (its value's characters and length, read from the same source); a string
# without it skips the plugin.
# Left out on purpose: KeywordDetector (on the benchmark it found nothing the context rules do
# not, at 60% of the scan time), the two HighEntropyString plugins (they need quoted strings, and
# the ad-hoc unquoted mode flags every word: the entropy check replaces them), and IPPublicDetector
# (an IP address is an identifier for the host policy, not a credential).

_DS_PLUGINS: tuple[tuple[str, str, str, tuple[str, ...], str | None], ...] = (
    (
        "artifactory.ArtifactoryDetector", "artifactory-token", "random", ("akc", "ap"),
        r"AKC[a-zA-Z0-9]{10}|AP[\dABCDEF][a-zA-Z0-9]{8}",
    ),
    ("aws.AWSKeyDetector", "aws-access-key", "any", ("a3t", "abia", "acca", "akia", "asia", "aws"), None),
    ("azure_storage_key.AzureStorageKeyDetector", "azure-storage-key", "any", ("accountkey=",), None),
    ("basic_auth.BasicAuthDetector", "url-credentials", "any", ("://",), None),
    ("cloudant.CloudantDetector", "cloudant-credentials", "random", ("cl",), r"[0-9a-fA-F]{64}|[A-Za-z]{24}"),
    ("discord.DiscordBotTokenDetector", "discord-bot-token", "random", (".",), r"[MNO][a-zA-Z\d_-]{23}"),
    ("github_token.GitHubTokenDetector", "github-token", "any", ("gh",), None),
    ("gitlab_token.GitLabTokenDetector", "gitlab-token", "any", ("gl", "gr1348941"), None),
    (
        "ibm_cloud_iam.IbmCloudIamDetector", "ibm-cloud-iam-key", "password", ("key", "pwd", "pass", "token"),
        r"[A-Za-z0-9_\-]{44}",
    ),
    ("ibm_cos_hmac.IbmCosHmacDetector", "ibm-cos-hmac", "any", ("secret",), r"[A-Fa-f0-9]{48}"),
    ("jwt.JwtTokenDetector", "jwt", "any", ("eyj",), None),
    ("mailchimp.MailchimpDetector", "mailchimp-api-key", "any", ("-us",), None),
    ("npm.NpmDetector", "npm-token", "any", ("_authtoken=",), None),
    ("openai.OpenAIDetector", "openai-api-key", "any", ("t3blbkfj",), None),
    ("private_key.PrivateKeyDetector", "private-key", "any", ("begin", "putty"), None),
    ("pypi_token.PypiTokenDetector", "pypi-token", "any", ("pypi-",), None),
    ("sendgrid.SendGridDetector", "sendgrid-api-key", "any", ("sg.",), None),
    ("slack.SlackDetector", "slack-token", "any", ("xox", "hooks.slack.com"), None),
    ("softlayer.SoftlayerDetector", "softlayer-credentials", "random", ("softlayer", "sl"), r"[A-Za-z0-9]{64}"),
    ("square_oauth.SquareOAuthDetector", "square-oauth-secret", "any", ("sq0csp-",), None),
    ("stripe.StripeDetector", "stripe-key", "any", ("k_live_",), None),
    ("telegram_token.TelegramBotTokenDetector", "telegram-bot-token", "random", (":",), r"\d{8}:"),
    ("twilio.TwilioKeyDetector", "twilio-api-key", "random", ("ac", "sk"), r"(?:AC|SK)[a-z0-9]{32}"),
)


class VerificationForbidden(RuntimeError):
    """Raised if anything tries to verify a secret with its provider (a network call)."""


def _no_verify(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise VerificationForbidden("secret verification is disabled in agentplay-redact")


_Plugin = tuple["RegexBasedDetector", str, str, frozenset[str], re.Pattern[str] | None]


def _plugin_class(name: str) -> type[RegexBasedDetector]:
    """detect-secrets' plugin class `module.Class` (importing detect-secrets: see `_denylists`)."""
    import importlib

    module, cls = name.split(".")
    found: type[RegexBasedDetector] = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), cls)
    return found


def _make_plugins() -> tuple[_Plugin, ...]:
    """One instance per plugin class, made here rather than through detect-secrets' settings, with
    `verify` replaced so that nothing can ever send a finding to its provider."""
    made = []
    for name, rule, check, hints, gate in _DS_PLUGINS:
        plugin = _plugin_class(name)()
        plugin.verify = _no_verify  # type: ignore[method-assign]
        made.append((plugin, rule, check, frozenset(hints), None if gate is None else re.compile(gate)))
    return tuple(made)


def __getattr__(name: str) -> Any:
    if name == "_PLUGINS":  # the instances themselves (the tests read them); a scan needs only their regexes
        plugins = _make_plugins()
        globals()["_PLUGINS"] = plugins
        return plugins
    raise AttributeError(name)


# A scan runs each plugin's denylist regexes, nothing else of the plugin (no instance is kept, so no
# `verify` exists to call). Importing detect-secrets imports `requests` and all its plugins (about
# a fifth of a second), so the regexes' sources are read from the plugin instances once and kept in
# the disk cache of shipped tables (redact/io/cache.py, keyed by detect-secrets' plugin sources):
# a process that finds them there compiles a plugin's regexes when a string first needs them and
# never imports detect-secrets (except for a JWT candidate: its formal check is the plugin's).


def _read_denylists() -> list[list[list[Any]]]:
    return [[[regex.pattern, regex.flags] for regex in plugin.denylist] for plugin, *_ in _make_plugins()]


def _decode_denylists(data: Any) -> tuple[tuple[tuple[str, int], ...], ...]:
    if not isinstance(data, list) or len(data) != len(_DS_PLUGINS):
        raise ValueError("not the plugins' regexes")
    out = []
    for regexes in data:
        if not isinstance(regexes, list) or not regexes:
            raise ValueError("a plugin without regexes")
        out.append(tuple((str(pattern), int(flags)) for pattern, flags in regexes
                         if isinstance(pattern, str) and isinstance(flags, int)))
        if len(out[-1]) != len(regexes):
            raise ValueError("not a regex")
    return tuple(out)


def _sources() -> list[Path]:
    import importlib.util

    spec = importlib.util.find_spec("detect_secrets")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        raise OSError("detect-secrets is not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    modules = sorted({name.split(".")[0] for name, *_ in _DS_PLUGINS})
    return [Path(__file__), root / "__version__.py", root / "plugins" / "base.py",
            *(root / "plugins" / f"{m}.py" for m in modules)]


@cache
def _denylists() -> tuple[tuple[tuple[str, int], ...], ...]:
    return cached("detect-secrets-regexes", _sources(), _read_denylists, _decode_denylists)


@cache
def _denylist(i: int) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern, flags) for pattern, flags in _denylists()[i])


@cache
def _jwt_valid() -> Callable[[str], bool]:
    valid: Callable[[str], bool] = _plugin_class("jwt.JwtTokenDetector").is_formally_valid  # type: ignore[attr-defined]
    return valid


# (rule, value check, hints, gate, whether it is the JWT plugin) in `_DS_PLUGINS` order
_RULES = tuple((rule, check, frozenset(hints), None if gate is None else re.compile(gate),
                name == "jwt.JwtTokenDetector") for name, rule, check, hints, gate in _DS_PLUGINS)
HINTS = frozenset(hint for _, _, hints, _, _ in _RULES for hint in hints)
_BY_HINT = by_hint(hints for _, _, hints, _, _ in _RULES)


def anchor_sources() -> tuple[tuple[str, frozenset[str], str | None, tuple[str, ...]], ...]:
    """Per plugin: its rule name, hints, gate and its denylist's patterns (anchors.py reads them)."""
    return tuple((rule, frozenset(hints), gate, tuple(pattern for pattern, _ in _denylists()[i]))
                 for i, (_, rule, _, hints, gate) in enumerate(_DS_PLUGINS))
# Every detect-secrets regex finding contains a run of 10 alphanumerics, a URL or a key header;
# strings without one skip the plugins (most identifiers, verbs and short paths).
_DS_GATE = re.compile(r"[A-Za-z0-9]{10}|://|PRIVATE KEY|PuTTY")

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


def _never(_start: int, _end: int) -> bool:
    return False


def detect_secrets_findings(
    text: str, present: frozenset[str], skip: Callable[[int, int], bool] = _never
) -> list[tuple[int, int, str]]:
    """detect-secrets' plugins over one string (`present`: the `HINTS` it contains, lowercased,
    see rules.HintIndex; a plugin none of whose hints is present is skipped): `analyze_string` with
    positions. Each denylist regex runs as the plugin runs it; the finding is the last group that
    matched (the secret, for plugins whose regex also matches a keyword or a URL), else the match,
    trimmed of the delimiters some denylists include, and then checked like a context rule's value
    (unless `skip(start, end)`: a span the caller would drop). No settings, no verification."""
    found: list[tuple[int, int, str]] = []
    candidates = admitted(_BY_HINT, present)
    if not candidates or not _DS_GATE.search(text):
        return found
    for i in candidates:
        rule, check, _, gate, jwt = _RULES[i]
        if gate is not None and gate.search(text) is None:
            continue
        for regex in _denylist(i):
            for m in regex.finditer(text):
                span = _plugin_span(text, m)
                if span is None:
                    continue
                start, end = span
                if skip(start, end):
                    continue
                value = text[start:end]
                if jwt and not _jwt_valid()(value):
                    continue
                if rule == "private-key" and empty_pem(text, end):
                    continue
                user = _USERINFO.search(text, max(0, start - 256), start)  # `//user:` before a password
                if value_ok(value, check, user and user.group(1)):
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
