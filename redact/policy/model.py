"""The policy file's model. Unknown keys are errors: a typo must never silently weaken a policy."""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from redact.model.fieldclass import IDENT_CATEGORIES
from redact.model.grammar import is_link_scope
from redact.model.values import PathMode  # the one Literal of the path modes

Action = Literal["keep", "drop", "hash", "allowlist", "generalize"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Paths(_Strict):
    mode: PathMode = "relative"
    require_hashed: bool = False


class Identifiers(_Strict):
    agent_tool: Action = "allowlist"
    repo: Action = "keep"
    remote: Action = "keep"
    mcp_server: Action = "keep"
    mcp_tool: Action = "keep"
    skill: Action = "keep"
    subagent_type: Action = "keep"
    model: Action = "keep"
    host: Action = "generalize"
    hook: Action = "keep"
    tool: Action = "allowlist"
    pr: Action = "keep"
    ticket: Action = "keep"
    tracker: Action = "allowlist"
    artifact: Action = "drop"

    @model_validator(mode="after")
    def _generalize_is_for_hosts(self) -> "Identifiers":
        for category in IDENT_CATEGORIES:
            if getattr(self, category) == "generalize" and category != "host":
                raise ValueError(f"identifiers.{category}: 'generalize' applies to hosts only")
        return self


class Allowlist(_Strict):
    values: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _patterns_compile(self) -> "Allowlist":
        for pattern in self.patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"allowlist pattern does not compile: {exc}") from None
        return self


class Text(_Strict):
    keep_task_names: bool = False
    keep_artifact_titles: bool = False


class Ids(_Strict):
    # Opaque ids (session id, record ids) are random values; `hash` replaces them with keyed tokens.
    action: Literal["keep", "hash"] = "keep"


class Tokens(_Strict):
    # How far keyed tokens link (docs/policies.md, docs/threat-model.md): `global` (one key, the same
    # token in every map), `dataset:NAME` (only maps made for one release) or `session` (tokens of
    # two maps share nothing).
    link_scope: str = "global"

    @model_validator(mode="after")
    def _scope_grammar(self) -> "Tokens":
        if not is_link_scope(self.link_scope):
            raise ValueError("link_scope must be global, session or dataset:NAME (NAME: 1-64 of a-z 0-9 . _ -, "
                             "starting and ending with a letter or digit)")
        return self


class Verbs(_Strict):
    extra_programs: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class Policy(_Strict):
    name: str
    description: str = ""
    extends: str | None = None
    # A policy meant for publication: it may not keep text or clear identifiers, and needs hashed.
    publish: bool = False
    paths: Paths = Paths()
    identifiers: Identifiers = Identifiers()
    allowlists: dict[str, Allowlist] = Field(default_factory=dict)
    text: Text = Text()
    ids: Ids = Ids()
    tokens: Tokens = Tokens()
    verbs: Verbs = Verbs()

    @model_validator(mode="after")
    def _checks(self) -> "Policy":
        for category in self.allowlists:
            if category not in IDENT_CATEGORIES:
                raise ValueError(f"allowlists.{category}: not an identifier category")
        if self.publish:
            if self.text.keep_task_names or self.text.keep_artifact_titles:
                raise ValueError("text: a publish policy never keeps text")
            if self.paths.mode != "hashed" or not self.paths.require_hashed:
                raise ValueError("paths: a publish policy requires hashed paths")
            kept = [c for c in IDENT_CATEGORIES if getattr(self.identifiers, c) == "keep"]
            if kept:
                raise ValueError(f"identifiers.{kept[0]}: a publish policy keeps no identifier in clear")
        return self
