"""The inputs tests/formats/test_tables.py runs each format's reader and native scrubber over, in one
place: every registered format has an entry (a format without one fails the test, it is not skipped).

Each entry builds its sessions from the fixture generators the format's own tests use (the richer
sessions: every slot filled). A SQLite store is given as the export its reader reads
(`redact/formats/stores.py`: the session tables' rows as JSON Lines); Aider as its Markdown history.
The committed files under tests/fixtures/<name>/ and examples/<name>/ are added by the test itself.
"""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import orjson

Inputs = list[tuple[Path, bytes]]


def _word() -> str:
    return "quill"


def _claude_code() -> Inputs:
    from tests.formats import notesfix
    from tests.native.test_claude_code_native import session

    return [(Path("notes.jsonl"), notesfix.transcript()), (Path("native.jsonl"), session().bytes())]


def _codex() -> Inputs:
    from tests.formats import make_codex
    from tests.native import codexfix

    return [(Path("modern.jsonl"), make_codex.modern()), (Path("legacy.jsonl"), make_codex.legacy()),
            (Path("legacy.json"), make_codex.legacy_json()), (Path("native.jsonl"), codexfix.rollout(_word)),
            (Path("native-legacy.jsonl"), codexfix.legacy(_word)),
            (Path("native.json"), codexfix.document(_word))]


def _session_record() -> Inputs:
    from tests.native import srfix

    return [(Path("native.jsonl"), srfix.stream(_word))]


def _teaagent() -> Inputs:
    from tests.native import teafix

    return [(Path("native.jsonl"), teafix.log(_word))]


def _agent_replay() -> Inputs:
    from tests.native import arfix

    return [(Path(f"native-{layout}.json"), arfix.trace(_word, layout=layout))
            for layout in ("nested", "flat", "lines")]


def _gemini_cli() -> Inputs:
    from tests.native import geminifix

    return [(Path("session-native.jsonl"), geminifix.recording(_word)),
            (Path("session-native.json"), geminifix.recording(_word, layout="json")),
            (Path("session-nodirs.jsonl"), geminifix.recording(_word, directories=False))]


def _copilot_cli() -> Inputs:
    from tests.native import copilotfix

    return [(Path("events.jsonl"), copilotfix.events(_word)),
            (Path("legacy.jsonl"), copilotfix.events(_word, legacy=True))]


def _copilot_vscode() -> Inputs:
    from tests.native import vscodefix

    return [(Path("chat.json"), vscodefix.chat(_word)), (Path("export.json"), vscodefix.chat(_word, export=True)),
            (Path("edits.jsonl"), vscodefix.edit_log(_word))]


def _cline() -> Inputs:
    from tests.native import clinefix

    return [(Path("ui_messages.json"), clinefix.ui_messages(_word))]


def store_sessions(db: Path) -> Inputs:
    """Every session of the SQLite store at `db`, as the JSON Lines export its reader reads."""
    from redact.formats.stores import export, sessions_of
    from redact.io.store import ref

    return [(Path(f"{db.name}#{sid}.jsonl"), export(db, sid, where=str(ref(db, sid)))[1]) for sid in sessions_of(db)]


def _export(build: Callable[[Path], object], name: str) -> Inputs:
    """The sessions of the store `build` writes."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / name
        build(db)
        found = store_sessions(db)
        assert found, f"the {name} fixture holds no session"
        return found


def _opencode() -> Inputs:
    from redact.formats.registry import raw_format
    from tests.formats import storefix
    from tests.formats.test_opencode_tree import tree

    found = _export(lambda db: storefix.opencode_db(db, extra_session=True), "opencode.db")
    with tempfile.TemporaryDirectory() as tmp:  # the pre-1.x JSON tree, assembled as the API does
        session = tree(Path(tmp) / "opencode" / "storage")
        fmt = raw_format("opencode")
        assert fmt is not None
        assembled = fmt.assemble(session)
        assert assembled is not None
        found.append((Path("tree.jsonl"), assembled))
    return found


def _crush() -> Inputs:
    from tests.formats import storefix

    return _export(storefix.crush_db, "crush.db")


def _cursor() -> Inputs:
    from tests.formats import storefix

    return _export(storefix.cursor_global_db, "state.vscdb") + _export(storefix.cursor_workspace_db, "state.vscdb")


def _zed() -> Inputs:
    from tests.formats import zedfix

    return _export(lambda db: zedfix.threads_db(db, with_legacy=True), "threads.db")


def _factory_droid() -> Inputs:
    from tests.formats import droidfix

    return [(Path(f"{droidfix.SID}.jsonl"), droidfix.session())]


def _goose() -> Inputs:
    from tests.formats import goosefix

    return [(Path(f"{goosefix.SID}.jsonl"), goosefix.session_2025()), (Path("feb.jsonl"), goosefix.session_feb_2025()),
            (Path("BsNz.jsonl"), goosefix.session_2024()), *_export(goosefix.sessions_db, "sessions.db")]


def _aider() -> Inputs:
    from tests.formats.test_aider import history

    from redact.formats.aider.table import runs

    # one launch (the history's first): a file of several is a batch of its own (redact/formats/runs.py)
    return [(Path(".aider.chat.history.md"), runs(history().encode())[0][1])]


def _openhands() -> Inputs:
    from tests.formats import jsonfix

    return [(Path("events.json"), jsonfix.openhands_events(jsonfix.plain()))]


def _openhands_v0() -> Inputs:
    from tests.formats import jsonfix, v0fix

    found: Inputs = [(Path("trajectory.json"), v0fix.trajectory(jsonfix.plain()))]
    with tempfile.TemporaryDirectory() as tmp:  # the file store, assembled as the API does
        from redact.formats.registry import raw_format

        conv = v0fix.file_store(Path(tmp), jsonfix.plain())
        fmt = raw_format("openhands-v0")
        assert fmt is not None
        assembled = fmt.assemble(conv / "metadata.json")
        assert assembled is not None
        found.append((Path("events.json"), assembled))
        found += [(Path(p.name), p.read_bytes()) for p in (conv / "metadata.json", conv / "events" / "6.json")]
    return found


def _amp() -> Inputs:
    from tests.formats import jsonfix

    return [(Path(f"{jsonfix.AMP_ID}.json"), jsonfix.amp_thread(jsonfix.plain()))]


def _continue() -> Inputs:
    from tests.formats import jsonfix

    return [(Path(f"{jsonfix.CONTINUE_ID}.json"), jsonfix.continue_session(jsonfix.plain())),
            (Path("posix.json"), jsonfix.continue_session(jsonfix.plain(), workspace="/home/dana/src/shop"))]


def _kiro() -> Inputs:
    from tests.formats import jsonfix, kirofix

    meta, log = kirofix.store_pair(jsonfix.plain())
    return [(Path("export.json"), kirofix.export(jsonfix.plain())),
            (Path(f"{kirofix.SID}.json"), meta), (Path(f"{kirofix.SID}.jsonl"), log)]


def _kiro_legacy() -> Inputs:
    from tests.formats import jsonfix, kirofix

    return [(Path("chat.json"), kirofix.legacy(jsonfix.plain())),
            (Path("q-save"), kirofix.legacy(jsonfix.plain(), writer="amazon-q")),
            *_export(kirofix.legacy_db, "data.sqlite3")]


def _kiro_ide() -> Inputs:
    from tests.formats import jsonfix, kirofix

    return [(Path(f"{kirofix.IDE_ID}.json"), kirofix.ide_session_bytes(jsonfix.plain())),
            (Path("assembled.json"), kirofix.ide_assembly(jsonfix.plain()))]
def _kiro_ide_log() -> Inputs:
    from tests.formats import jsonfix, kirofix

    return [(Path("messages.jsonl"), kirofix.store_log(jsonfix.plain())),
            (Path("session.json"), orjson.dumps(kirofix.store_session(jsonfix.plain(), parentSessionId="sess_parent01",
                                                                     createdReason="tangent")))]


def _pi() -> Inputs:
    from tests.native import pifix

    return [(Path("tree.jsonl"), pifix.session(_word)), (Path("linear.jsonl"), pifix.session(_word, version=1)),
            (Path("glued.jsonl"), pifix.session(_word, glued=True))]


def _qwen_code() -> Inputs:
    from tests.native import qwenfix

    return [(Path(f"{qwenfix.SESSION_ID}.jsonl"), qwenfix.chats(_word)),
            (Path("session-2025-11-08T22-32-c796947e.json"), qwenfix.record(_word))]


def _kimi() -> Inputs:
    from tests.native import kimifix

    return [(Path("wire.jsonl"), kimifix.wire(_word))]


def _hermes() -> Inputs:
    from tests.native import hermesfix

    return [(Path(f"session_{hermesfix.SESSION_ID}.json"), hermesfix.document(_word)),
            (Path("20260512_112801_93b631d4.jsonl"), hermesfix.log(_word))]


#: Format name -> the builder of its generated inputs. One line per registered format.
GENERATED: dict[str, Callable[[], Inputs]] = {
    "claude-code": _claude_code, "codex": _codex, "session-record": _session_record, "teaagent": _teaagent,
    "agent-replay": _agent_replay, "gemini-cli": _gemini_cli, "copilot-cli": _copilot_cli,
    "copilot-vscode": _copilot_vscode, "cline": _cline, "opencode": _opencode, "crush": _crush,
    "cursor": _cursor, "aider": _aider, "openhands": _openhands, "openhands-v0": _openhands_v0, "amp": _amp, "continue-dev": _continue,
    "kiro": _kiro, "kiro-legacy": _kiro_legacy, "kiro-ide": _kiro_ide, "kiro-ide-log": _kiro_ide_log,
    "pi": _pi, "qwen-code": _qwen_code, "kimi": _kimi,
    "zed": _zed, "factory-droid": _factory_droid, "goose": _goose, "hermes": _hermes,
}

#: Format name -> its folder in ../shared/corpus (see its README.md); a format absent here has none.
CORPUS_FOLDERS: dict[str, str] = {
    "claude-code": "claude-code", "codex": "codex", "gemini-cli": "gemini-cli", "copilot-cli": "copilot-cli",
    "copilot-vscode": "copilot-vscode", "cline": "cline", "opencode": "opencode", "crush": "crush",
    "cursor": "cursor", "aider": "aider", "openhands": "openhands", "openhands-v0": "openhands", "amp": "amp", "continue-dev": "continue",
    "kiro": "kiro", "kiro-legacy": "kiro",
    "pi": "pi", "qwen-code": "qwen-code", "kimi": "kimi",
    "zed": "zed", "factory-droid": "factory-droid", "goose": "goose", "hermes": "hermes",
}
