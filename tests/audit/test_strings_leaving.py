"""The audit report lists every string that leaves, grouped by class: relative file paths (the most
revealing thing under `default`) included, in every report format. Found by a user: the report said
its identifiers were what leaves the machine, while paths were neither listed nor counted."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from audit.render import render
from audit.render.terminal import render_terminal
from redact.api import redact_bytes
from tests.hardening.helpers import EXAMPLE_MAP, cli


def _strings(value: Any) -> set[str]:
    """Every string value anywhere in `value` (a generic walk: no field table)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


@pytest.fixture(scope="module")
def redacted() -> tuple[dict[str, Any], Any]:
    result = redact_bytes(EXAMPLE_MAP.read_bytes(), name="session-map.json", policy="default")
    return result.session_map, result.report


def test_every_string_of_the_map_is_listed_in_the_json_report(redacted: tuple[dict[str, Any], Any]) -> None:
    session_map, report = redacted
    view = json.loads(render(report, session_map, "json"))
    listed = {v for vals in view["identifiersInClear"].values() for v in vals}
    listed |= {v for vals in view["stringsLeaving"].values() for v in vals}
    leaving = _strings(session_map) - {session_map["contentHash"]}
    assert leaving - listed == set()
    paths = {f["path"] for f in session_map["files"]}
    assert paths and paths <= set(view["stringsLeaving"]["path"]) | set(view["stringsLeaving"].get("label", []))


@pytest.mark.parametrize("fmt", ["md", "terminal", "html"])
def test_every_string_is_in_the_other_formats(redacted: tuple[dict[str, Any], Any], fmt: str) -> None:
    session_map, report = redacted
    if fmt == "terminal":
        buf = io.StringIO()
        render_terminal(report.as_dict(), session_map, Console(file=buf, width=400, color_system=None))
        text = buf.getvalue()
    elif fmt == "html":
        import html

        page = render(report, session_map, fmt)
        text = html.unescape(page.split("<section id=leaving>", 1)[1].split("</section>", 1)[0])
    else:
        text = render(report, session_map, fmt).replace("\\", "")  # markdown escapes punctuation
    view = json.loads(render(report, session_map, "json"))
    for cls, values in view["stringsLeaving"].items():
        for value in values:
            assert value in text, (cls, value)
    assert "src/orders/service.py" in text


def test_audit_command_lists_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.json"
    assert cli(capsys, EXAMPLE_MAP, "-o", out).code == 0
    run = cli(capsys, "audit", out, "-f", "json")
    assert run.code == 0
    view = json.loads(run.out)
    assert "src/orders/service.py" in view["stringsLeaving"]["path"]


def test_a_value_not_of_its_class_shape_is_masked() -> None:
    doc = json.loads(EXAMPLE_MAP.read_text())
    doc["agents"][0]["id"] = "please wire the payroll export to the ledger today"
    view = json.loads(render({"source": "x"}, doc, "json"))
    shown = {v for vals in view["stringsLeaving"].values() for v in vals}
    assert "please wire the payroll export to the ledger today" not in shown
    assert any(v.startswith("plea\u2026(") for v in view["stringsLeaving"]["id"])
