"""A validated policy as plain frozen objects: what a run reads (`EffectivePolicy.policy`).

The pydantic models of redact/policy/model.py are the only validator of a policy: a file (or a
preset with a flag's override) is checked by them and its checked values, `model_dump(mode="json")`,
become these objects. The shipped presets and allowlists are validated once and their dumps kept in
the disk cache of shipped tables (redact/io/cache.py), so a run on a preset never builds the models:
building them (and importing pydantic) was about a third of the main job's start-up.

Each class has the fields of its model, in the same order (tests/test_policy_plain.py holds the two
to each other, field by field, on every preset and on policy files), and `as_json` gives back the
model's dump.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Paths:
    mode: str
    require_hashed: bool


@dataclass(frozen=True)
class Identifiers:
    agent_tool: str
    repo: str
    remote: str
    mcp_server: str
    mcp_tool: str
    skill: str
    subagent_type: str
    model: str
    host: str
    hook: str
    tool: str
    pr: str
    ticket: str
    tracker: str
    artifact: str


@dataclass(frozen=True)
class Allowlist:
    values: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Text:
    keep_task_names: bool
    keep_artifact_titles: bool


@dataclass(frozen=True)
class Ids:
    action: str


@dataclass(frozen=True)
class Tokens:
    link_scope: str


@dataclass(frozen=True)
class Verbs:
    extra_programs: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Policy:
    name: str
    description: str
    extends: str | None
    publish: bool
    paths: Paths
    identifiers: Identifiers
    allowlists: dict[str, Allowlist]
    text: Text
    ids: Ids
    tokens: Tokens
    verbs: Verbs

    def as_json(self) -> dict[str, Any]:
        """The policy model's `model_dump(mode="json")` of the same policy (a new dict each call)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "allowlists":
                out[f.name] = {cat: allowlist_json(a) for cat, a in value.items()}
            elif f.name == "verbs":
                out[f.name] = {"extra_programs": {k: list(v) for k, v in value.extra_programs.items()}}
            elif hasattr(value, "__dataclass_fields__"):
                out[f.name] = {g.name: getattr(value, g.name) for g in fields(value)}
            else:
                out[f.name] = value
        return out


def allowlist_json(allow: Allowlist) -> dict[str, Any]:
    return {"values": list(allow.values), "patterns": list(allow.patterns)}


def allowlist(data: dict[str, Any]) -> Allowlist:
    """An Allowlist from its model's dump (a value of another shape raises)."""
    if set(data) != {"values", "patterns"}:
        raise ValueError("not an allowlist")
    return Allowlist(_strings(data["values"]), _strings(data["patterns"]))


def _strings(items: Any) -> tuple[str, ...]:
    if not isinstance(items, list | tuple) or not all(isinstance(s, str) for s in items):
        raise ValueError("not a list of strings")
    return tuple(items)


def _section(cls: Any, data: Any) -> Any:
    names = [f.name for f in fields(cls)]
    if not isinstance(data, dict) or list(data) != names:
        raise ValueError(f"not a {cls.__name__} section")
    return cls(**data)


def policy(data: dict[str, Any]) -> Policy:
    """A Policy from the policy model's `model_dump(mode="json")` (of a validated policy: nothing is
    checked here but the shape; a dump of another shape raises ValueError)."""
    names = [f.name for f in fields(Policy)]
    if not isinstance(data, dict) or list(data) != names:
        raise ValueError("not a policy")
    verbs = data["verbs"]
    if not isinstance(verbs, dict) or list(verbs) != ["extra_programs"]:
        raise ValueError("not a verbs section")
    return Policy(
        name=data["name"], description=data["description"], extends=data["extends"], publish=data["publish"],
        paths=_section(Paths, data["paths"]), identifiers=_section(Identifiers, data["identifiers"]),
        allowlists={str(cat): allowlist(a) for cat, a in data["allowlists"].items()},
        text=_section(Text, data["text"]), ids=_section(Ids, data["ids"]), tokens=_section(Tokens, data["tokens"]),
        verbs=Verbs({str(k): _strings(v) for k, v in verbs["extra_programs"].items()}),
    )
