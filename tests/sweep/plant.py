"""Secrets of every class a sweep reports, made at random in their providers' shapes (never real
ones), and planting them into copies of session files."""
from __future__ import annotations

import base64
import json
import random
import re
import string
from pathlib import Path

ALNUM = string.ascii_letters + string.digits


def _r(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def make_secrets(seed: int) -> dict[str, str]:
    """class -> a fresh random value of that class's shape."""
    rng = random.Random(seed)
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = _b64url(json.dumps({"sub": _r(rng, 12), "iat": rng.randrange(10**9, 2 * 10**9)}).encode())
    body = "\n".join(_r(rng, 64, ALNUM + "+/") for _ in range(6))
    return {
        "aws-access-key": "AKIA" + _r(rng, 16, string.ascii_uppercase + "234567"),  # base32, as AWS makes them
        "github-token": "ghp_" + _r(rng, 36),
        "slack-token": f"xoxb-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**11, 10**12)}-{_r(rng, 24)}",
        "stripe-key": "sk_live_" + _r(rng, 24),
        "openai-api-key": "sk-proj-" + _r(rng, 74, ALNUM + "_-") + "T3BlbkFJ" + _r(rng, 74, ALNUM + "_-"),
        "anthropic-api-key": "sk-ant-api03-" + _r(rng, 93, ALNUM + "_-") + "AA",
        "google-api-key": "AIza" + _r(rng, 35),
        "jwt": f"{header}.{payload}.{_r(rng, 43, ALNUM + '_-')}",
        "private-key": f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----",
        "database-url": f"postgres://app:{_r(rng, 20)}@db.internal:5432/app",
    }


def secret_value(cls: str, value: str) -> str:
    """The part of a planted value the sweep replaces (a database URL: its password)."""
    if cls == "database-url":
        return value.split("://app:", 1)[1].split("@", 1)[0]
    return value


_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"(\s*:)?')
_OPAQUE = re.compile(r"[A-Za-z0-9+/=_\-]{24,}")
_DISPATCH = re.compile(r"(?:^|_)(?:type|kind|role|event|status|version)$|(?:id|Id|ID|Type|Kind)$")


def plant_file(src: Path, dst: Path, secrets: dict[str, str]) -> dict[str, int]:
    """Copy `src` to `dst` with each secret planted into its own string value (JSON: the longest
    prose strings) or on its own line (any other text): class -> the line it sits on (1-based)."""
    text = src.read_bytes().decode("utf-8", "surrogateescape")
    placed: dict[str, int] = {}
    pending = list(secrets.items())
    if text.lstrip()[:1] in ("{", "["):
        spots = []
        key = ""
        for m in _LITERAL.finditer(text):
            try:
                value = json.loads(m.group().rstrip(": \t"))
            except ValueError:
                continue
            if m.group(1) is not None:
                key = value if isinstance(value, str) else ""
                continue
            if _DISPATCH.search(key):  # a record's type, role or id: what a reader dispatches on
                continue
            if isinstance(value, str) and 10 <= len(value) <= 2000 and not _OPAQUE.fullmatch(value):
                spots.append((m, value))
        if not spots:
            raise ValueError("no string to plant into")
        # the longest prose strings (a message, a tool's output), as secrets sit in them: never a
        # record's type or an id, which a reader dispatches on
        chosen = sorted(range(len(spots)), key=lambda i: (" " in spots[i][1], len(spots[i][1])), reverse=True)
        spots = [spots[i] for i in sorted(chosen[: len(pending)])]
        given: dict[int, list[tuple[str, str]]] = {}
        for i, (cls, secret) in enumerate(pending):  # round robin when there are fewer strings
            given.setdefault(i % len(spots), []).append((cls, secret))
        out, at = [], 0
        for i, (m, value) in enumerate(spots):
            extra = "".join(f" here it is: {secret} ok" for _, secret in given[i])
            out.append(text[at:m.start()])
            out.append(json.dumps(value + extra, ensure_ascii=False))
            at = m.end()
            for cls, _ in given[i]:
                placed[cls] = text.count("\n", 0, m.start()) + 1
        out.append(text[at:])
        text = "".join(out)
    else:
        for cls, secret in pending:
            if not text.endswith("\n"):
                text += "\n"
            placed[cls] = text.count("\n") + 1
            text += f"here it is: {secret} ok\n"
    dst.write_bytes(text.encode("utf-8", "surrogateescape"))
    return placed
