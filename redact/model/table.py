"""The field table of the map, compiled once from the pydantic models.

Each model becomes a `Node`: its fields in seed order, each either a `Leaf` (with its field class and,
for enum fields, the closed set of values) or a nested `Node`. The redactor walks input maps with it,
and the scanner checks output maps against it; neither has its own copy of the layout.

Building the pydantic model classes costs more than a small run, so the compiled table is kept in
the disk cache of shipped tables (redact/io/cache.py), keyed by the source of the models: a process
that finds it there never imports pydantic's model machinery for the map.
"""
from __future__ import annotations

import importlib.util
import types
import typing
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union

from redact.io.cache import cached
from redact.model.fieldclass import FieldClass, Kind

if TYPE_CHECKING:
    from pydantic import BaseModel


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


def _of_tag(tag: str) -> FieldClass:
    if tag.startswith("ident:"):
        return FieldClass(Kind.IDENT, tag.split(":", 1)[1])
    return FieldClass(Kind(tag))


def _field_class(info: Any) -> FieldClass | None:
    from redact.model.agentplay import CLASS_KEY

    extra = info.json_schema_extra or {}
    tag = extra.get(CLASS_KEY)
    return None if tag is None else _of_tag(tag)


@cache
def node_for(model: type[BaseModel]) -> Node:
    """The node of a pydantic model (the table's source; `map_node` and `event_nodes` read its
    cached result)."""
    from pydantic import BaseModel

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


_PY = {"str": str, "int": int, "float": float, "bool": bool}
_PY_NAME = {t: n for n, t in _PY.items()}


def _encode(node: Node) -> dict[str, Any]:
    fields: list[list[Any]] = []
    for f in node.fields.values():
        if isinstance(f, Nested):
            fields.append(["nested", f.name, _encode(f.node), f.many, f.required])
        else:
            fields.append(["leaf", f.name, f.fc.tag, sorted(_PY_NAME[t] for t in f.py),
                           None if f.values is None else sorted(f.values), f.many, f.mapping,
                           f.required, f.nullable])
    return {"model": node.model, "fields": fields}


def _decode(data: dict[str, Any]) -> Node:
    fields: dict[str, Leaf | Nested] = {}
    for f in data["fields"]:
        if f[0] == "nested":
            _, name, node, many, required = f
            fields[name] = Nested(str(name), _decode(node), bool(many), bool(required))
        elif f[0] == "leaf":
            _, name, tag, py, values, many, mapping, required, nullable = f
            fields[name] = Leaf(str(name), _of_tag(tag), frozenset(_PY[t] for t in py),
                                None if values is None else frozenset(str(v) for v in values),
                                bool(many), bool(mapping), bool(required), bool(nullable))
        else:
            raise ValueError("not a field")
    return Node(str(data["model"]), fields)


def _sources() -> list[Path]:
    """The files the table is computed from: the models, their value sets and classes, this module,
    and pydantic's version (its reading of the annotations)."""
    here = Path(__file__).resolve().parent
    files = [here / "agentplay.py", here / "values.py", here / "fieldclass.py", here / "table.py"]
    spec = importlib.util.find_spec("pydantic")
    if spec is not None and spec.origin:
        files.append(Path(spec.origin).parent / "version.py")
    return files


def _build() -> dict[str, Any]:
    from redact.model import agentplay as ap

    return {"map": _encode(node_for(ap.SessionMap)),
            "events": {kind: _encode(node_for(model)) for kind, model in ap.EVENT_MODELS.items()},
            "order": [(info.alias or attr) for attr, info in ap.SessionMap.model_fields.items()]}


@dataclass(frozen=True, slots=True)
class _Tables:
    map: Node
    events: dict[str, Node]
    order: tuple[str, ...]


def _decode_tables(data: dict[str, Any]) -> _Tables:
    tables = _Tables(_decode(data["map"]), {str(k): _decode(v) for k, v in data["events"].items()},
                     tuple(str(name) for name in data["order"]))
    if not tables.events or not tables.order or set(tables.order) - set(tables.map.fields) - {"events"}:
        raise ValueError("an incomplete field table")
    return tables


@cache
def _tables() -> _Tables:
    return cached("field-table", _sources(), _build, _decode_tables)


def event_nodes() -> dict[str, Node]:
    """One node per event kind, keyed by the kind's name."""
    return _tables().events


def map_node() -> Node:
    return _tables().map


TOP_LEVEL_ORDER: tuple[str, ...] = _tables().order
