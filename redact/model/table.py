"""The field table of the map, compiled once from the pydantic models.

Each model becomes a `Node`: its fields in seed order, each either a `Leaf` (with its field class and,
for enum fields, the closed set of values) or a nested `Node`. The redactor walks input maps with it,
and the scanner checks output maps against it; neither has its own copy of the layout.
"""
from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Union

from pydantic import BaseModel

from redact.model import agentplay as ap
from redact.model.fieldclass import FieldClass, Kind


@dataclass(frozen=True, slots=True)
class Leaf:
    name: str
    fc: FieldClass
    py: frozenset[type]  # accepted JSON types of one value: str, int, float, bool
    values: frozenset[str] | None  # enum values (or mapping keys), when closed
    many: bool  # a list of such values
    mapping: bool  # an object from enum keys to numbers
    required: bool
    nullable: bool


@dataclass(frozen=True, slots=True)
class Nested:
    name: str
    node: "Node"
    many: bool
    required: bool


@dataclass(frozen=True, slots=True)
class Node:
    model: str
    fields: dict[str, Leaf | Nested]


def _strip_optional(ann: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(ann)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        nullable = len(args) < len(typing.get_args(ann))
        if len(args) == 1:
            return args[0], nullable
        return Union[tuple(args)], nullable  # pragma: no cover - no such field today
    return ann, False


def _scalar(ann: Any) -> tuple[frozenset[type], frozenset[str] | None]:
    if typing.get_origin(ann) is Literal:
        return frozenset({str}), frozenset(typing.get_args(ann))
    if ann is bool:
        return frozenset({bool}), None
    if ann is int:
        return frozenset({int}), None
    if ann is float:
        return frozenset({int, float}), None
    if ann is str:
        return frozenset({str}), None
    raise TypeError(f"unsupported annotation {ann!r}")


def _field_class(info: Any) -> FieldClass | None:
    extra = info.json_schema_extra or {}
    tag = extra.get(ap.CLASS_KEY)
    if tag is None:
        return None
    if tag.startswith("ident:"):
        return FieldClass(Kind.IDENT, tag.split(":", 1)[1])
    return FieldClass(Kind(tag))


@cache
def node_for(model: type[BaseModel]) -> Node:
    fields: dict[str, Leaf | Nested] = {}
    for attr, info in model.model_fields.items():
        name = info.alias or attr
        ann, nullable = _strip_optional(info.annotation)
        required = info.is_required()
        fc = _field_class(info)
        origin = typing.get_origin(ann)
        if fc is None:  # a nested model or a list of them
            many = origin is list
            inner = typing.get_args(ann)[0] if many else ann
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                fields[name] = Nested(name, node_for(inner), many, required)
                continue
            if name == "events":  # the discriminated union, handled by event_nodes()
                continue
            raise TypeError(f"{model.__name__}.{name} has no field class")
        if origin is list:
            py, values = _scalar(typing.get_args(ann)[0])
            fields[name] = Leaf(name, fc, py, values, True, False, required, nullable)
        elif origin is dict:
            key, _ = typing.get_args(ann)
            _, values = _scalar(key)
            fields[name] = Leaf(name, fc, frozenset({int}), values, False, True, required, nullable)
        else:
            py, values = _scalar(ann)
            fields[name] = Leaf(name, fc, py, values, False, False, required, nullable)
    return Node(model.__name__, fields)


@cache
def event_nodes() -> dict[str, Node]:
    """One node per event kind, keyed by the kind's name."""
    return {kind: node_for(model) for kind, model in ap.EVENT_MODELS.items()}


@cache
def map_node() -> Node:
    return node_for(ap.SessionMap)


TOP_LEVEL_ORDER: tuple[str, ...] = tuple(
    (info.alias or attr) for attr, info in ap.SessionMap.model_fields.items()
)
