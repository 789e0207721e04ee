"""The stable Python API (`redact.redact_file`, `redact_bytes`, `scan`, `audit`) and docs/api.md, which
is generated from its docstrings and must be current."""
from __future__ import annotations

import importlib.util
import inspect
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import redact
from redact.errors import BadInput
from tests.maps import EXAMPLE

ROOT = Path(__file__).resolve().parents[1]
STABLE = ("redact_file", "redact_bytes", "scan", "audit")


def gen_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_api_docs", ROOT / "scripts" / "gen_api_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_api_docs_are_current() -> None:
    current = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert gen_module().render() == current, "docs/api.md is out of date: run scripts/gen_api_docs.py"


def test_api_docs_build_from_the_command_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_api_docs.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_every_stable_function_is_exported_and_documented() -> None:
    assert set(STABLE) <= set(redact.__all__)
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name in redact.__all__:
        func = getattr(redact, name)
        doc = inspect.getdoc(func) or ""
        assert len(doc) > 80, f"redact.{name} needs a docstring"
        assert f"## `redact.{name}`" in text
        for param in inspect.signature(func).parameters:
            assert f"`{param}`" in doc, f"redact.{name}: `{param}` is not documented"


def test_importing_the_package_is_cheap() -> None:
    code = "import sys, redact; print(sorted(m for m in sys.modules if m.startswith(('redact.', 'audit'))))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0 and json.loads(proc.stdout.replace("'", '"')) == []


def test_the_api_works_as_documented(tmp_path: Path) -> None:
    key_path = tmp_path / "key"
    key_path.write_text("7a" * 32)
    key_path.chmod(0o600)
    key = redact.load_key_file(key_path)
    out = tmp_path / "map.json.gz"
    result = redact.redact_file(EXAMPLE, out, policy="public", key=key)
    assert out.exists() and len(result.report.content_hash) == 64
    again = redact.redact_bytes(EXAMPLE.read_bytes(), policy="public", key=key)
    assert again.data == result.data

    check = redact.scan(out)
    assert check.clean and check.verdicts["grammar"] == "pass" and check.verdicts["taint"] == "skipped"
    assert redact.scan(result.session_map, source=EXAMPLE.read_bytes()).verdicts["taint"] == "pass"
    assert redact.scan(result.session_map, source=EXAMPLE).clean
    leaking = redact.scan(EXAMPLE)
    assert not leaking.clean and leaking.findings

    report, session_map = redact.audit(out)
    assert report["contentHash"] == result.report.content_hash and report["contentHashMatches"] is True
    assert session_map == result.session_map

    with pytest.raises(BadInput):
        redact.scan({"schema": "something/else"})

