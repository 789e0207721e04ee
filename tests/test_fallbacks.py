"""Replace, do not refuse (issue 14): names the scanner would flag are replaced, and the map is written.

A notes-style repository (sentence-named folders and files in five languages, dates, emoji) used to
be refused under `default` and `internal`, and under `--mode dirs_only` too: its names read as prose.
Now each flagged name becomes a digest token, the scanner still runs on the output and passes, and
no word of those names is left in the map or in any report format.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.render import render
from redact.api import redact_bytes
from redact.contract.detectors import rule_of
from redact.errors import LeakFound
from redact.keys.material import Key, sha256_hex
from redact.apply.pathguard import guard_path
from tests.formats import notesfix

KEY = Key(bytes(range(32)), source="<test key>")
RUNS = [("default", None, None), ("default", "dirs_only", None), ("internal", None, None),
        ("internal", "dirs_only", None), ("default", None, KEY), ("public", None, KEY)]


def _redact(data: bytes, policy: str, mode: str | None, key: Key | None):
    return redact_bytes(data, name="session.jsonl", policy=policy, mode=mode, key=key)


@pytest.mark.parametrize(("policy", "mode", "key"), RUNS)
def test_a_notes_repository_yields_a_map_without_its_names(policy: str, mode: str | None,
                                                          key: Key | None) -> None:
    result = _redact(notesfix.transcript(), policy, mode, key)  # raised LeakFound before the fix
    assert result.report.scanner and set(result.report.scanner.values()) <= {"pass", "skipped"}
    assert result.report.scanner["taint"] == "pass"
    outputs = {"map": result.data.decode("utf-8")}
    for fmt in ("json", "md", "html"):
        outputs[fmt] = render(result.report, result.session_map, fmt)
    for where, out in outputs.items():
        low = out.lower()
        assert not [w for w in notesfix.words() if w.lower() in low], where
        assert not [n for n in notesfix.names() if n in out], where
    assert len(result.session_map["files"]) == len(notesfix.NOTES)


def test_fallbacks_are_counted_and_shown_in_every_report_format() -> None:
    result = _redact(notesfix.transcript(), "default", None, None)
    fallbacks = result.report.fallbacks
    # eight distinct paths hold a sentence; README.md holds none
    assert sum(n for rule, n in fallbacks.items() if rule.startswith("path/")) == len(notesfix.NOTES) - 1
    assert result.report.as_dict()["fallbacks"] == dict(sorted(fallbacks.items()))
    for fmt in ("json", "md", "html"):
        shown = render(result.report, result.session_map, fmt)
        for rule, n in fallbacks.items():
            assert rule in shown and str(n) in shown, fmt


def test_relative_tokens_are_the_dirs_only_recipe_and_keep_known_extensions() -> None:
    rel = f"{notesfix.FOLDERS[0]}/{notesfix.FILES[0]}"
    digest = sha256_hex(rel.encode("utf-8"))[:6]
    folder = "\u2022" + sha256_hex(notesfix.FOLDERS[0].encode("utf-8"))[:6]
    assert guard_path(rel, "relative", None) == f"{folder}/\u2022{digest}.md"
    assert guard_path("Inbox/notes for the trip.exe2x", "relative", None).endswith(
        "\u2022" + sha256_hex(b"Inbox/notes for the trip.exe2x")[:6])  # not a known extension
    keyed = guard_path(rel, "relative", KEY)
    assert re.fullmatch("\u2022[0-9a-f]{6}/\u2022[0-9a-f]{6}\\.md", keyed) and keyed != guard_path(rel, "relative", None)
    assert guard_path("src/orders/service.py", "relative", None) == "src/orders/service.py"
    counts: Counter[str] = Counter()
    assert guard_path("src/orders/service.py", "dirs_only", None, counts) == "src/orders/service.py"
    assert not counts


def test_every_shape_the_scanner_flags_in_a_path_is_replaced() -> None:
    counts: Counter[str] = Counter()
    cases = {"docs/Notes on the budget for the spring.md": "language",  # prose
             "docs/plan budget review/x.md": "taint-phrase",  # three words, no glue: a source phrase
             "home/dana/x.md": "home",  # a home folder, relative
             "a/dana@example.org/x.md": "email",
             "build/out | tee log/x.md": "command",
             "keys/ghp_0123456789abcdefghijklmnopqrstuvwxyzAB/x.md": "secrets"}
    for path, rule in cases.items():
        out = guard_path(path, "relative", None, counts)
        assert rule_of(out) is None and out != path, path
        assert counts[f"path/{rule}"] == 1, (path, counts)


def test_a_kept_identifier_the_scanner_would_flag_is_hashed_or_dropped() -> None:
    from redact.apply.identifiers import IdentScrubber
    from redact.policy.load import load_policy

    token = "ghp_" + "0123456789abcdefghijklmnopqrstuvwxyzAB"
    for key in (None, KEY):
        counts: Counter[str] = Counter()
        scrubber = IdentScrubber(load_policy("internal"), key, fallbacks=counts)
        for category in ("repo", "host", "model"):  # keep rules under internal
            out = scrubber.scrub(category, token)
            assert out != token and (out is None) == (key is None)
            assert scrubber.scrub(category, "orders-api") == "orders-api"
            assert token not in scrubber.report.kept[category]
        assert counts == Counter({"identifier:repo/secrets": 1, "identifier:host/secrets": 1,
                                  "identifier:model/secrets": 1})


_WORDS = ("the", "with", "about", "for", "und", "mit", "dem", "les", "avec", "con", "para", "budget",
          "meeting", "Dana", "Quartal", "réunion", "reunión", "équipe", "ventas", "plan", "Projekt",
          "notes", "thoughts", "release", "Kunde", "会議", "議事録", "まとめ", "🚀", "✅", "2025-03-04")
_SEGMENT = st.lists(st.sampled_from(_WORDS), min_size=3, max_size=8).map(" ".join)


@settings(max_examples=25, deadline=None)
@given(st.lists(_SEGMENT, min_size=1, max_size=3), _SEGMENT, st.sampled_from(["default", "internal"]),
       st.sampled_from([None, "dirs_only"]))
def test_prose_path_segments_never_survive_and_never_refuse(folders: list[str], name: str, policy: str,
                                                            mode: str | None) -> None:
    paths = (f"{'/'.join(folders)}/{name}.md", f"{folders[0]}/{name} copy.txt")
    try:
        result = _redact(notesfix.transcript(paths, seed=3), policy, mode, None)
    except LeakFound as exc:  # pragma: no cover - the failure this property exists to catch
        pytest.fail(f"refused: {exc.what}")
    out = result.data.decode("utf-8")
    for seg in [*folders, name]:
        if rule_of(seg) is not None:  # a segment the scanner would flag: never in the output
            assert seg not in out


def test_blocked_runs_name_the_rules_and_a_command_that_passes(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Item 6: with the fallback switched off (the old redactor), `default` is blocked; the message
    names the rules and a command, and that command, run as printed, writes the map."""
    import redact.apply.leaves
    import redact.apply.paths
    from redact.cli import main

    src = tmp_path / "session.jsonl"
    src.write_bytes(notesfix.transcript())
    with monkeypatch.context() as patch:
        for module in (redact.apply.leaves, redact.apply.paths):
            patch.setattr(module, "guard_path", lambda path, *args, **kwargs: path)
        report = tmp_path / "blocked.html"
        assert main([str(src), "-o", str(tmp_path / "out.json"), "--report", str(report)]) == 1
        err = capsys.readouterr().err
    # the blocked run's report says it too (issue 16 item 12), naming the input by its file name only
    page = report.read_text()
    assert "This passes the scanner: agentplay-redact keygen redact.key &amp;&amp; agentplay-redact redact " \
           "session.jsonl --policy public --key-file redact.key -o session.public.json" in page
    assert str(tmp_path) not in page
    assert "language.text" in err and "taint.source-phrase" in err
    command = re.search(r"This passes the scanner: (.*)$", err, re.MULTILINE)
    assert command is not None and "--policy public --key-file" in command.group(1)
    assert not [w for w in notesfix.words() if w in err]
    keygen, run = command.group(1).split(" && ")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(keygen.split()[1:]) == 0
        assert main(run.split()[1:]) == 0
    finally:
        os.chdir(cwd)
    assert (tmp_path / "session.public.json").exists()


def test_a_block_the_public_policy_cannot_lift_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from redact.apply.identifiers import IdentScrubber

    monkeypatch.setattr(IdentScrubber, "scrub", lambda self, category, value: value)  # a redactor bug
    data = notesfix.transcript()
    with pytest.raises(LeakFound) as exc:
        _redact(data, "default", None, None)
    assert "public policy with a key is flagged too" in exc.value.what
    assert "grammar." in exc.value.what and "agentplay-redact" not in exc.value.what


@pytest.mark.parametrize("policy", ["default", "internal"])
def test_native_output_of_a_notes_repository_is_written_without_its_names(policy: str) -> None:
    from redact.api_native import scrub_native
    from redact.policy.load import load_policy
    from redact.report import RedactionReport

    report = RedactionReport(source="session.jsonl", input_format="claude-code")
    out = scrub_native(notesfix.transcript(), "claude-code", name="session.jsonl", policy=load_policy(policy),
                       key=None, mode=None, report=report).decode("utf-8")
    assert not [w for w in notesfix.words() if w.lower() in out.lower()]
    assert sum(report.fallbacks.values()) >= len(notesfix.NOTES) - 1


def test_the_reveal_vault_puts_fallback_names_back() -> None:
    from redact.keys.recorder import TokenLog
    from redact.share.reveal import reveal_map
    from redact.keys.vault import Vault

    log = TokenLog()
    result = redact_bytes(notesfix.transcript(), name="session.jsonl", policy="default", key=KEY,
                          recorder=log)
    assert not [w for w in notesfix.words() if w in result.data.decode("utf-8")]
    revealed = reveal_map(result.session_map, Vault(KEY.fingerprint(), None, log.entries))
    assert sorted(f["path"] for f in revealed.session_map["files"]) == sorted(notesfix.NOTES)
    assert revealed.replaced["fallback"] >= len(notesfix.NOTES)


def test_the_cli_writes_a_notes_map_and_says_how_many_names_it_replaced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from redact.cli import main

    src = tmp_path / "session.jsonl"
    src.write_bytes(notesfix.transcript())
    for mode in ("relative", "dirs_only"):
        out = tmp_path / f"{mode}.json"
        assert main([str(src), "--mode", mode, "-o", str(out), "--report", str(tmp_path / f"{mode}.md")]) == 0
        err = capsys.readouterr().err.replace(str(tmp_path), "<tmp>")  # the folder is named after the test
        assert "replaced instead of refused:" in err and "path/language" in err
        assert not [w for w in notesfix.words() if w in err or w in out.read_text(encoding="utf-8")]


_CHARS = st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèüßñçøå会議録日記まとめ🚀✅"
                              "0123456789 -_,.'!?()&+"))
_ANY_SEGMENT = st.text(_CHARS, min_size=1, max_size=60).filter(lambda s: s.strip(" .") != "")


@settings(max_examples=40, deadline=None)
@given(st.lists(_ANY_SEGMENT, min_size=1, max_size=3), _ANY_SEGMENT, st.sampled_from(["default", "internal"]))
def test_any_path_segments_never_refuse_and_flagged_ones_never_survive(folders: list[str], name: str,
                                                                         policy: str) -> None:
    paths = (f"{'/'.join(folders)}/{name}.md",)
    try:
        result = _redact(notesfix.transcript(paths, seed=5), policy, None, None)
    except LeakFound as exc:  # pragma: no cover - the failure this property exists to catch
        pytest.fail(f"refused: {exc.what}")
    out = result.data.decode("utf-8")
    for seg in [*folders, name]:
        if rule_of(seg) is not None and len(seg.strip()) >= 3:
            assert f"/{seg}/" not in f"/{out}/" and f"\"{seg}" not in out and f"/{seg}" not in out


@pytest.mark.parametrize("policy", ["default", "internal"])
def test_a_codex_rollout_patching_a_notes_repository_is_written_without_its_names(policy: str) -> None:
    from tests.formats.codexfix import Rollout

    r = Rollout("019a1b2c-3d4e-7f60-8a9b-0c1d2e3f4a5b")
    r.meta(notesfix.CWD, remote=None)
    r.turn(notesfix.CWD)
    r.user("tidy the vault")
    for path in notesfix.NOTES:
        cid = r.patch(f"*** Begin Patch\n*** Update File: {path}\n@@\n-x\n+y\n*** End Patch")
        r.patch_output(cid, {"output": "Success", "metadata": {"exit_code": 0}})
    result = redact_bytes(r.bytes(), name="rollout.jsonl", policy=policy)
    out = result.data.decode("utf-8").lower()
    assert not [w for w in notesfix.words() if w.lower() in out]
    assert len(result.session_map["files"]) == len(notesfix.NOTES)
    assert sum(result.report.fallbacks.values()) == len(notesfix.NOTES) - 1


# -- issue 23, item 9: an overlong name is replaced, never the whole map refused ---------------------
@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_an_overlong_file_name_is_replaced_and_the_map_written(policy: str) -> None:
    from redact.api import redact_bytes
    from redact.keys.material import Key
    from tests.formats.ccfix import Transcript, text, tool_use

    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/home/zqdev/code/shop", branch="main")
    t.user("go")
    for rel in ["src/zq" + "a" * 5000 + ".py", "/".join(["d"] * 3000) + "/zqdeep.py", "src/ok.py"]:
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": "/home/zqdev/code/shop/" + rel})])
        t.result(tid, "x")
    t.assistant([text("done")], stop="end_turn")
    result = redact_bytes(t.bytes(), name="s.jsonl", policy=policy, key=Key(bytes(range(32)), source="test"))
    paths = [f["path"] for f in result.session_map["files"]]
    assert len(paths) == 3 and all(len(p) <= 4096 for p in paths)
    assert b"zqa" not in result.data and b"zqdeep" not in result.data
    assert result.report.fallbacks["path/long-name"] >= 1
