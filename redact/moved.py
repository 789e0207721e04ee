"""Old import paths, kept for one release: the modules that moved when `redact/` was grouped into
folders by pipeline step (0.3). `import redact.paths` still works and warns (DeprecationWarning)
naming the new place; nothing of the project imports an old path (tests/test_boundaries.py).

Three old modules are now packages of the same name (`redact.apply`, `redact.batch`, `redact.keys`):
their names are still reached through the package, with the same warning (`forward`).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import warnings
from types import ModuleType
from typing import Any

#: old module -> where it is now
MOVED: dict[str, str] = {
    "redact.apply_leaves": "redact.apply.leaves",
    "redact.identifiers": "redact.apply.identifiers",
    "redact.pathguard": "redact.apply.pathguard",
    "redact.paths": "redact.apply.paths",
    "redact.refs": "redact.apply.refs",
    "redact.modes": "redact.apply.modes",
    "redact.roots": "redact.formats.roots",
    "redact.linkscope": "redact.keys.linkscope",
    "redact.vault": "redact.keys.vault",
    "redact.reveal": "redact.share.reveal",
    "redact.recorder": "redact.keys.recorder",
    "redact.receipt": "redact.share.receipt",
    "redact.explain": "redact.share.explain",
    "redact.batch_inputs": "redact.batch.inputs",
    "redact.plan": "redact.batch.plan",
    "redact.canonical": "redact.model.canonical",
    "redact.detect": "redact.formats.detect",
    "redact.names": "redact.tables.names",
    "redact.vocabulary": "redact.formats.vocabulary",
    "redact.native.spec": "redact.tables.spec",
    "redact.native.grammar": "redact.tables.grammar",
    "redact.native.doc": "redact.tables.doc",
    "redact.native.tables": "redact.formats.tables",
}
#: an old module that is now a package of the same name -> the module its names went to
BECAME_PACKAGE: dict[str, str] = {
    "redact.apply": "redact.apply.walk",
    "redact.batch": "redact.batch.run",
    "redact.keys": "redact.keys.material",
}


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} moved to {new}; the old path goes in the next release", DeprecationWarning,
                  stacklevel=3)


class _Alias(importlib.abc.Loader):
    """Hands out the module now at an old name's new place."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        _warn(spec.name, MOVED[spec.name])
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        return None


def find_spec(fullname: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of an old module name (the package's finder, asked last, calls this), else None."""
    if fullname not in MOVED:
        return None
    return importlib.machinery.ModuleSpec(fullname, _Alias())


def forward(package: str, name: str) -> Any:
    """A package's `__getattr__`: `name` of the module that the package's old module became."""
    if name.startswith("__"):
        raise AttributeError(name)
    if importlib.util.find_spec(f"{package}.{name}") is not None:  # `from redact.batch import run`
        return importlib.import_module(f"{package}.{name}")
    target = BECAME_PACKAGE[package]
    module = importlib.import_module(target)
    try:
        found = getattr(module, name)
    except AttributeError:
        raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    _warn(f"{package}.{name}", f"{target}.{name}")
    return found
