"""Factory Droid: `<uuid>.jsonl` read into a map (the model from `<uuid>.settings.json` beside it),
scrubbed in its own format, found in `~/.factory/sessions/<cwd slug>/`, its credential file never
opened."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from redact.batch import run as batch
from redact.api import redact_bytes, redact_file
from redact.cli import main
from redact.errors import BadInput
from redact.formats.registry import raw_format
from redact.policy.load import load_policy
from tests.formats import droidfix
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.formats.seed_strict import violations

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _home(tmp_path: Path) -> Path:
    return droidfix.write(tmp_path / ".factory" / "sessions")


def test_a_session_becomes_a_map(tmp_path: Path) -> None:
    log = _home(tmp_path)
    result = redact_file(log, policy="default")
    m = result.session_map
    assert not violations(m)
    want = droidfix.COUNTS
    kinds = Counter(e["kind"] for e in m["events"])
    assert m["session"]["agentTool"] == "factory-droid" and m["session"]["id"].endswith(droidfix.SID)
    assert m["session"]["models"] == [droidfix.MODEL]  # from the settings file beside the log
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    assert sum(1 for e in m["events"] if e["kind"] in CALLS and e.get("err")) == want["failed"]
    assert result.report.skipped_records["message:llm_only"] == want["context"]
    assert sorted(f["path"] for f in m["files"]) == ["src/app.py", "src/new.py"]
    assert [e["verb"] for e in m["events"] if e["kind"] in ("exec", "verify")] == ["npm test", "git status"]
    assert m["session"]["startedAt"].startswith("2026-04-21T10:00")


def test_without_its_settings_the_session_names_no_model() -> None:
    m = redact_bytes(droidfix.session(), name="s.jsonl", policy="default").session_map
    assert m["session"]["models"] == [] and m["totals"]["calls"] == droidfix.COUNTS["calls"]


def test_native_keeps_the_layout_and_no_text(tmp_path: Path) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        seen.append(f"zqcanary{len(seen)}qz")
        return seen[-1] + " and more"

    log = droidfix.write(tmp_path, text)
    out = tmp_path / "native.jsonl"
    assert main([str(log), "--to", "native", "-o", str(out), "--policy", "default"]) == 0
    written = out.read_bytes()
    assert not [c for c in seen if c.encode() in written]
    lines = [orjson.loads(line) for line in written.splitlines()]
    source = droidfix.records(text)
    # line for line, but the record type the table does not know (todo_state), dropped and counted
    assert [r["type"] for r in lines] == [r["type"] for r in source if r["type"] != "todo_state"]
    assert lines[0]["cwd"] == "." and "owner" not in lines[0]
    uses = [b for r in lines[1:] for b in r["message"]["content"] if isinstance(b, dict) and b["type"] == "tool_use"]
    assert [u["name"] for u in uses] == ["Read", "Execute", "Edit", "Create", "Grep", "Execute"]
    assert uses[1]["input"] == {"command": "npm test"} and "old_str" not in uses[2]["input"]
    # the scrubbed copy reads back as a session of the same shape
    again = redact_bytes(written, name="n.jsonl", policy="default").session_map
    assert again["totals"]["calls"] == droidfix.COUNTS["calls"]


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(tmp_path: Path, policy: str) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        seen.append(f"zqcanary{len(seen)}qz")
        return seen[-1] + " and more"

    result = redact_file(droidfix.write(tmp_path, text), policy=policy, key=KEY if policy == "public" else None)
    assert result.session_map["events"]
    out = result.data.decode() + str(result.report.as_dict())
    assert not [c for c in seen if c in out]


@pytest.mark.parametrize("start", [".factory/sessions", f".factory/sessions/{droidfix.ROOT.replace('/', '-')}"])
def test_batch_finds_the_session_and_skips_its_settings(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    assert [Path(t.output).name for t in tasks] == [f"{droidfix.SID}.json.gz"]
    assert {Path(o.input).name: o.status for o in other} == {f"{droidfix.SID}.settings.json": batch.SKIPPED}
    assert {o.status for o in batch.run(tasks, batch.Settings(policy=load_policy("default")))} == {batch.WRITTEN}


def test_the_home_of_droid_finds_its_sessions(tmp_path: Path) -> None:
    fmt = raw_format("factory-droid")
    assert fmt is not None and fmt.homes == ("~/.factory/sessions",)
    log = _home(tmp_path)
    assert fmt.list_sessions(tmp_path / fmt.homes[0].removeprefix("~/")) == [log]


def test_the_bring_your_own_key_config_is_never_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _home(tmp_path)
    config = tmp_path / ".factory" / "config.json"
    config.write_text('{"custom_models": [{"api_key": "sk-planted"}]}')
    config.chmod(0)  # not even opened: a read would fail with permission denied
    with pytest.raises(BadInput, match="never read"):
        redact_file(config)
    assert main([str(tmp_path / ".factory"), "--out-dir", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "config.json: skipped" in err and "sk-planted" not in err
    config.chmod(0o600)
    assert not (tmp_path / "elsewhere").exists()
    (tmp_path / "config.json").write_text("{}")  # the same name elsewhere is no credential file
    with pytest.raises(BadInput) as caught:
        redact_file(tmp_path / "config.json")
    assert "never read" not in str(caught.value)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_any_slot_reaches_a_map(base: str) -> None:
    """A fresh canary in every text slot of the session: none reaches a map or a report, under every policy."""
    canaries = Canaries(base)
    data = droidfix.session(lambda slot: canaries() + " and words")
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name=f"{droidfix.SID}.jsonl", input_format="factory-droid")


# -- a header-only session (issue 26) -----------------------------------------------------------------

def _header(**more: object) -> bytes:
    head = {"type": "session_start", "id": "1e497a18-d302-4d2c-b2b1-98903bfebd5a", "title": "New Session",
            "sessionTitle": "New Session", "owner": "dana", "version": 2, "cwd": "/home/dana/vault", **more}
    return orjson.dumps(head) + b"\n"


def test_a_header_only_session_starts_when_its_file_was_written(tmp_path: Path) -> None:
    import os

    path = tmp_path / ".factory" / "sessions" / "-home-dana-vault" / "1e497a18-d302-4d2c-b2b1-98903bfebd5a.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(_header())
    os.utime(path, (1_778_528_621.5, 1_778_528_621.5))  # 2026-05-11T19:43:41.500Z
    out = tmp_path / "m.json"
    result = redact_file(path, out)
    assert out.is_file()
    m = result.session_map
    assert m["events"] == [] and violations(m) == []
    assert m["session"]["startedAt"] == "2026-05-11T19:43:41.500Z" and m["session"]["durationMs"] == 0
    warned = result.report.as_dict().get("warnings", [])
    assert any("no events" in w for w in warned) and any("modification time" in w for w in warned)
    assert "dana" not in out.read_text()


def test_a_header_time_is_the_start() -> None:
    result = redact_bytes(_header(timestamp="2026-05-11T19:43:19.227Z"), name="header.jsonl")
    assert result.session_map["session"]["startedAt"] == "2026-05-11T19:43:19.227Z"
    assert any("no events" in w for w in result.report.as_dict().get("warnings", []))


def test_a_name_given_with_bytes_is_never_taken_for_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of that name beside the caller holds other bytes: its time is not the session's."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "header.jsonl").write_bytes(b"{}\n" * 40)
    result = redact_bytes(_header(), name="header.jsonl")
    assert result.session_map["events"] == []
    assert result.session_map["session"]["startedAt"] == "1970-01-01T00:00:00.000Z"
    assert any("stand-in" in w for w in result.report.as_dict().get("warnings", []))


def test_the_corpus_header_only_session_is_never_1970() -> None:
    from tests.conftest import corpus_dir

    found = sorted(corpus_dir("factory-droid").rglob("*.jsonl"))
    heads = [p for p in found if p.read_bytes().count(b"\n") <= 1]
    assert heads
    for path in heads:
        m = redact_file(path).session_map
        assert m["events"] == [] and not m["session"]["startedAt"].startswith("1970") and violations(m) == []
