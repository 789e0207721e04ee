"""Each raw format has one executable table (its native tree) and everything reads it.

- every key a format's reader reads, over the format's fixtures (tests/formats/table_inputs.py) and
  the shared corpus, is a field its table classifies;
- every field its native scrubber writes is one the table classifies (the native scan proves it).

They iterate the registry, so a format added later is covered without editing this file.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from redact.errors import BadInput, UsageError
from redact.formats.fieldtable import legacy_fields
from redact.formats.registry import Format, formats
from redact.tables.spec import DROP
from redact.report import RedactionReport
from tests.formats.recording import recording
from tests.formats.table_inputs import CORPUS_FOLDERS, GENERATED, store_sessions

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


def _generated(name: str) -> list[tuple[Path, bytes]]:
    """The sessions the format's fixture generators build (tests/formats/table_inputs.py)."""
    return GENERATED[name]()


def test_every_format_has_inputs() -> None:
    """A format added to the registry needs its generated inputs here (it is not skipped), and the
    corpus map names only registered formats."""
    assert set(GENERATED) == set(NAMES)
    assert set(CORPUS_FOLDERS) <= set(NAMES)


def _read_all(fmt: Format, inputs: list[tuple[Path, bytes]]) -> int:
    """Read each input; the number read without BadInput."""
    done = 0
    splits = getattr(fmt, "runs", None)  # a log of several runs is read one run (session) at a time
    inputs = [(path, run) for path, data in inputs
              for run in ([r for _, r in fmt.part(splits)(data)] or [data] if splits else [data])]  # type: ignore[attr-defined]
    for path, data in inputs:
        try:
            fmt.read(data, path.name, report=RedactionReport(source=path.name),
                     companions=fmt.discover(path) if path.is_file() else [], skip_bad_lines=True,
                     file_stem=path.stem)
        except BadInput:
            continue
        done += 1
    return done


#: Formats whose reader parses no JSON at all: Aider's history is Markdown, read line by line.
TEXT_ONLY = {fmt.name for fmt in formats() if getattr(fmt, "text", False)}


@pytest.mark.parametrize("name", NAMES)
def test_reader_reads_only_classified_fields(name: str) -> None:
    fmt = _format(name)
    inputs = _inputs(name) + _generated(name)
    assert inputs, f"{name}: no inputs (tests/formats/table_inputs.py)"
    with recording(fmt.table()) as log:
        done = _read_all(fmt, inputs)
    assert done, f"{name}: every input was refused"
    if name in TEXT_ONLY:
        # The reader reads Markdown lines, never a JSON record: nothing is parsed, so no field is
        # read, and the table classifies no field (it drops every record: no native output).
        assert not log.parsed and not log.read and not log.unclassified and not log.inside_leaf
        assert fmt.table().root == DROP and not fmt.table().named and fmt.table().document is None
        return
    assert log.read, f"{name}: the reader read nothing through the recorder"
    assert not log.unclassified, f"{name}: the reader reads fields its table does not classify: " \
        f"{sorted(log.unclassified)}"


@pytest.mark.parametrize("name", NAMES)
def test_no_hand_written_field_list(name: str) -> None:
    """No format keeps a second list of its fields beside its one table (redact/formats/fieldtable.py
    still reads a folder in the older shape). Aider is the one exception: its history is Markdown, of
    which the reader reads structured lines, not JSON fields; its native table classifies no field
    (no native output), and its one table is its line table (`table.LINES`, each row holding the
    grammar the reader matches), of which FIELDS is the docs' rendering (tests/formats/test_aider.py)."""
    if name in TEXT_ONLY:
        assert legacy_fields(_format(name)) is not None and _format(name).table().root == DROP
        return
    assert legacy_fields(_format(name)) is None


@pytest.mark.parametrize("name", NAMES)
def test_native_scrubber_writes_only_classified_fields(name: str) -> None:
    """The other direction: what `--to native` writes from the same fixtures is proven field by field
    against the same table by the native scan (audit/native.py: a field the table does not classify
    is `grammar.unknown-field`); its grammar layer finds nothing. A format without native output
    (a SQLite store, a Markdown history) refuses every input: it passes no field at all."""
    from audit.native import scan_native
    from redact.native import scrub_unproven
    from redact.policy.load import load_policy

    fmt = _format(name)
    inputs = _inputs(name) + _generated(name)
    assert inputs, f"{name}: no inputs (tests/formats/table_inputs.py)"
    scanned = 0
    for path, data in inputs:
        report = RedactionReport(source=path.name)
        try:
            out = scrub_unproven(data, fmt.name, name=path.name, policy=load_policy("default"), key=None,
                                 mode=None, report=report, skip_bad_lines=True)
        except UsageError:
            assert not fmt.native, f"{name}: --to native is offered but refused {path.name}"
            scanned += 1
            continue
        except BadInput:
            continue
        assert fmt.native, f"{name}: --to native is not offered, yet the scrubber wrote {path.name}"
        kept = {cat: sorted(vals) for cat, vals in report.idents.kept.items()}
        result = scan_native(out, fmt.name, path_mode=report.path_mode, kept_identifiers=kept)
        grammar = [f for f in result.findings if f.layer == "grammar"]
        assert not grammar, (path.name, [(f.rule, f.pointer) for f in grammar])
        scanned += 1
    assert scanned


def _corpus_inputs(fmt: Format, folder: Path) -> list[tuple[Path, bytes]]:
    """The sessions of `fmt` in its corpus folder, found as the tool finds them: each session of a
    SQLite store as its export, any other file when detection names this format."""
    from redact.formats.detect import detect
    from redact.io.store import is_sqlite

    found: list[tuple[Path, bytes]] = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if is_sqlite(path):
            found += store_sessions(path) if fmt.store() is not None else []
            continue
        data = path.read_bytes()
        try:
            if detect(data, path.name) == fmt.name:
                found.append((path, data))
        except BadInput:
            continue
    return found


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(CORPUS_FOLDERS))
def test_reader_reads_only_classified_fields_of_real_sessions(name: str) -> None:
    """The same over the shared corpus of real sessions (../shared/corpus/<folder>/, when present)."""
    from tests.conftest import corpus_dir

    fmt = _format(name)
    inputs = _corpus_inputs(fmt, corpus_dir(CORPUS_FOLDERS[name]))
    assert inputs, f"{name}: no session of the format in its corpus folder"
    with recording(fmt.table()) as log:
        done = _read_all(fmt, inputs)
    assert done
    if name in TEXT_ONLY:
        assert not log.parsed and not log.read and not log.unclassified
        return
    assert log.read, f"{name}: the reader read nothing through the recorder"
    assert not log.unclassified, f"{name}: the reader reads fields its table does not classify: " \
        f"{sorted(log.unclassified)}"
