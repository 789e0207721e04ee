"""The old import paths (before the folders by pipeline step) keep working for one release, each with
a DeprecationWarning that names the new place; the project itself imports none of them."""
from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from redact.moved import BECAME_PACKAGE, MOVED

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_warns_and_is_the_new_module(old: str) -> None:
    code = f"""
import warnings
warnings.simplefilter("error", DeprecationWarning)
try:
    import {old}
except DeprecationWarning as w:
    print("warned:", w)
warnings.simplefilter("ignore", DeprecationWarning)
import importlib
print(importlib.import_module({old!r}) is importlib.import_module({MOVED[old]!r}))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    warned, same = out.stdout.splitlines()
    assert warned == f"warned: {old} moved to {MOVED[old]}; the old path goes in the next release"
    assert same == "True"


@pytest.mark.parametrize("package", sorted(BECAME_PACKAGE))
def test_a_name_of_an_old_module_that_became_a_package_warns(package: str) -> None:
    target = importlib.import_module(BECAME_PACKAGE[package])
    name = next(n for n, v in vars(target).items() if not n.startswith("_") and callable(v)
                and getattr(v, "__module__", "") == target.__name__)
    with pytest.warns(DeprecationWarning, match=f"{package}.{name} moved to {target.__name__}.{name}"):
        found = getattr(importlib.import_module(package), name)
    assert found is getattr(target, name)
    with pytest.raises(AttributeError):
        getattr(importlib.import_module(package), "no_such_name")


def test_a_submodule_is_reached_without_a_warning(recwarn: pytest.WarningsRecorder) -> None:
    from redact.batch import run

    assert run.__name__ == "redact.batch.run" and not recwarn.list


def _imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_project_imports_no_old_path() -> None:
    old = set(MOVED) | {f"{pkg}.{name}" for pkg, mod in BECAME_PACKAGE.items()
                        for name in vars(importlib.import_module(mod))
                        if not name.startswith("_") and importlib.util.find_spec(f"{pkg}.{name}") is None}
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for folder in ("redact", "audit", "bench", "scripts", "tests")
                 for path in sorted((ROOT / folder).rglob("*.py")) if path.name != "test_moved.py"
                 for name in sorted(_imported_names(path) & old)]
    assert not offenders, offenders
