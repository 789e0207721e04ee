"""Each raw format has one executable table (its native tree) and everything reads it.

- every key a format's reader reads, over the format's fixtures, is a field its table classifies.

Both iterate the registry, so a format added later is covered without editing this file.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from redact.errors import BadInput
from redact.formats.fieldtable import legacy_fields
from redact.formats.registry import Format, formats
from redact.report import RedactionReport
from tests.formats.recording import recording

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
NAMES = [fmt.name for fmt in formats()]


def _format(name: str) -> Format:
    return next(fmt for fmt in formats() if fmt.name == name)


def _inputs(name: str) -> list[tuple[Path, bytes]]:
    """The format's fixtures: its folder under tests/fixtures/ (every file of a session layout), and
    the sessions right in examples/<name>/ (read with their companion files)."""
    folder, example = FIXTURES / name, ROOT / "examples" / name
    found = sorted(folder.rglob("*")) if folder.is_dir() else []
    found += sorted(p for p in example.glob("*.json*")) if example.is_dir() else []
    return [(p, p.read_bytes()) for p in found if p.is_file()]


def _word() -> str:
    return "quill"


def _generated(name: str) -> list[tuple[Path, bytes]]:
    """Inputs the fixture generators of tests/formats/ and tests/native/ build (the richer sessions:
    every slot filled; the native ones put a word in every text slot)."""
    if name == "claude-code":
        from tests.formats import notesfix
        from tests.native.test_claude_code_native import session

        return [(Path("notes.jsonl"), notesfix.transcript()), (Path("native.jsonl"), session().bytes())]
    if name == "codex":
        from tests.formats import make_codex
        from tests.native import codexfix

        return [(Path("modern.jsonl"), make_codex.modern()), (Path("legacy.jsonl"), make_codex.legacy()),
                (Path("legacy.json"), make_codex.legacy_json()), (Path("native.jsonl"), codexfix.rollout(_word)),
                (Path("native-legacy.jsonl"), codexfix.legacy(_word)),
                (Path("native.json"), codexfix.document(_word))]
    if name == "session-record":
        from tests.native import srfix

        return [(Path("native.jsonl"), srfix.stream(_word))]
    if name == "teaagent":
        from tests.native import teafix

        return [(Path("native.jsonl"), teafix.log(_word))]
    if name == "agent-replay":
        from tests.native import arfix

        return [(Path(f"native-{layout}.json"), arfix.trace(_word, layout=layout)) for layout in ("nested", "flat", "lines")]
    return []


@pytest.mark.parametrize("name", NAMES)
def test_reader_reads_only_classified_fields(name: str) -> None:
    fmt = _format(name)
    table = fmt.table()
    inputs = _inputs(name) + _generated(name)
    if not inputs:
        pytest.skip(f"no fixtures for {name} under tests/fixtures/{name}/")
    with recording(table) as log:
        for path, data in inputs:
            try:
                fmt.read(data, path.name, report=RedactionReport(source=path.name),
                         companions=fmt.discover(path) if path.is_file() else [], skip_bad_lines=True,
                         file_stem=path.stem)
            except BadInput:
                continue
    assert log.read, f"{name}: the reader read nothing through the recorder"
    assert not log.unclassified, f"{name}: the reader reads fields its table does not classify: " \
        f"{sorted(log.unclassified)}"


@pytest.mark.parametrize("name", NAMES)
def test_no_hand_written_field_list(name: str) -> None:
    """The five formats of issue 14 keep no second list of their fields (a format merged later in
    the older shape is still rendered from its FIELDS, see redact/formats/fieldtable.py)."""
    if name in {"claude-code", "codex", "session-record", "teaagent", "agent-replay"}:
        assert legacy_fields(_format(name)) is None


@pytest.mark.parametrize("name", NAMES)
def test_native_scrubber_writes_only_classified_fields(name: str) -> None:
    """The other direction: what `--to native` writes from the same fixtures is proven field by field
    against the same table by the native scan (audit/native.py: a field the table does not classify
    is `grammar.unknown-field`); its grammar layer finds nothing."""
    from audit.native import scan_native
    from redact.native import scrub_unproven
    from redact.policy.load import load_policy

    fmt = _format(name)
    inputs = [(p, d) for p, d in _inputs(name) + _generated(name)]
    if not inputs:
        pytest.skip(f"no fixtures for {name} under tests/fixtures/{name}/")
    scanned = 0
    for path, data in inputs:
        report = RedactionReport(source=path.name)
        try:
            out = scrub_unproven(data, fmt.name, name=path.name, policy=load_policy("default"), key=None,
                                 mode=None, report=report, skip_bad_lines=True)
        except BadInput:
            continue
        kept = {cat: sorted(vals) for cat, vals in report.idents.kept.items()}
        result = scan_native(out, fmt.name, path_mode=report.path_mode, kept_identifiers=kept)
        grammar = [f for f in result.findings if f.layer == "grammar"]
        assert not grammar, (path.name, [(f.rule, f.pointer) for f in grammar])
        scanned += 1
    assert scanned


@pytest.mark.corpus
@pytest.mark.parametrize("name", NAMES)
def test_reader_reads_only_classified_fields_of_real_sessions(name: str) -> None:
    """The same over the shared corpus of real sessions (../shared/corpus/<format>/, when present)."""
    from tests.conftest import CORPUS

    folder = CORPUS / name
    if not folder.is_dir():
        pytest.skip(f"../shared/corpus/{name} is not present")
    fmt = _format(name)
    with recording(fmt.table()) as log:
        for path in sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".json")):
            try:
                fmt.read(path.read_bytes(), path.name, report=RedactionReport(source=path.name), companions=[],
                         skip_bad_lines=True, file_stem=path.stem)
            except BadInput:
                continue
    assert not log.unclassified, f"{name}: the reader reads fields its table does not classify: " \
        f"{sorted(log.unclassified)}"
