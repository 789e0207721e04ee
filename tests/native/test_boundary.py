"""STYLE.md principle 4: the native scan shares the grammar (the tables, the value predicates), never
the code that transformed the data. audit/native.py imports no scrubber module."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = {"redact.tables.spec", "redact.tables.grammar", "redact.formats.tables"}


def test_the_scan_imports_no_scrubber() -> None:
    tree = ast.parse((ROOT / "audit" / "native.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    native = {name for name in imported if name.startswith("redact.native")}
    assert native <= SHARED, native - SHARED


def test_tables_import_no_scrubber() -> None:
    for path in (ROOT / "redact" / "native" / "tables").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("redact.native"):
                assert node.module in SHARED or node.module.startswith("redact.formats.tables"), (path.name, node.module)
