"""Names the input chooses (field names, record types, status tags) reach reports and errors under
one rule (redact/tables/names.py). Each surface is fed keys shaped like secrets and checked for them.

Found by `test_fuzz_map_bytes`: a duplicate key `xZq7Canary` was named in full in the refusal line,
because the duplicate-key check had its own, looser rule (letters and digits). Five other places had
a rule of their own, two of which showed a 32-character Stripe-shaped key in the report. A review of
every surface then found four more (the cases from `test_taint_source_field` on): a taint finding
named the source log's keys, an error named a subagent file the tool found, `audit` drew agent ids
that are not ids, and `receipt sign` echoed a report's layer names.
"""
from __future__ import annotations

import json
import re
import string
import tomllib
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.report_of_map import report_of_map
from redact.api import redact_bytes
from redact.errors import RedactError
from redact.model.grammar import LOCAL_ID_TOOLS, VERSION_RE, is_id
from redact.tables.names import MAX_SHOWN, is_shown
from redact.share.receipt import _LAYERS
from tests.formats.ccfix import Transcript, text, tool_use
from tests.hardening.helpers import EXAMPLE_MAP, cli, example_map
from tests.native.helpers import native, report_text

# Shaped like the secrets and places a producer might use as a key: each has a digit, `.`, `/`,
# `@` or a space, or is too long to be a field name.
SECRET_KEYS = (
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "ghp_R2d2C3poBb8AaZz0Yy1Xx2Ww3Vv4Uu5Tt6Ss",
    "deadbeefcafebabe0123456789abcdef01234567",
    "xZq7Canary",
    "ops.acme-internal.example",
    "/home/zorblaxq/plans",
    "zorblaxq@vexmail.example",
    "frumious bandersnatch",
    "Abcdefghijklmnopqrstuvwxyzabcdefg",  # 33 letters: longer than any field name
)


def _dumps(value: object) -> str:
    return orjson.dumps(value, default=str).decode()


@given(st.text(alphabet=string.printable + "é\u00a0\u200b", max_size=40))
def test_a_shown_name_is_short_letters_underscore_and_hyphen_only(name: str) -> None:
    if is_shown(name):
        assert 0 < len(name) <= MAX_SHOWN
        assert set(name) <= set(string.ascii_letters + "_-") and name[0] != "-"


@pytest.mark.parametrize("name", ["file-history-snapshot", "tool_use", "turn_duration", "contentHash"])
def test_schema_names_are_shown(name: str) -> None:
    assert is_shown(name)


@pytest.mark.parametrize("name", ["hostName", "_meta", "a" * MAX_SHOWN, "globex-merger-layoffs"])
def test_plain_names_this_tool_does_not_know_are_not_shown(name: str) -> None:
    assert not is_shown(name)  # issue 13 item 3: a plain word is as private as any other


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_duplicate_key_refusal_does_not_name_the_key(key: str) -> None:
    m = example_map()
    body = orjson.dumps(m).decode()
    dup = body.replace('"kind":', f'"{key}":1,"{key}":2,"kind":', 1)
    with pytest.raises(RedactError) as exc:
        redact_bytes(dup.encode(), name="m.json", policy="default")
    diag = exc.value.diagnostic()
    assert "duplicate key" in diag and key not in diag
    assert diag.startswith("m.json#/agents/0/<field>:")  # the place is still given (first "kind")


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_unknown_map_field_is_counted_but_not_named(key: str) -> None:
    m = example_map()
    m["events"][0][key] = 1
    m["session"][key] = "x"
    m["session"]["debugInfo"] = "x"  # a plain name this tool does not know is counted, not named
    result = redact_bytes(orjson.dumps(m), name="m.json", policy="default")
    dropped = result.report.as_dict()["droppedFields"]
    assert key not in _dumps(result.report.as_dict())
    # the key, debugInfo and the example's own hostName
    assert dropped.get("/session/<unknown field>") == 3 and dropped.get("/events/*/<unknown field>") == 1
    assert "debugInfo" not in _dumps(result.report.as_dict())


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_audit_of_a_map_does_not_name_unknown_fields(key: str) -> None:
    m = example_map()
    m["session"][key] = "x"
    report = report_of_map(m, scan=False)
    assert key not in _dumps(report)
    assert report["droppedFields"] or report.get("unknownFields"), report.keys()


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_unknown_claude_code_record_type_is_not_named(key: str) -> None:
    t = Transcript("4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3", "/home/dev/p", seed=3)
    t.user("go")
    t.records.append({**t.records[0], "type": key, "uuid": "9e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3"})
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    skipped = result.report.as_dict()["skippedRecords"]
    assert key not in _dumps(result.report.as_dict())
    assert skipped.get("<other>") == 1, skipped


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_native_scrub_does_not_name_unknown_record_types(key: str) -> None:
    t = Transcript("4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3", "/home/dev/p", seed=3)
    t.user("go")
    t.records.append({**t.records[0], "type": key})
    out, report = native(t.bytes(), "claude-code")
    assert key not in report_text(report) and key.encode() not in out


@pytest.mark.parametrize("key", SECRET_KEYS)
@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_taint_source_field_names_source_keys_by_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           key: str, fmt: str) -> None:
    """A taint finding says which field of the source log held the text (`user:message.content`).
    A key of the source with digits (`ghp_...`) was part of that name in full."""
    m = example_map()
    m["session"]["note"] = "xylophonequartzite"  # rejected, and a distinctive word of the source
    (tmp_path / "m.json").write_bytes(orjson.dumps(m))
    (tmp_path / "s.jsonl").write_bytes(orjson.dumps({"type": "user", key: "xylophonequartzite here"}) + b"\n")
    run = cli(capsys, "scan", tmp_path / "m.json", "--source", tmp_path / "s.jsonl", "--untied-source", "--format", fmt)
    assert run.code == 1 and "taint" in run.out + run.err
    assert key not in run.out + run.err and json.dumps(key)[1:-1] not in run.out + run.err
    assert "user:<key>" in run.out + run.err  # still says where, by the placeholder


@pytest.mark.parametrize("report", ["r.json", "r.md", "r.html"])
def test_redaction_report_source_field_names_source_keys_by_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                     report: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # The redactor now replaces a file name that holds the prompt's words (issue 14); to get a taint
    # finding into a redaction report, that fallback is switched off here, as a redactor bug would.
    import redact.apply.leaves
    import redact.apply.paths

    for module in (redact.apply.leaves, redact.apply.paths):
        monkeypatch.setattr(module, "guard_path", lambda path, *args, **kwargs: path)
    key = "zqCanary7secret"
    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/work/repo")
    t.user("please read it", **{key: "the quokka ledger migrates at dawn"})
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": "/work/repo/docs/the quokka ledger migrates.md"})])
    t.result(tid, "ok")
    (tmp_path / "s.jsonl").write_bytes(t.bytes())
    run = cli(capsys, tmp_path / "s.jsonl", "-o", tmp_path / "o.json", "--report", tmp_path / report)
    assert run.code == 1  # the file name carries the prompt's words: blocked, with a report
    assert "This passes the scanner:" in run.err  # and it says what works (issue 14, item 6)
    body = (tmp_path / report).read_text(encoding="utf-8")
    assert "taint" in body and key not in body + run.err


def test_error_in_a_subagent_file_the_tool_found_does_not_name_it(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The user names the main transcript; its subagent files are found in `<session>/subagents/`.
    An error in one named the file, whose name the user never typed."""
    sid = "0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90"
    t = Transcript(sid, "/work/repo")
    t.user("hello there")
    t.assistant([text("hi")])
    (tmp_path / f"{sid}.jsonl").write_bytes(t.bytes())
    sub = tmp_path / sid / "subagents"
    sub.mkdir(parents=True)
    s = Transcript(sid, "/work/repo", agent_id="a1b2c3d")
    s.user("sub task")
    (sub / "agent-zqCanary7secret.jsonl").write_bytes(s.bytes() + b"not json\n")
    run = cli(capsys, tmp_path / f"{sid}.jsonl", "-o", tmp_path / "o.json")
    assert run.code == 2 and "zqCanary7secret" not in run.err
    assert f"{sub}/agent-<unusual name>.jsonl:2: invalid JSON" in run.err
    # the name Claude Code writes (a hex agent id) is shown, so the user can find the file
    (sub / "agent-zqCanary7secret.jsonl").rename(sub / "agent-a1b2c3d.jsonl")
    run = cli(capsys, tmp_path / f"{sid}.jsonl", "-o", tmp_path / "o.json")
    assert run.code == 2 and f"{sub}/agent-a1b2c3d.jsonl:2" in run.err


@pytest.mark.parametrize("fmt", ["json", "md", "html", "terminal"])
def test_audit_names_agent_lanes_only_by_the_id_grammar(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        fmt: str) -> None:
    """`audit` reads maps that may not be redacted: an `agent` that is not an id is `<not an id>`."""
    canary = "zqCanary7secret/plan.v2"
    m = example_map()
    m["events"][0]["agent"] = canary
    m["agents"] = [*m.get("agents", []), {"id": canary, "kind": "subagent"}]
    (tmp_path / "m.json").write_bytes(orjson.dumps(m))
    run = cli(capsys, "audit", tmp_path / "m.json", "-f", fmt)
    assert canary not in run.out + run.err and "zqCanary7" not in run.out + run.err
    assert fmt == "terminal" or "not an id" in run.out  # the terminal summary has no lane table


def test_receipt_refuses_a_report_with_unknown_scanner_layers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, EXAMPLE_MAP, "-o", tmp_path / "m.json", "--report", tmp_path / "r.json").code == 0
    report = json.loads((tmp_path / "r.json").read_text())
    report["scanner"]["zqCanary7secret"] = "fail"
    (tmp_path / "r.json").write_text(json.dumps(report))
    assert cli(capsys, "receipt", "keygen", tmp_path / "sk.pem").code == 0
    run = cli(capsys, "receipt", "sign", tmp_path / "m.json", "--signing-key", tmp_path / "sk.pem",
              "--report-json", tmp_path / "r.json")
    assert run.code == 2 and "zqCanary7secret" not in run.err and "not of their form" in run.err


def test_receipt_layers_are_the_scanner_layers() -> None:
    from audit.findings import LAYERS

    assert set(LAYERS) == _LAYERS


def test_local_session_ids_name_only_known_agent_tools() -> None:
    """`local:<label>:<id>` was an id for any 32-character label, a channel for a name the input
    chose (`local:acme-payroll:...`); now the label is one of the agent tools of the allowlist."""
    allow = tomllib.loads((Path(__file__).resolve().parents[2] / "policies" / "allowlists.toml").read_text())
    assert set(allow["agent_tool"]["values"]) == set(LOCAL_ID_TOOLS)
    assert is_id("local:claude-code:0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90")
    assert not is_id("local:acme-payroll:0b6f7a52")
    m = example_map()
    m["session"]["id"] = "local:zq-payroll:0b6f7a52"
    out = redact_bytes(orjson.dumps(m), name="m.json", policy="default").session_map
    assert "zq-payroll" not in orjson.dumps(out).decode() and out["session"]["id"].startswith(("h:", "id-"))


def test_a_file_name_with_a_newline_or_escape_cannot_split_or_drive_an_error(tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """An error is one line: a path holding a newline printed as is became two, and an ANSI escape
    sequence in it reached the terminal."""
    name = tmp_path / "x\nagentplay-redact: wrote everything\x1bc.jsonl"  # ESC c resets a terminal
    run = cli(capsys, name, "-o", tmp_path / "o.json")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert "\x1b" not in run.err and "x\\x0aagentplay-redact: wrote everything\\x1bc.jsonl" in run.err


def test_batch_summary_shows_file_names_as_text_not_markup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary table handed file names to rich as markup: `[zqhidden]visible.jsonl` lost its
    `[zqhidden]`, so the table named a file that does not exist."""
    proj, out = tmp_path / "proj", tmp_path / "out"
    proj.mkdir()
    out.mkdir()
    for i, name in enumerate(["plain", "[zqhidden]visible"]):
        t = Transcript(f"0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a9{i}", "/work/repo")
        t.user("hello")
        t.assistant([text("hi")])
        (proj / f"{name}.jsonl").write_bytes(t.bytes())
    run = cli(capsys, proj, "--out-dir", out, "--jobs", "1")
    assert run.code == 0, run.err
    assert "[zqhidden]visible.jsonl" in run.out + run.err


@pytest.mark.parametrize("version,kept", [("2.0.14", True), ("0.46.0-alpha.4", True), ("1.0+build.5", True),
                                          ("1.0-dev.g1a2b3c4", True), ("1.0-AcmePayroll", False),
                                          ("3.1-zqcanary", False)])
def test_version_suffix_is_known_words_numbers_and_hashes(version: str, kept: bool) -> None:
    """`cliVersion` took any 24 letters after `-`: `1.0-AcmePayroll` went through as a version."""
    m = example_map()
    m["session"]["cliVersion"] = version
    out = redact_bytes(orjson.dumps(m), name="m.json", policy="default").session_map
    assert (out["session"].get("cliVersion") == version) is kept


@pytest.mark.parametrize("action,kept", [("commit", True), ("pr_create", True), ("pr_create_attempt", True),
                                         ("pr_create_failed", True), ("mr_create_attempt", True),
                                         ("acme_payroll_merger", False), ("commit_attempt", False),
                                         ("zqcanary", False)])
def test_vcs_action_is_a_verb_of_the_vocabulary(action: str, kept: bool) -> None:
    """`vcs.action` took any lower-case words of its shape: `acme_payroll_merger` was kept by the
    redactor and proved by the scanner. It is now an action a git, gh or glab verb gives."""
    from audit.scan import scan_map

    m = example_map()
    vcs = next(ev["vcs"] for ev in m["events"] if isinstance(ev.get("vcs"), dict))
    vcs["action"] = action
    raw = orjson.dumps(m)
    result = redact_bytes(raw, name="m.json", policy="default")
    actions = {ev["vcs"]["action"] for ev in result.session_map["events"] if "vcs" in ev}
    assert (action in actions) is kept
    if not kept:  # `action` is required: the optional `vcs` object goes with it, counted
        assert result.report.dropped_values["/events/*/vcs"] == 1
        assert action not in orjson.dumps(result.session_map).decode()
    assert any(f.rule == "grammar.action" for f in scan_map(m).findings) is not kept



@pytest.mark.parametrize("field,value", [("provider", "zzz"), ("action", "Acme Payroll")])
def test_invalid_required_value_in_an_optional_object_drops_the_object(field: str, value: str) -> None:
    """A bad `vcs.provider` (or `vcs.action`) was dropped, and the walk then found the required field
    missing: AssertionError, exit 3. The optional `vcs` object is now dropped and counted."""
    m = example_map()
    vcs = next(ev["vcs"] for ev in m["events"] if isinstance(ev.get("vcs"), dict))
    vcs[field] = value
    result = redact_bytes(orjson.dumps(m), name="m.json", policy="default")
    assert result.report.dropped_values["/events/*/vcs"] == 1



_VERSION_WORDS = {"alpha", "beta", "rc", "dev", "pre", "preview", "nightly", "canary", "next", "snapshot",
                  "post", "build", "stable", "insiders"}


@given(st.from_regex(r"[A-Za-z]{3,20}", fullmatch=True), st.sampled_from(["-", "+", "-1.", "-rc1."]))
def test_no_version_suffix_carries_a_word_of_its_own(word: str, joint: str) -> None:
    """Property: a version suffix holds only the listed pre-release words (and numbers, a git hash)."""
    value = f"2.1.40{joint}{word}"
    if VERSION_RE.fullmatch(value):
        assert word.lower() in _VERSION_WORDS or re.fullmatch(r"g[0-9a-f]{7,12}", word), value


@given(st.sampled_from(["toolu", "msg", "req", "call", "fc", "resp"]),
       st.from_regex(r"[A-Za-z0-9]{6,40}", fullmatch=True))
def test_a_native_harness_id_never_keeps_its_body(prefix: str, body: str) -> None:
    """Property: under `default` a `<prefix>_<body>` id keeps its prefix; its body is a digest, so no
    word or key can ride in it; the same id always gives the same digest (pairs still match)."""
    from redact.native.scrub import Scrubber
    from redact.formats.tables import table
    from redact.policy.load import load_policy
    from redact.report import RedactionReport

    if re.fullmatch(r"[0-9a-f]{12}", body):  # already the digest form: an id as this tool writes it
        return
    found = table("claude-code")
    assert found is not None
    scrubber = Scrubber(found, policy=load_policy("default"), key=None, mode="relative",
                        report=RedactionReport(source="in"))
    out = scrubber.opaque_id(f"{prefix}_{body}")
    assert re.fullmatch(rf"{prefix}_[0-9a-f]{{12}}", out) and body not in out
    assert scrubber.opaque_id(f"{prefix}_{body}") == out
