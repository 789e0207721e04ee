"""The format registry is the one list of raw formats: every format folder is in it, every entry
answers the whole `Format` protocol, and detection, native dispatch, the native tables and batch
discovery find a format only through it."""
from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from redact.build.facts import SessionFacts
from redact.formats.detect import FORMATS, detect
from redact.formats import registry
from redact.formats.registry import PACKAGES, Format, formats, raw_format, raw_formats
from redact.tables.spec import Table
from redact.report import RedactionReport

FOLDER = Path(registry.__file__).parent


def test_every_format_folder_is_registered_once() -> None:
    folders = {p.name for p in FOLDER.iterdir() if p.is_dir() and p.name != "__pycache__"}
    unpackaged = {name for name in folders if not (FOLDER / name / "__init__.py").is_file()}
    assert not unpackaged, f"a format folder without __init__.py is never registered: {unpackaged}"
    assert sorted(PACKAGES) == sorted(folders)
    assert len(set(PACKAGES)) == len(PACKAGES)
    for package, fmt in zip(PACKAGES, formats(), strict=True):
        assert fmt is sys.modules[f"redact.formats.{package}"].FORMAT
        assert fmt.name.replace("-", "_") == package
    assert len(set(raw_formats())) == len(PACKAGES)


def test_listing_the_formats_imports_no_reader() -> None:
    """Start-up: the registry and the folders' __init__ import nothing heavy."""
    code = ("import sys, redact.formats.detect, audit.source_text; "
            "heavy = [m for m in sys.modules if m.startswith(('redact.build', 'redact.native')) "
            "or m.count('.') >= 3 and m.startswith('redact.formats.')]; print(heavy)")
    import subprocess

    root = Path(registry.__file__).parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root, env={"PYTHONPATH": str(root)}).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("fmt", formats(), ids=lambda f: f.name)
def test_every_format_answers_the_protocol(fmt: Format, tmp_path: Path) -> None:
    assert isinstance(fmt, Format)
    assert FORMATS[fmt.name] == fmt.description and fmt.description.strip()
    assert isinstance(fmt.jsonl, bool) and isinstance(fmt.has_sessions, bool)
    assert fmt.sniff([{"type": "not-a-known-record"}]) is False
    assert fmt.sniff_doc({"not": "a trace"}) is False
    table = fmt.table()
    assert isinstance(table, Table)
    assert table.format == fmt.name
    if fmt.jsonl:  # a source the taint reader reads line by line is one the native proof reads so too
        assert table.jsonl
    facts = fmt.read(b"", "empty", report=RedactionReport(source="empty"), companions=None,
                     skip_bad_lines=False, file_stem=None)
    assert isinstance(facts, SessionFacts)
    session = tmp_path / "session.jsonl"
    session.write_bytes(b"")
    assert fmt.discover(session) == []
    assert fmt.list_sessions(tmp_path / "empty-folder-that-is-not-there") == []
    scrub = fmt.scrubber()
    params = inspect.signature(scrub).parameters
    assert {"data", "name", "policy", "key", "mode", "report", "skip_bad_lines"} <= set(params)


class _Fake:
    """A format that exists only in this test: the consumers must find it through the registry."""

    name = "fake-format"
    description = "a test-only format"
    jsonl = True
    has_sessions = True
    native = True

    def sniff_bytes(self, head: bytes) -> bool:
        return False

    def store(self) -> Any | None:
        return None

    def assemble(self, path: Path) -> bytes | None:
        return None

    def sniff(self, records: list[dict[str, Any]]) -> bool:
        return bool(records) and records[0].get("fake_format") == 1

    def sniff_doc(self, doc: Any) -> bool:
        return False

    def table(self) -> Table:
        return TABLE_SENTINEL

    def read(self, data: Any, name: str, **kwargs: Any) -> SessionFacts:
        raise AssertionError("not read here")

    def discover(self, path: Path) -> list[Any]:
        return []

    def list_sessions(self, folder: Path) -> list[Path]:
        return sorted(folder.glob("*.fake"))

    def scrubber(self) -> Callable[..., bytes]:
        def scrub(data: bytes, *, name: str, **kwargs: Any) -> bytes:
            return b""
        return scrub


TABLE_SENTINEL = Table(format="fake-format", root=None)  # type: ignore[arg-type]


@pytest.fixture
def fake_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module = types.ModuleType("redact.formats.fake_format")
    module.FORMAT = _Fake()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "redact.formats.fake_format", module)
    monkeypatch.setattr(registry, "PACKAGES", (*PACKAGES, "fake_format"))
    registry.formats.cache_clear()
    yield
    registry.formats.cache_clear()


def test_one_registry_line_reaches_every_consumer(fake_registered: None, tmp_path: Path) -> None:
    from redact.batch.inputs import sessions_in
    from redact.native import native_formats
    from redact.formats.tables import table

    assert isinstance(raw_format("fake-format"), _Fake)
    assert detect(b'{"fake_format": 1}\n{"fake_format": 1}\n', "x") == "fake-format"
    assert "fake-format" in native_formats()
    assert table("fake-format") is TABLE_SENTINEL
    (tmp_path / "one.fake").write_text("{}")
    assert [p.name for p in sessions_in(tmp_path)] == ["one.fake"]


def test_without_its_registry_line_a_format_is_unknown() -> None:
    assert raw_format("fake-format") is None
    assert "fake-format" not in raw_formats()


def test_the_shared_tool_spellings_are_claude_codes_names() -> None:
    """toolnames.HARNESS_SPELLINGS (the Claude Code names that session records and traces reuse,
    kept at the shared level so no folder's table reaches into Claude Code's) is exactly the set of
    Claude Code's tool names that normalise to a shared name but that no plain spelling gives."""
    from redact.formats import toolnames, tooltable
    from redact.formats.claude_code.native_table import TOOL_KINDS

    plain = {spelled for norm in toolnames.KINDS
             for spelled in (norm, norm.capitalize(), tooltable._camel(norm))}
    derived = {name for name in TOOL_KINDS if toolnames.normalise(name) in toolnames.KINDS and name not in plain}
    assert set(toolnames.HARNESS_SPELLINGS) == derived
    assert tooltable.spellings()["MultiEdit"] == "edit"
