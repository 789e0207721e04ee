"""Goose: the store `sessions.db` (read read-only, one map per session) and the JSON Lines sessions of
each generation (2025 with a metadata line, February 2025 Rust-enum items, late 2024 untagged items)
read by one reader; the JSON Lines scrubbed in their own format; the projects index skipped by name."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from redact.api import redact_bytes, redact_file
from redact.cli import main
from redact.errors import BadInput
from redact.formats.registry import raw_format
from tests.formats import goosefix
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.formats.seed_strict import violations

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _check_2025(m: dict[str, object], skipped: object) -> None:
    assert not violations(m)
    want = goosefix.COUNTS
    events = m["events"]
    assert isinstance(events, list)
    kinds = Counter(e["kind"] for e in events)
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"] and kinds["tool"] == 1  # the extension's tool
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    assert [e["verb"] for e in events if e["kind"] in ("exec", "verify")] == ["pytest", "git status"]
    assert sum(1 for e in events if e["kind"] in CALLS and e.get("err")) == want["failed"]
    assert [(f["path"], f.get("op")) for f in m["files"]] == [("src/app.py", None), ("src/new.py", "create")]  # type: ignore[index]
    assert [e["thinking"] for e in events if e["kind"] == "llm"] == [False, True, False, True]
    assert [e["images"] for e in events if e["kind"] == "user"] == [0, 1]
    assert all(e.get("in", 0) == 0 for e in events if e["kind"] == "llm")  # session totals never spread
    assert skipped == want["skipped_items"]


def test_a_2025_session_becomes_a_map() -> None:
    result = redact_bytes(goosefix.session_2025(), name=f"{goosefix.SID}.jsonl", policy="default")
    assert result.session_map["session"]["agentTool"] == "goose"
    _check_2025(result.session_map, result.report.skipped_records["content:summarizationRequested"])


def test_a_store_session_reads_as_the_2025_file(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    goosefix.sessions_db(db)
    before = db.read_bytes()
    result = redact_file(db, policy="default")
    assert db.read_bytes() == before
    m = result.session_map
    _check_2025(m, result.report.skipped_records["content:summarizationRequested"])
    assert m["session"]["startedAt"] == "2026-03-01T10:00:00.000Z"  # the row's created_at, in UTC
    from redact.formats.stores import export

    _, data = export(db, None, where="x")
    assert b"db.recipe" not in data and b"db.todo" not in data  # recipe and extension data never selected


def test_the_older_generations_are_read() -> None:
    feb = redact_bytes(goosefix.session_feb_2025(), name="feb.jsonl", policy="default")
    kinds = Counter(e["kind"] for e in feb.session_map["events"])
    assert kinds["user"] == 1 and kinds["llm"] == 2 and sum(kinds[k] for k in CALLS) == 1
    assert feb.report.skipped_records["item:ToolRequest:<not parsed>"] == 1
    old = redact_bytes(goosefix.session_2024(), name="BsNz.jsonl", policy="default").session_map
    events = old["events"]
    # calls without ids take their results by order: the read, then `make` (a result, no error)
    assert [e["kind"] for e in events if e["kind"] in CALLS] == ["read", "exec"]
    assert [e.get("outBytes") for e in events if e["kind"] in CALLS][1] == 2


def test_a_cut_last_line_is_bad_input_unless_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(goosefix.session_2025()[:-25])
    assert main([str(path), "-o", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert "cut.jsonl" in err and "10" in err and "git.output" not in err and not (tmp_path / "m.json").exists()
    result = redact_file(path, policy="default", skip_bad_lines=True)
    assert result.session_map["totals"]["calls"] == goosefix.COUNTS["calls"]


def test_native_keeps_each_generation_line_for_line(tmp_path: Path) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        seen.append(f"zqcanary{len(seen)}qz")
        return seen[-1] + " and more"

    for name, build in (("a.jsonl", goosefix.session_2025), ("b.jsonl", goosefix.session_feb_2025),
                        ("c.jsonl", goosefix.session_2024)):
        src, out = tmp_path / name, tmp_path / f"native-{name}"
        src.write_bytes(build(text))
        assert main([str(src), "--to", "native", "-o", str(out)]) == 0
        written = out.read_bytes()
        assert not [c for c in seen if c.encode() in written]
        assert len(written.splitlines()) == len(src.read_bytes().splitlines())
        again = redact_bytes(written, name=name, policy="default").session_map
        assert again["totals"]["calls"] == redact_bytes(src.read_bytes(), name=name).session_map["totals"]["calls"]
    first = [orjson.loads(line) for line in (tmp_path / "native-a.jsonl").read_bytes().splitlines()]
    assert first[0]["working_dir"] == "." and first[0]["total_tokens"] == 12710
    call = first[2]["content"][1]["toolCall"]["value"]
    assert call == {"name": "developer__shell", "arguments": {"command": "pytest"}}
    memory = first[4]["content"][2]["toolCall"]["value"]
    assert memory["arguments"] == {}  # an extension's arguments are content


def test_native_is_not_offered_for_the_store(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    goosefix.sessions_db(db)
    assert main([str(db), "--to", "native", "-o", str(tmp_path / "x")]) == 2


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(tmp_path: Path, policy: str) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        seen.append(f"zqcanary{len(seen)}qz")
        return seen[-1] + " and more"

    db = tmp_path / "sessions.db"
    goosefix.sessions_db(db, text)
    outs = [redact_file(db, policy=policy, key=KEY if policy == "public" else None)]
    outs += [redact_bytes(build(text), name="s.jsonl", policy=policy, key=KEY if policy == "public" else None)
             for build in (goosefix.session_2025, goosefix.session_feb_2025, goosefix.session_2024)]
    for result in outs:
        assert result.session_map["events"]
        out = result.data.decode() + str(result.report.as_dict())
        assert not [c for c in seen if c in out]


def test_each_home_finds_the_store_and_the_files(tmp_path: Path) -> None:
    fmt = raw_format("goose")
    assert fmt is not None and len(fmt.homes) >= 2
    for home in fmt.homes:
        folder = tmp_path / home.removeprefix("~/")
        folder.mkdir(parents=True)
        goosefix.sessions_db(folder / "sessions.db")
        (folder / "20250513_120000.jsonl").write_bytes(goosefix.session_2025())
        (folder / "BsNz.jsonl").write_bytes(goosefix.session_2024())
        (folder / "notes.jsonl").write_bytes(b'{"note": 1}\n')
        assert [p.name for p in fmt.list_sessions(folder)] == ["20250513_120000.jsonl", "BsNz.jsonl", "sessions.db"]


def test_the_projects_index_is_skipped_by_name(tmp_path: Path) -> None:
    index = tmp_path / "projects.json"
    index.write_text('{"projects": {"/home/dana/src/shop": {"path": "/home/dana/src/shop"}}}')
    with pytest.raises(BadInput, match="not a session"):
        redact_file(index)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_any_slot_of_any_generation_reaches_a_map(base: str) -> None:
    """A fresh canary in every text slot of each JSON Lines generation: none reaches a map or a
    report, under every policy (the store is covered with the other stores,
    tests/formats/test_chat_stores_contract.py)."""
    for build in (goosefix.session_2025, goosefix.session_feb_2025, goosefix.session_2024):
        canaries = Canaries(base)
        data = build(lambda slot: canaries() + " and words")
        for policy, key in POLICIES:
            check(data, canaries, policy, key, name="s.jsonl", input_format="goose")
