"""Identifier scrubbing (DESIGN.md section 6).

Whatever the policy: credentials, query strings and fragments leave URLs and remotes; e-mail
addresses never survive; a value with white space, control or invisible characters is never kept in
clear (it is hashed, or dropped without a key). Then the category's action applies:
keep | drop | hash | allowlist (keep listed values, hash the rest) | generalize (hosts: public kept,
private hashed). A value any of these would keep in clear is first asked of the leak scanner's own
detectors (redact/contract/detectors.py: secrets, prose, home folders); one they would flag is hashed
or dropped instead, and counted as a fallback.
"""
from __future__ import annotations

import ipaddress
import re
from collections import Counter
from urllib.parse import urlsplit, urlunsplit

from redact.contract.detectors import rule_of, secret_rules
from redact.contract.emails import has_email
from redact.contract.identshape import CATEGORIES as SENTENCE_CATEGORIES, sentence_rule
from redact.keys.material import Key
from redact.model.grammar import is_clean_identifier
from redact.policy.load import EffectivePolicy
from redact.policy.plain import Allowlist
from redact.keys.recorder import TokenRecorder
from redact.report import IdentReport

_SCP_REMOTE = re.compile(r"^(?:[^@/\s]+@)?([A-Za-z0-9.-]+):(?!//)(.+)$")
_PRIVATE_SUFFIXES = (".local", ".internal", ".corp", ".lan", ".home", ".intranet", ".localdomain",
                     ".localhost", ".test", ".invalid", ".example", ".private", ".home.arpa")
_PUBLIC_FORGES = {"github.com", "gitlab.com", "bitbucket.org"}
# Suffixes whose next label is a user's or a user project's own: personal pages, app hosting,
# dynamic DNS and tunnels (the user's label is hashed under `generalize`; the suffix alone is public).
_PER_USER_ROOTS = frozenset("""
github.io gitlab.io bitbucket.io codeberg.page pages.dev workers.dev netlify.app vercel.app herokuapp.com
onrender.com fly.dev railway.app web.app firebaseapp.com glitch.me repl.co replit.dev replit.app surge.sh
neocities.org blogspot.com wordpress.com substack.com tumblr.com azurewebsites.net ngrok.io ngrok.app
ngrok.dev ngrok-free.app ngrok-free.dev trycloudflare.com loca.lt localtunnel.me serveo.net localhost.run
lhr.life duckdns.org ddns.net no-ip.org no-ip.biz noip.me hopto.org zapto.org sytes.net myddns.me dynu.net
dyndns.org dynv6.net freedns.afraid.org afraid.org ts.net tailscale.net zrok.io devtunnels.ms
""".split())  # noqa: SIM905 - a word list reads better as text
_PER_USER_SUFFIXES = tuple("." + root for root in sorted(_PER_USER_ROOTS))
# Categories whose values name a forge's server (`host/owner/repo`, a PR URL, `host/repo#12`).
_FORGE_CATEGORIES = frozenset({"remote", "pr", "ticket"})
# Categories whose values are lower-cased when normalised (hosts, a remote's host).
_FOLDED = frozenset({"host", "remote"})
# A value that is (or holds) a local file-system path: never an identifier to show in clear, since
# it can carry a user name (`/Users/alice/repos/api.git` as a remote, `file://` URLs, `~/x`).
_LOCAL_PATH = re.compile(r"^(?:/|~|[A-Za-z]:[\\/]|file:)|(?:^|/)(?:Users|home|root)/", re.IGNORECASE)


def strip_url(value: str) -> str:
    """Remove credentials, query and fragment from a URL; other strings are returned unchanged."""
    if "://" not in value:
        return value
    try:
        parts = urlsplit(value)
    except ValueError:
        return ""
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if _safe_port(parts) else "")
    return urlunsplit((parts.scheme.lower(), netloc, parts.path, "", ""))


def _safe_port(parts: object) -> int | None:
    try:
        return parts.port  # type: ignore[attr-defined, no-any-return]
    except ValueError:
        return None


_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]*@")


def _without_credentials(value: str) -> str:
    """`value` without a URL's user information, query and fragment: they never leave (whatever the
    policy), so a token there is no reason to hash the rest of a remote."""
    return _USERINFO.sub(r"\1", value).split("?", 1)[0].split("#", 1)[0]


def normalize_remote(value: str) -> str:
    """`https://user:tok@github.com/acme/api.git?x` and `git@github.com:acme/api.git` -> `acme/api`.

    Other hosts keep their host: `git.corp.example/team/api`.
    """
    value = value.strip()
    if "://" in value:
        try:
            parts = urlsplit(value)
        except ValueError:
            return ""
        host, path = (parts.hostname or "").lower(), parts.path
    else:
        m = _SCP_REMOTE.match(value)
        if m:
            host, path = m.group(1).lower(), m.group(2)
        else:
            host, path = "", value
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[:-4]
    if not host or host in _PUBLIC_FORGES:
        return path
    return f"{host}/{path}" if path else host


def normalize_host(value: str) -> str:
    value = value.strip()
    if "://" in value:
        try:
            return (urlsplit(value).hostname or "").lower()
        except ValueError:
            return ""
    host = value.rsplit("@", 1)[-1]
    if host.startswith("["):
        return host.split("]", 1)[0].lstrip("[").lower()
    return host.split(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


def forge_host(value: str) -> str | None:
    """The host a normalised remote, PR URL or ticket id names (`https://ghe.acme.com/o/r/pull/1`,
    `ghe.acme.com/o/r`, `git.corp/team/api#4`), or None for a bare `owner/repo`."""
    if "://" in value:
        try:
            return (urlsplit(value).hostname or "").lower() or None
        except ValueError:
            return None
    first, sep, _ = value.partition("/")
    if not sep:
        return None
    first = first.lower()
    if "." in first or first == "localhost" or first.startswith("["):
        return first.strip("[]")
    return None


def is_private_host(host: str) -> bool:
    """Whether `generalize` hashes `host`: a name only a network of one's own resolves, any IP
    literal (a home or office address names a person as well as a private one does), and a host
    under a suffix whose labels are given to users (`alice.github.io`, a dynamic-DNS name, an
    ngrok or Cloudflare tunnel): its own label names the person or their project."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    else:
        return True
    if host == "search":
        return False
    if host.endswith(_PER_USER_SUFFIXES) and host.lstrip(".") not in _PER_USER_ROOTS:
        return True
    return "." not in host or host == "localhost" or host.endswith(_PRIVATE_SUFFIXES)


class _Matcher:
    def __init__(self, allow: Allowlist | None) -> None:
        self.values = frozenset(allow.values) if allow else frozenset()
        pats = allow.patterns if allow else ()
        self.regex = re.compile("|".join(f"(?:{p})" for p in pats)) if pats else None

    def __call__(self, value: str) -> bool:
        return value in self.values or (self.regex is not None and self.regex.fullmatch(value) is not None)


class IdentScrubber:
    """Applies a policy's identifier actions. One instance per output map (it keeps a report)."""

    def __init__(self, policy: EffectivePolicy, key: Key | None,
                 recorder: TokenRecorder | None = None, *, fallbacks: Counter[str] | None = None) -> None:
        self.actions = policy.policy.identifiers
        self.key = key
        self.recorder = recorder  # the reveal vault's: token -> original, for each token made
        self.report = IdentReport()
        # "identifier:<category>/<rule>" -> values a keep rule would have shown that the scanner would
        # flag, hashed (with a key) or dropped instead
        self.fallbacks: Counter[str] = Counter() if fallbacks is None else fallbacks
        self._allow = {cat: _Matcher(a) for cat, a in policy.allowlists.items()}
        self._cache: dict[tuple[str, str], str | None] = {}

    def _hash(self, category: str, value: str) -> str | None:
        if self.key is None:
            self.report.no_key_drops += 1
            self.report.dropped[category] += 1
            return None
        self.report.hashed[category] += 1
        token = self.key.ident_token(category, value)
        if self.recorder is not None:
            self.recorder.record(f"ident:{category}", token, value)
        return token

    def _keep(self, category: str, value: str) -> str | None:
        """Keep `value` in clear unless a scanner detector would flag it: then it is hashed (with a
        key) or dropped, and counted as a fallback (redact/contract/detectors.py)."""
        rule = "secrets" if secret_rules([value])[0] else (
            rule_of(value, command=False) or (sentence_rule(value) if category in SENTENCE_CATEGORIES else None))
        if rule is not None:
            self.fallbacks[f"identifier:{category}/{rule}"] += 1
            return self._hash(category, value)
        self.report.kept[category].add(value)
        return value

    def _normalise(self, category: str, value: str) -> str:
        if category == "remote":
            return normalize_remote(value)
        if category == "host":
            return normalize_host(value)
        return strip_url(value.strip())

    def scrub(self, category: str, value: object) -> object | None:
        """The value to write for `value` of `category`, or None to drop the field."""
        if isinstance(value, bool):
            self.report.dropped[category] += 1
            return None
        if isinstance(value, int):  # PR numbers: kept or dropped, never hashed into a string
            action = getattr(self.actions, category)
            if action == "keep":
                return value
            self.report.dropped[category] += 1
            return None
        if not isinstance(value, str):
            self.report.dropped[category] += 1
            return None
        key = (category, value)
        if key in self._cache:
            out = self._cache[key]
            self._recount(category, out)
            return out
        out = self._decide(category, value)
        self._cache[key] = out
        return out

    def _recount(self, category: str, out: str | None) -> None:
        if out is None:
            self.report.dropped[category] += 1
        elif out.startswith("h:") and len(out) == 14:
            self.report.hashed[category] += 1

    def _forge_host_rule(self, category: str, clean: str) -> str | None:
        """The host rule for the server a remote, PR or ticket names: None when it is a public
        forge or the host is kept, else "hash" or "drop". A self-hosted forge (GitHub Enterprise,
        a GitLab of one's own) serves an organisation's private code, so under `generalize` it is
        private unless it is on the public host allowlist; its owner and repository go with it."""
        if category not in _FORGE_CATEGORIES:
            return None
        host = forge_host(clean)
        if host is None or host in _PUBLIC_FORGES:
            return None
        action = self.actions.host
        if action == "keep":
            return None
        if action == "drop":
            return "drop"
        allowed = self._allow.get("host")
        if action in ("allowlist", "generalize") and allowed is not None and allowed(host):
            return None
        return "hash"

    def _decide(self, category: str, value: str) -> str | None:
        action = getattr(self.actions, category)
        if action == "drop":
            self.report.dropped[category] += 1
            return None
        if _LOCAL_PATH.search(value.strip()):
            return self._hash(category, value.strip())
        if category in _FOLDED and secret_rules([_without_credentials(value.strip())])[0]:
            # asked before the value is lower-cased: a token's case is part of its shape (`AKIA...`)
            self.fallbacks[f"identifier:{category}/secrets"] += 1
            return self._hash(category, value.strip())
        clean = self._normalise(category, value)
        if not clean:
            self.report.dropped[category] += 1
            return None
        if has_email(clean) or not is_clean_identifier(clean):
            return self._hash(category, clean)
        host_rule = self._forge_host_rule(category, clean)
        if host_rule == "drop":
            self.report.dropped[category] += 1
            return None
        if host_rule == "hash":
            return self._hash(category, clean)
        if action == "keep":
            return self._keep(category, clean)
        if action == "hash":
            return self._hash(category, clean)
        allowed = self._allow.get(category)
        if allowed is not None and allowed(clean):
            return self._keep(category, clean)
        if action == "generalize" and not is_private_host(clean):
            return self._keep(category, clean)
        return self._hash(category, clean)
