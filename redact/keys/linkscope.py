"""How far keyed tokens link: the policy's `tokens.link_scope` applied to the key of one redaction.

    key = scoped_key(key, policy, data, report)    # before anything is hashed

`global` is the key itself; `dataset:NAME` and `session` are keys derived from it in redact/keys/material.py
(the only module holding key material). The scope is recorded in the report (`linkScope`), never the
key. docs/threat-model.md says what every scope still lets a reader link.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import BinaryIO

from redact.keys.material import Key
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scoped_key(key: Key | None, policy: EffectivePolicy, data: bytes | BinaryIO | Path,
               report: RedactionReport) -> Key | None:
    """The key whose tokens link only as far as the policy's `tokens.link_scope` says, recorded in the
    report. `session` is keyed by SHA-256 of the input's bytes (gunzipped): deterministic (the same
    input gives the same map) and unique to the input, with nothing the input's producer chooses
    (two logs claiming one session id still get unrelated tokens)."""
    if key is None:
        report.link_scope = None
        return None
    scope = policy.policy.tokens.link_scope
    digest = None
    if scope == "session":
        digest = _input_digest(data)
    out = key.scoped(scope, digest)
    report.link_scope = out.link_scope
    if scope == "global" and policy.policy.publish:
        report.warn("link scope global under a publish policy: this map's tokens equal those of every "
                    "other map made with this key (a known file tree in one decodes the others)")
    return out


def _input_digest(data: bytes | BinaryIO | Path) -> bytes:
    if isinstance(data, bytes):
        return hashlib.sha256(data).digest()
    path = data if isinstance(data, Path) else Path(data.name)
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.digest()
