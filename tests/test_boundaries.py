"""Module boundaries (STYLE.md principle 5), enforced on the source rather than hoped for.

- only audit/secrets.py imports detect-secrets (its plugins can send a secret over the network);
- only redact/keys.py holds key material: it alone imports hmac or cryptography;
- only the CLI (redact/cli/, and the terminal renderer it alone imports) imports typer or rich;
- redact/contract/ (detectors redactor and scanner share) is a lower layer: stdlib, itself and the
  format model only, but for one secrets adapter; no redact/ module loads audit/ at import time.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = {
    "detect_secrets": {"audit/secrets.py"},
    "hmac": {"redact/keys.py"},
    "cryptography": {"redact/keys.py"},
    "typer": {"redact/cli/"},
    "rich": {"redact/cli/", "audit/render/terminal.py"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_banned_imports_stay_in_their_module() -> None:
    offenders = []
    for package in ("redact", "audit", "policies"):
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            for name in _imports(path) & RULES.keys():
                if not any(rel == allowed or (allowed.endswith("/") and rel.startswith(allowed))
                           for allowed in RULES[name]):
                    offenders.append(f"{rel} imports {name}")
    assert not offenders, offenders



def _module_imports(path: Path) -> tuple[set[str], set[str]]:
    """(modules imported at module level, modules imported inside a function), dotted, absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    inner: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                inner.update(_names(sub))
    for node in ast.walk(tree):
        top.update(_names(node))
    return top - inner, inner


def _names(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return {node.module}
    return set()


def test_the_shared_detectors_are_a_lower_layer() -> None:
    """redact/contract/ (issue 14): the detectors redactor and scanner share. It imports only the
    standard library, itself and the format model; the one way up is the secrets adapter, inside
    `detectors.secret_rules`, until the secrets layer moves down."""
    offenders = []
    upward = []
    for path in sorted((ROOT / "redact" / "contract").glob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        top, inner = _module_imports(path)
        for name in top:
            root = name.split(".")[0]
            if root in ("redact", "audit") and not name.startswith(("redact.contract", "redact.model")):
                offenders.append(f"{rel} imports {name}")
        upward += [f"{rel}: {name}" for name in inner if name.split(".")[0] == "audit"]
    assert not offenders, offenders
    assert upward == ["redact/contract/detectors.py: audit.secrets"]


def test_the_redactor_never_imports_the_scanner_at_module_level() -> None:
    """The scanner is run after a redaction from a few entry points, inside functions (a lazy
    import); no redact/ module but the CLI loads audit/ when it is imported."""
    offenders = []
    for path in sorted((ROOT / "redact").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("redact/cli/"):
            continue
        top, _ = _module_imports(path)
        offenders += [f"{rel} imports {name}" for name in top if name.split(".")[0] == "audit"]
    assert not offenders, offenders


def test_the_scanner_takes_the_shared_detectors_from_the_contract_layer() -> None:
    """audit/ asks redact/contract/ for words, language, phrases and shapes: one copy of each."""
    assert not (ROOT / "audit" / "words.py").exists() and not (ROOT / "audit" / "language.py").exists()
    imports = {path.name: _module_imports(path)[0] for path in (ROOT / "audit").glob("*.py")}
    assert "redact.contract.language" in imports["scan.py"] and "redact.contract.language" in imports["native.py"]
    assert "redact.contract.phrases" in imports["taint.py"] and "redact.contract.shapes" in imports["values.py"]
