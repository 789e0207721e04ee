"""A validated policy as plain frozen objects: what a run reads (`EffectivePolicy.policy`).

The pydantic models of redact/policy/model.py are the only validator of a policy: a file (or a
preset with a flag's override) is checked by them and its checked values, `model_dump(mode="json")`,
become these objects. The shipped presets and allowlists are validated once and their dumps kept in
the disk cache of shipped tables (redact/io/cache.py), so a run on a preset never builds the models:
building them (and importing pydantic) was about a third of the main job's start-up.

Each class has the fields of its model, in the same order (tests/test_policy_plain.py holds the two
to each other, field by field, on every preset and on policy files), and `as_json` gives back the
model's dump. They are named tuples, not dataclasses: a dataclass costs about eight times as much
to define, and a run defines them at start-up.
"""
from __future__ import annotations

from typing import Any, NamedTuple


class Paths(NamedTuple):
    mode: str
    require_hashed: bool


class Identifiers(NamedTuple):
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


class Allowlist(NamedTuple):
    values: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()


class Text(NamedTuple):
    keep_task_names: bool
    keep_artifact_titles: bool


class Ids(NamedTuple):
    action: str


class Tokens(NamedTuple):
    link_scope: str


class Verbs(NamedTuple):
    extra_programs: dict[str, tuple[str, ...]]


class Policy(NamedTuple):
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
        return {"name": self.name, "description": self.description, "extends": self.extends,
                "publish": self.publish, "paths": self.paths._asdict(), "identifiers": self.identifiers._asdict(),
                "allowlists": {cat: allowlist_json(a) for cat, a in self.allowlists.items()},
                "text": self.text._asdict(), "ids": self.ids._asdict(), "tokens": self.tokens._asdict(),
                "verbs": {"extra_programs": {k: list(v) for k, v in self.verbs.extra_programs.items()}}}


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
    if not isinstance(data, dict) or list(data) != list(cls._fields):
        raise ValueError(f"not a {cls.__name__} section")
    return cls(**data)


def policy(data: dict[str, Any]) -> Policy:
    """A Policy from the policy model's `model_dump(mode="json")` (of a validated policy: nothing is
    checked here but the shape; a dump of another shape raises ValueError)."""
    if not isinstance(data, dict) or list(data) != list(Policy._fields):
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
