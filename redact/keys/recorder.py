"""Token recording: where a keyed token is made, optionally note which original it stands for.

The redactor makes keyed tokens in three places: path segments under `hashed` mode (redact/apply/paths.py),
identifiers hashed by policy (redact/apply/identifiers.py), and opaque ids and unknown program names that
become keyed tokens (redact/apply/walk.py). Each of them takes an optional `TokenRecorder`; with None (the
default) nothing is recorded and nothing is paid. The only consumer is the local reveal vault
(redact/keys/vault.py), which encrypts what a `TokenLog` collected; nothing here is ever written in clear.

Kinds of token:

    "segment"          a 10-hex path segment token          -> the segment
    "fallback"         a `•xxxxxx[.ext]` token a shown path name became (redact/apply/pathguard.py) -> it
    "ident:<category>" an `h:` identifier token             -> the (normalised) value it hashes
    "id"               an `h:` opaque-id token              -> the id
    "program"          the 10 hex of a `<script:...>` verb  -> the program's name
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class TokenRecorder(Protocol):
    def record(self, kind: str, token: str, original: str) -> None:
        """Note that `token` (of `kind`) was made from `original`."""


@dataclass
class TokenLog:
    """An in-memory TokenRecorder: kind -> token -> original. Holds originals: never print it."""

    entries: dict[str, dict[str, str]] = field(default_factory=dict)

    def record(self, kind: str, token: str, original: str) -> None:
        self.entries.setdefault(kind, {})[token] = original

    def __len__(self) -> int:
        return sum(len(v) for v in self.entries.values())

    def __repr__(self) -> str:  # counts only: the originals are what the map hides
        return f"TokenLog({len(self)} tokens)"


def recording_hasher(hasher: Callable[[str], str], recorder: TokenRecorder) -> Callable[[str], str]:
    """`hasher` (a program name -> the 10 hex of `<script:...>`) that also tells `recorder`."""
    def record(name: str) -> str:
        digest = hasher(name)
        recorder.record("program", digest, name)
        return digest
    return record
