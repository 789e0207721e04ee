"""Field classes: the one table that drives both redaction and the leak proof.

Every leaf of an agentplay/v1 map carries a class (DESIGN.md section 3). The class is attached to the
pydantic field as metadata, so the model, the JSON Schema, the redactor and the scanner all read the
same declaration. The scanner shares this grammar but none of the redactor's transforming code.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(str, Enum):
    ENUM = "enum"  # closed set of values, from the Literal annotation
    NUMBER = "number"
    BOOL = "bool"
    TIMESTAMP = "timestamp"
    ID = "id"  # opaque ids: uuids, hex, sa-..., r0, t1
    VERSION = "version"  # producer version strings
    PATH = "path"  # a path under the map's path mode, or a bucket label
    LABEL = "label"  # a bucket label only
    VERB = "verb"  # a verb from the closed vocabulary
    ACTION = "action"  # a vcs action: a git subcommand or a gh/glab noun_verb
    IDENT = "ident"  # identifier:<category>, under a policy action
    TEXT = "text"  # model-written text: never kept unless a policy keeps it on purpose
    HASH = "hash"  # the map's own contentHash
    DIGEST = "digest"  # the keyed digest of the raw log the map was made from (sourceDigest)


# Identifier categories of the format (seed, "Redaction contract": identifiers that may appear).
IDENT_CATEGORIES: tuple[str, ...] = (
    "agent_tool",
    "repo",
    "remote",
    "mcp_server",
    "mcp_tool",
    "skill",
    "subagent_type",
    "model",
    "host",
    "hook",
    "tool",
    "pr",
    "ticket",
    "tracker",
    "artifact",
)


@dataclass(frozen=True, slots=True)
class FieldClass:
    kind: Kind
    category: str | None = None  # for IDENT

    def __post_init__(self) -> None:
        if (self.kind is Kind.IDENT) != (self.category is not None):
            raise ValueError("an identifier field needs a category, and only it")
        if self.category is not None and self.category not in IDENT_CATEGORIES:
            raise ValueError(f"unknown identifier category {self.category!r}")

    @property
    def tag(self) -> str:
        return f"ident:{self.category}" if self.category else self.kind.value


def ident(category: str) -> FieldClass:
    return FieldClass(Kind.IDENT, category)


ENUM = FieldClass(Kind.ENUM)
NUMBER = FieldClass(Kind.NUMBER)
BOOL = FieldClass(Kind.BOOL)
TIMESTAMP = FieldClass(Kind.TIMESTAMP)
ID = FieldClass(Kind.ID)
VERSION = FieldClass(Kind.VERSION)
PATH = FieldClass(Kind.PATH)
LABEL = FieldClass(Kind.LABEL)
VERB = FieldClass(Kind.VERB)
ACTION = FieldClass(Kind.ACTION)
TEXT = FieldClass(Kind.TEXT)
HASH = FieldClass(Kind.HASH)
DIGEST = FieldClass(Kind.DIGEST)
