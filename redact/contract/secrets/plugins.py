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

from redact.contract.secrets.rules import admitted, by_hint
from redact.contract.secrets.values import value_ok

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

_DS_PLUGINS: tuple[tuple[type[RegexBasedDetector], str, str, tuple[str, ...], str | None], ...] = (
    (
        ArtifactoryDetector, "artifactory-token", "random", ("akc", "ap"),
        r"AKC[a-zA-Z0-9]{10}|AP[\dABCDEF][a-zA-Z0-9]{8}",
    ),
    (AWSKeyDetector, "aws-access-key", "any", ("a3t", "abia", "acca", "akia", "asia", "aws"), None),
    (AzureStorageKeyDetector, "azure-storage-key", "any", ("accountkey=",), None),
    (BasicAuthDetector, "url-credentials", "any", ("://",), None),
    (CloudantDetector, "cloudant-credentials", "random", ("cl",), r"[0-9a-fA-F]{64}|[A-Za-z]{24}"),
    (DiscordBotTokenDetector, "discord-bot-token", "random", (".",), r"[MNO][a-zA-Z\d_-]{23}"),
    (GitHubTokenDetector, "github-token", "any", ("gh",), None),
    (GitLabTokenDetector, "gitlab-token", "any", ("gl", "gr1348941"), None),
    (
        IbmCloudIamDetector, "ibm-cloud-iam-key", "password", ("key", "pwd", "pass", "token"),
        r"[A-Za-z0-9_\-]{44}",
    ),
    (IbmCosHmacDetector, "ibm-cos-hmac", "any", ("secret",), r"[A-Fa-f0-9]{48}"),
    (JwtTokenDetector, "jwt", "any", ("eyj",), None),
    (MailchimpDetector, "mailchimp-api-key", "any", ("-us",), None),
    (NpmDetector, "npm-token", "any", ("_authtoken=",), None),
    (OpenAIDetector, "openai-api-key", "any", ("t3blbkfj",), None),
    (PrivateKeyDetector, "private-key", "any", ("begin", "putty"), None),
    (PypiTokenDetector, "pypi-token", "any", ("pypi-",), None),
    (SendGridDetector, "sendgrid-api-key", "any", ("sg.",), None),
    (SlackDetector, "slack-token", "any", ("xox", "hooks.slack.com"), None),
    (SoftlayerDetector, "softlayer-credentials", "random", ("softlayer", "sl"), r"[A-Za-z0-9]{64}"),
    (SquareOAuthDetector, "square-oauth-secret", "any", ("sq0csp-",), None),
    (StripeDetector, "stripe-key", "any", ("k_live_",), None),
    (TelegramBotTokenDetector, "telegram-bot-token", "random", (":",), r"\d{8}:"),
    (TwilioKeyDetector, "twilio-api-key", "random", ("ac", "sk"), r"(?:AC|SK)[a-z0-9]{32}"),
)


class VerificationForbidden(RuntimeError):
    """Raised if anything tries to verify a secret with its provider (a network call)."""


def _no_verify(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise VerificationForbidden("secret verification is disabled in agentplay-redact")


_Plugin = tuple[RegexBasedDetector, str, str, frozenset[str], re.Pattern[str] | None]


def _make_plugins() -> tuple[_Plugin, ...]:
    """One instance per plugin class, made here rather than through detect-secrets' settings, with
    `verify` replaced so that nothing can ever send a finding to its provider."""
    made = []
    for cls, rule, check, hints, gate in _DS_PLUGINS:
        plugin = cls()
        plugin.verify = _no_verify  # type: ignore[method-assign]
        made.append((plugin, rule, check, frozenset(hints), None if gate is None else re.compile(gate)))
    return tuple(made)


_PLUGINS = _make_plugins()
HINTS = frozenset(hint for _, _, _, hints, _ in _PLUGINS for hint in hints)
#: per plugin: its rule name, hints, gate and its denylist's patterns (anchors.py reads them)
ANCHOR_SOURCES: tuple[tuple[str, frozenset[str], str | None, tuple[str, ...]], ...] = tuple(
    (rule, frozenset(hints), gate, tuple(regex.pattern for regex in plugin.denylist))
    for (_, rule, _, hints, gate), (plugin, *_) in zip(_DS_PLUGINS, _PLUGINS, strict=True)
)
_BY_HINT = by_hint(hints for _, _, _, hints, _ in _PLUGINS)
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
        plugin, rule, check, _, gate = _PLUGINS[i]
        if gate is not None and gate.search(text) is None:
            continue
        for regex in plugin.denylist:
            for m in regex.finditer(text):
                span = _plugin_span(text, m)
                if span is None:
                    continue
                start, end = span
                if skip(start, end):
                    continue
                value = text[start:end]
                if isinstance(plugin, JwtTokenDetector) and not plugin.is_formally_valid(value):
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
