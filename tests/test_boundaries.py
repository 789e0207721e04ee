"""Module boundaries (STYLE.md principle 5), enforced on the source rather than hoped for.

- only redact/contract/secrets/plugins.py imports detect-secrets (its plugins can send a secret over the network);
- only redact/keys.py holds key material: it alone imports hmac or cryptography;
- only the CLI (redact/cli/, and the terminal renderer it alone imports) imports typer or rich.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = {
    "detect_secrets": {"redact/contract/secrets/plugins.py"},
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

