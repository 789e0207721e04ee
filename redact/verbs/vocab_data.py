"""The shipped vocabulary's data files, read into declarative program specs (no compiling, no lookups).

`load_specs` reads `data/programs-*.toml`, `plain.txt`, `subcommands.tsv` and `packages.toml` (their
grammar: `data/README.md`) into one `ProgramSpec` per program, plus aliases and package maps.
`redact/verbs/vocab.py` compiles the specs into a `Vocabulary`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_SPEC_KEYS = frozenset(
    {"cat", "kind", "opts", "subs", "opts_at", "cat_at", "verify", "verify_if", "scripts", "style",
     "plus", "ci", "tracks", "seq_max", "tldr"}
)


@dataclass(slots=True)
class ProgramSpec:
    """The declarative description of one program, as read from the data files."""

    cat: str = "shell"
    kind: str | None = None
    opts: list[str] = field(default_factory=list)
    paths: list[tuple[str, ...]] = field(default_factory=list)
    opts_at: dict[str, list[str]] = field(default_factory=dict)
    cat_at: dict[str, str] = field(default_factory=dict)
    verify: dict[str, str] = field(default_factory=dict)
    verify_if: dict[str, dict[str, str]] = field(default_factory=dict)
    scripts: list[str] = field(default_factory=list)
    style: str = "gnu"
    plus: bool = False
    ci: bool = False
    tracks: list[str] = field(default_factory=list)
    seq_max: int = 3
    tldr: bool = True

    def copy(self) -> ProgramSpec:
        return ProgramSpec(
            self.cat, self.kind, list(self.opts), list(self.paths), dict(self.opts_at),
            dict(self.cat_at), dict(self.verify), dict(self.verify_if), list(self.scripts),
            self.style, self.plus, self.ci, list(self.tracks), self.seq_max, self.tldr,
        )


class VocabularyError(ValueError):
    """A data file or a policy extension breaks the vocabulary's rules."""


def _parse_subs(text: str) -> list[tuple[str, ...]]:
    """`a b c` lines add one-word paths; `group > x y` adds `group`, `group x`, `group y`."""
    paths: list[tuple[str, ...]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if ">" in line:
            prefix, _, rest = line.partition(">")
            head = tuple(prefix.split())
            paths.append(head)
            paths.extend(head + (word,) for word in rest.split())
        else:
            paths.extend((word,) for word in line.split())
    return paths


def _spec_from_toml(name: str, table: Mapping[str, Any]) -> ProgramSpec:
    unknown = set(table) - _SPEC_KEYS
    if unknown:
        raise VocabularyError(f"program {name!r}: unknown keys {sorted(unknown)}")
    return ProgramSpec(
        cat=table.get("cat", "shell"),
        kind=table.get("kind"),
        opts=list(table.get("opts", [])),
        paths=_parse_subs(table.get("subs", "")),
        opts_at={k: list(v) for k, v in table.get("opts_at", {}).items()},
        cat_at=dict(table.get("cat_at", {})),
        verify=dict(table.get("verify", {})),
        verify_if={k: dict(v) for k, v in table.get("verify_if", {}).items()},
        scripts=list(table.get("scripts", [])),
        style=table.get("style", "gnu"),
        plus=bool(table.get("plus", False)),
        ci=bool(table.get("ci", False)),
        tracks=list(table.get("tracks", [])),
        seq_max=int(table.get("seq_max", 3)),
        tldr=bool(table.get("tldr", True)),
    )


def _data() -> Any:
    from importlib import resources  # the data files are read when the disk cache misses only

    return resources.files("redact.verbs").joinpath("data")


def _read(name: str) -> str:
    return str(_data().joinpath(name).read_text(encoding="utf-8"))


Specs = tuple[dict[str, ProgramSpec], dict[str, str], dict[str, dict[str, str]]]


def load_specs() -> Specs:
    """Read the shipped data files into program specs, aliases and package maps (fresh objects each
    call). Parsing the TOML files is most of a small run's verb cost, so the result is kept in the
    disk cache of shipped tables (redact/io/cache.py), keyed by the data files and this module."""
    from pathlib import Path

    from redact.io.cache import cached

    here = Path(__file__).resolve()
    sources = [here, *sorted((here.parent / "data").iterdir(), key=lambda e: e.name)]
    return cached("verb-specs", [p for p in sources if p.is_file()], _encode_specs, _decode_specs)


_FIELDS = ("cat", "kind", "opts", "paths", "opts_at", "cat_at", "verify", "verify_if", "scripts",
           "style", "plus", "ci", "tracks", "seq_max", "tldr")


def _encode_specs() -> dict[str, Any]:
    specs, aliases, packages = read_specs()
    return {"specs": {name: [getattr(spec, f) for f in _FIELDS] for name, spec in specs.items()},
            "aliases": aliases, "packages": packages}


def _decode_specs(data: dict[str, Any]) -> Specs:
    specs: dict[str, ProgramSpec] = {}
    n = len(_FIELDS)
    for name, values in data["specs"].items():
        if len(values) != n or not isinstance(name, str):
            raise ValueError("not a program spec")
        values[3] = [tuple(path) for path in values[3]]  # the paths: JSON has no tuples
        specs[name] = ProgramSpec(*values)
    aliases = {str(k): str(v) for k, v in data["aliases"].items()}
    packages = {str(key): {str(k): str(v) for k, v in table.items()} for key, table in data["packages"].items()}
    return specs, aliases, packages


def read_specs() -> Specs:
    """Read the shipped data files into program specs, aliases and package maps."""
    import tomllib  # only when the disk cache misses (load_specs)

    specs: dict[str, ProgramSpec] = {}
    for entry in sorted(_data().iterdir(), key=lambda e: e.name):
        if not (entry.name.startswith("programs-") and entry.name.endswith(".toml")):
            continue
        tables = tomllib.loads(entry.read_text(encoding="utf-8"))
        for name, table in tables.items():
            if name in specs:
                raise VocabularyError(f"program {name!r} is described twice")
            specs[name] = _spec_from_toml(name, table)
    data = tomllib.loads(_read("packages.toml"))
    for raw in _read("plain.txt").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cat, _, names = line.partition(":")
        cat = cat.strip()
        for token in names.split():
            name, _, verify = token.partition("=")
            if name in specs:
                raise VocabularyError(f"program {name!r} is listed twice")
            spec = specs[name] = ProgramSpec(cat=cat)
            if verify:
                spec.verify[""] = verify
    for raw in _read("subcommands.tsv").splitlines():
        if not raw or raw.startswith("#"):
            continue
        name, path = raw.split("\t")
        found = specs.get(name)
        if found is None:
            spec = specs[name] = ProgramSpec()
        elif not found.tldr:
            continue
        else:
            spec = found
        words = tuple(path.split(" "))
        if words not in spec.paths:
            spec.paths.append(words)
        if spec.kind == "plain":
            spec.kind = "sub"
    aliases = dict(data.get("aliases", {}))
    packages = {key: dict(data.get(key, {})) for key in ("npm", "pypi", "python_modules")}
    return specs, aliases, packages
