"""Secrets layer (DESIGN.md section 8, layer 2), shared by the leak scanner and the redactor.

`find_secrets` looks for credentials in the distinct strings of an output: short identifiers, URLs,
hosts, paths and verbs in a well-formed map, and anything at all in a map made by another producer.
Four detector families run over every string, one module each:

* `providers`: a name and a regex for a token format with a recognisable shape (`ghp_`, `AKIA`,
  `sk-ant-`, PEM headers, JWTs, ...), as data in providers.toml; the whole match is the secret;
* `plugins`: detect-secrets' regex plugins, instantiated there (the only module that imports
  detect_secrets), their denylists run as `analyze_string` runs them, as an independent second
  opinion; no settings, no `scan_line`, and `verify` replaced by a function that raises;
* `context`: a credential named by what surrounds it (`password=...`, `Authorization: Bearer ...`,
  `scheme://user:pass@host`, `curl -u user:pass`), as data in context.toml, reported when the value
  is not a placeholder, a variable reference or an ordinary word;
* `entropy`: long opaque tokens, calibrated so identifiers, model names, paths and this tool's own
  hash tokens stay quiet.

`scan` merges overlapping findings in that order of precedence; `values` holds what they share.
Findings carry a masked value (`mask`), never the secret. docs/scanner.md has the figures.
"""

from __future__ import annotations

from redact.contract.secrets.context import CONTEXT_RULES
from redact.contract.secrets.plugins import VerificationForbidden
from redact.contract.secrets.providers import PROVIDER_RULES
from redact.contract.secrets.scan import find_secrets, secret_spans
from redact.contract.secrets.values import SecretHit, is_exempt, mask

__all__ = [
    "CONTEXT_RULES",
    "PROVIDER_RULES",
    "SecretHit",
    "VerificationForbidden",
    "find_secrets",
    "is_exempt",
    "mask",
    "secret_spans",
]
