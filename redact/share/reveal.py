"""Reveal: a redacted map with its owner's names put back from their vault (redact/keys/vault.py).

Walks the map with the field table (redact/model/table.py), so a token is only replaced in a field of
the class that made it: path segments in path fields, `h:` tokens in identifier fields (looked up in
that field's category) and opaque-id fields, `<script:...>` tokens in verb fields. A token the vault
does not hold stays as it is. The result is for the owner's eyes, locally: it is not a redacted map.
"""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from redact.model import grammar
from redact.model.fieldclass import Kind
from redact.model.table import Leaf, Nested, Node, event_nodes, map_node
from redact.apply.pathguard import TOKEN_RE
from redact.keys.vault import Vault
from redact.verbs.grammar import HASH_RE, HASHED_SCRIPT_RE


@dataclass
class Revealed:
    session_map: dict[str, Any]
    replaced: Counter[str] = field(default_factory=Counter)  # token kind -> values put back
    unknown: Counter[str] = field(default_factory=Counter)  # token kind -> tokens the vault lacks


class _Revealer:
    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.replaced: Counter[str] = Counter()
        self.unknown: Counter[str] = Counter()

    def _lookup(self, kind: str, token: str) -> str | None:
        original = self.vault.lookup(kind, token)
        if original is None:
            self.unknown[kind] += 1
        else:
            self.replaced[kind] += 1
        return original

    def path(self, value: str) -> str:
        if grammar.is_bucket_label(value):
            return value
        out = []
        for seg in value.split("/"):
            if HASH_RE.fullmatch(seg):
                original = self._lookup("segment", seg)
            elif TOKEN_RE.fullmatch(seg):  # a fallback token, or a dirs_only name (never in a vault)
                original = self.vault.lookup("fallback", seg)
                if original is not None:
                    self.replaced["fallback"] += 1
            else:
                original = None
            out.append(seg if original is None else original)
        return "/".join(out)

    def scalar(self, leaf: Leaf, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        kind = leaf.fc.kind
        if kind is Kind.PATH:
            return self.path(value)
        if kind in (Kind.IDENT, Kind.ID) and grammar.HASH_TOKEN_RE.fullmatch(value):
            token_kind = f"ident:{leaf.fc.category}" if kind is Kind.IDENT else "id"
            return self._lookup(token_kind, value) or value
        if kind is Kind.VERB and HASHED_SCRIPT_RE.fullmatch(value):
            original = self._lookup("program", value[len("<script:"):-1])
            return value if original is None else f"<script {original}>"
        return value

    def node(self, node: Node, raw: Any) -> None:
        if not isinstance(raw, dict):
            return
        for name, spec in node.fields.items():
            if name not in raw or raw[name] is None:
                continue
            value = raw[name]
            if isinstance(spec, Nested):
                for item in (value if spec.many and isinstance(value, list) else [value]):
                    self.node(spec.node, item)
            elif spec.mapping:
                continue
            elif spec.many and isinstance(value, list):
                raw[name] = [self.scalar(spec, item) for item in value]
            else:
                raw[name] = self.scalar(spec, value)


def reveal_map(session_map: dict[str, Any], vault: Vault) -> Revealed:
    """A copy of `session_map` with every token the vault holds replaced by its original."""
    out = copy.deepcopy(session_map)
    r = _Revealer(vault)
    r.node(map_node(), out)
    nodes = event_nodes()
    for ev in out.get("events") or []:
        if isinstance(ev, dict) and isinstance(ev.get("kind"), str) and ev["kind"] in nodes:
            r.node(nodes[ev["kind"]], ev)
    return Revealed(out, r.replaced, r.unknown)
