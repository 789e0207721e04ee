"""The vocabulary of native field tables: what each field of a raw format becomes under `--to native`.

A native table (one per format, in `redact/formats/<name>/native_table.py`) is a tree of these
nodes. Two walkers read it, and nothing else: the scrubber (`redact/native/scrub.py`), which turns
an input record into an output record, and the native leak scan (`audit/native.py`), which proves an
output record holds only what its table allows. They share this grammar and none of each other's
code (STYLE.md, principle 4).

Nodes:

- `Leaf(cls)`: one value of a field class (DESIGN.md section 3), with what the output may hold:

  | class | the scrubber writes | the scan accepts |
  |---|---|---|
  | enum | the value when it is one of `values`, else nothing | one of `values` |
  | id | the id when it has an opaque-id shape (`redact/tables/grammar.py`) and the policy keeps ids, else a hash token | the opaque-id grammar |
  | timestamp | the value in UTC: an offset is moved to `Z` (it says where the user lives); else nothing | UTC `Z` or no zone |
  | number, bool, version | the value when it has its type/shape, else nothing | the same |
  | path | the path mode, or a bucket label | the path-mode grammar or a bucket label |
  | cwd | a working directory: `.` for the repository root, else as path | the same |
  | verb | the command's verb (`redact.verbs`) | a verb of the vocabulary |
  | ident | the policy's action for `category` | a listed identifier in clear or a hash token |
  | shape | text replaced by its shape `{"chars": N}` (a value of `keep` stays; any other JSON value: the length of its JSON text) | a shape marker, or a value of `keep` |
  | result | tool output: its shape, plus `exitCode` when the harness wrote one | a shape marker |
  | drop | nothing (text, blobs) | absence |
  | branch | a well-known branch name, else a keyed hash token, else nothing | the same |
  | tool | a tool name: one of `values` (the format's built-in tools) as written; any other name by the identifier policy (`mcp__<server>__<tool>` part by part) | the same |
  | url_host | `https://<host>` when the host stays in clear, else nothing | the same |
  | const | always `values` (one value), whatever the input held | that value |
  | mask | `values` (one placeholder, `[REDACTED]`) in place of whatever the field held | that value |
  | lines | only the lines that match one of `patterns` (harness-written headers: `Exit code: 1`, a
    patch's `*** Update File: <path>`); a `path` group in a pattern is scrubbed as a path | the same |

  A verb of a command given as an argv list is written as the list of the verb's words.

  `null` is kept as `null` in every declared field (it carries nothing).
- `Obj(fields)`: an object; a field not in `fields` is dropped and counted (fail closed).
- `Many(item)`: a list of items; an item that is dropped leaves the list.
- `Switch(key, cases, default)`: an object whose layout depends on one of its own string fields
  (a record's `type`, a content block's `type`, a tool call's `name`). A value not in `cases` uses
  `default`; with no default the object is dropped and counted.
- `ByType(text, items, obj, scalar)`: a field that is a string, a list, an object or a number/bool
  depending on the record (a message's `content`): one spec per JSON type.
- `JsonText(inner, text)`: a string that holds JSON (Codex `arguments`): parsed, scrubbed by `inner`,
  written back as compact JSON text. A string that is not JSON is scrubbed by `text` when given,
  else becomes `"{}"`.
- `Ref(name)`: the table's node of that name (a record inside a record).

Every node also carries `use`: what the format's reader keeps of the field, in words (`""`: the
reader never reads it). It changes nothing the walkers do (it is not compared either); the field
table of docs/formats.md is rendered from the tree with it (`redact/tables/doc.py`), so the tree is
the format's one table: the scrubber, the native scan, the docs and the known-names list all read it,
and a test proves the reader reads no field the tree does not classify (tests/formats/test_tables.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

CLASSES: frozenset[str] = frozenset({
    "enum", "id", "timestamp", "number", "bool", "version", "path", "cwd", "verb", "ident", "shape",
    "result", "drop", "branch", "tool", "url_host", "const", "lines", "mask",
})


@dataclass(frozen=True, slots=True)
class Leaf:
    cls: str
    values: frozenset[str] | None = None  # enum, const, mask: the closed set; tool: names kept
    category: str | None = None  # ident
    keep: frozenset[str] = frozenset()  # shape: fixed harness wordings kept as written
    patterns: tuple[str, ...] = ()  # lines: the line grammars (regexes; a `path` group is a path)
    use: str = field(default="", compare=False)  # what the reader keeps of it ("": never read)

    def __post_init__(self) -> None:
        if self.cls not in CLASSES:
            raise ValueError(f"unknown native class {self.cls!r}")
        if (self.cls == "ident") != (self.category is not None):
            raise ValueError("an ident leaf needs a category, and only it")
        if self.cls in ("enum", "const", "mask") and not self.values:
            raise ValueError(f"a {self.cls} leaf needs its values")
        if self.cls in ("const", "mask") and self.values is not None and len(self.values) != 1:
            raise ValueError(f"a {self.cls} leaf has exactly one value")
        if (self.cls == "lines") != bool(self.patterns):
            raise ValueError("a lines leaf needs its patterns, and only it")


@dataclass(frozen=True, slots=True)
class Obj:
    fields: Mapping[str, Spec]
    use: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Many:
    item: Spec
    use: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Switch:
    key: str
    cases: Mapping[str, Spec]
    default: Spec | None = None
    use: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class ByType:
    text: Spec | None = None
    items: Spec | None = None
    obj: Spec | None = None
    scalar: Spec | None = None
    use: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class JsonText:
    inner: Spec
    text: Spec | None = None
    use: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Ref:
    name: str
    use: str = field(default="", compare=False)


Spec = Leaf | Obj | Many | Switch | ByType | JsonText | Ref


@dataclass(frozen=True)
class Table:
    """One format's native table: the node of one record (`root`), and named nodes for `Ref`."""

    format: str
    root: Spec
    named: Mapping[str, Spec] = field(default_factory=dict)
    jsonl: bool = True  # one record per line; False: the input is one JSON document (`root`)
    # A second, one-document layout of a JSONL format (Codex's single-JSON rollout): an output that
    # is one JSON object holding `document_key` is checked against `document`.
    document: Spec | None = None
    document_key: str = ""

    def resolve(self, spec: Spec) -> Spec:
        seen = 0
        while isinstance(spec, Ref):
            spec = self.named[spec.name]
            seen += 1
            if seen > 16:
                raise ValueError(f"{self.format}: a Ref cycle without a node")
        return spec


# -- constructors, so tables read like the format they describe ----------------------------------

_S = TypeVar("_S", bound=Spec)


def used(text: str, spec: _S) -> _S:
    """`spec` with what the reader keeps of the field (the `use` column of the docs' field table)."""
    if not text:
        raise ValueError("say what the reader keeps of the field")
    return replace(spec, use=text)


def enum(*values: str) -> Leaf:
    return Leaf("enum", frozenset(values))


def const(value: str) -> Leaf:
    return Leaf("const", frozenset({value}))


def tool(*builtin: str) -> Leaf:
    return Leaf("tool", frozenset(builtin) or None)


def mask(placeholder: str) -> Leaf:
    return Leaf("mask", frozenset({placeholder}))


def ident(category: str) -> Leaf:
    return Leaf("ident", category=category)


def shape(*keep: str) -> Leaf:
    return Leaf("shape", keep=frozenset(keep))


ID = Leaf("id")
TIMESTAMP = Leaf("timestamp")
NUMBER = Leaf("number")
BOOL = Leaf("bool")
VERSION = Leaf("version")
PATH = Leaf("path")
CWD = Leaf("cwd")
VERB = Leaf("verb")
SHAPE = Leaf("shape")
RESULT = Leaf("result")
DROP = Leaf("drop")
BRANCH = Leaf("branch")
TOOL = Leaf("tool")
URL_HOST = Leaf("url_host")


def lines(*patterns: str) -> Leaf:
    return Leaf("lines", patterns=tuple(patterns))


def obj(**fields: Spec) -> Obj:
    return Obj(dict(fields))


def tagged(key: str, cases: Mapping[str, Spec], default: Spec | None = None, use: str = "") -> Switch:
    """A switch whose layouts each classify their own tag (`key`) as one of the case names, so the
    names are written once: `tagged("type", {"text": obj(text=SHAPE), ...})`. A layout that is not an
    `Obj` is kept as it is; the default layout's tag is the same enum."""
    tag = enum(*cases)

    def with_tag(spec: Spec) -> Spec:
        if isinstance(spec, Obj) and key not in spec.fields:
            return replace(spec, fields={key: tag, **spec.fields})
        return spec

    return Switch(key, {name: with_tag(spec) for name, spec in cases.items()},
                  None if default is None else with_tag(default), use=use)


def fields_of(*parts: Mapping[str, Spec], **more: Spec) -> dict[str, Spec]:
    """Merge field mappings (later ones win); for names that are not Python identifiers."""
    out: dict[str, Spec] = {}
    for part in parts:
        out.update(part)
    out.update(more)
    return out


def handling(switch: Spec) -> dict[str, str]:
    """A record switch read as the reader's record-type table: `mapped` for each layout whose node
    says what the reader keeps of it (`use`), `skipped` for the others (counted by name, never read)."""
    if not isinstance(switch, Switch):
        raise TypeError("handling() reads a Switch")
    return {case: "mapped" if node.use else "skipped" for case, node in switch.cases.items()}


def walk_leaves(table: Table) -> list[tuple[str, Leaf]]:
    """(location, leaf) for every leaf reachable from the root (each named node once): for docs
    and for tests that cross-check a native table against its format's reader table."""
    out: list[tuple[str, Leaf]] = []
    done: set[str] = set()

    def go(spec: Spec, where: str) -> None:
        if isinstance(spec, Ref):
            if spec.name in done:
                return
            done.add(spec.name)
            go(table.named[spec.name], f"<{spec.name}>")
        elif isinstance(spec, Leaf):
            out.append((where, spec))
        elif isinstance(spec, Obj):
            for name, sub in spec.fields.items():
                go(sub, f"{where}.{name}" if where else name)
        elif isinstance(spec, Many):
            go(spec.item, where + "[]")
        elif isinstance(spec, Switch):
            for case, sub in spec.cases.items():
                go(sub, f"{where}({spec.key}={case})")
            if spec.default is not None:
                go(spec.default, f"{where}({spec.key}=*)")
        elif isinstance(spec, ByType):
            for option in (spec.text, spec.items, spec.obj, spec.scalar):
                if option is not None:
                    go(option, where)
        elif isinstance(spec, JsonText):
            go(spec.inner, where + "<json>")
            if spec.text is not None:
                go(spec.text, where)

    go(table.root, "")
    if table.document is not None:
        go(table.document, "<document>")
    return out
