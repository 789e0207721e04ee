"""Claude Code transcripts whose structure the map used to lose (issue 15), on fixtures written here.

Each fixture is modelled on a shape seen in real 2.1.x / 1.0.x / 0.2.x transcripts; each test fails
without the fix it names.
"""
from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from redact.build import build_map
from redact.formats.claude_code.files import read_session
from redact.formats.claude_code.table import HELPER_AGENTS, HELPER_OTHER
from redact.formats.claude_code.tools import helper_type
from redact.report import RedactionReport
from tests.formats.ccfix import Transcript, text, tool_use

SID = "6f0d2c1e-8a3b-4f5e-9c7d-1b2a3c4d5e6f"
CWD = "/Users/quinn/src/ledger"


def session(t: Transcript, **kw: Any) -> tuple[dict[str, Any], RedactionReport]:
    report = RedactionReport(source="t.jsonl")
    facts = read_session(t.bytes(), "t.jsonl", report=report, **kw)
    return build_map(facts), report


def calls(m: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in m["events"] if e["kind"] in ("read", "search", "edit", "exec", "verify", "mcp", "tool",
                                                    "web", "skill", "subagent")]


# -- item 1: a tool result written one line before its call -------------------------------------------

def test_a_result_written_before_its_call_is_still_paired() -> None:
    t = Transcript(SID, CWD, version="2.1.85", seed=11)
    t.user("run the tests")
    t.tick(2000)
    a = t.tool_id()
    t.assistant([tool_use(a, "Bash", {"command": "pytest -q"})], stop="tool_use")
    call_rec = t.records[-1]
    t.tick(4200)
    result_rec = t.result(a, "3 passed", tur={"stdout": "3 passed", "stderr": "", "interrupted": False})
    t.tick(800)
    t.assistant([text("All green.")], stop="end_turn")
    # the client wrote the result first; times and parentUuid are right, only the file order swapped
    i, j = t.records.index(call_rec), t.records.index(result_rec)
    t.records[i], t.records[j] = t.records[j], t.records[i]
    m, report = session(t)
    (ev,) = calls(m)
    assert ev["kind"] == "verify" and not ev.get("err") and "errClass" not in ev
    assert ev["dur"] == 4200 and ev["outBytes"] == len("3 passed") and ev["exitCode"] == 0
    assert m["totals"]["errors"] == 0 and m["session"]["outcome"] != "unresolved_errors"
    assert "<tool_result without call>" not in report.skipped_records
    # the clocks are the records' own: the call's response ran from the prompt (0 s) to 2 s, and
    # the last response from the result (6.2 s) to 7 s, whatever the file order
    first, last = [e for e in m["events"] if e["kind"] == "llm"]
    assert (first["t"], first["latency"]) == (0, 2000) and first["t"] <= ev["t"]
    assert (last["t"], last["latency"]) == (6200, 800)
    assert [e["seq"] for e in m["events"]] == list(range(len(m["events"])))


def test_a_result_whose_call_never_comes_is_counted_as_skipped() -> None:
    t = Transcript(SID, CWD, version="2.1.85", seed=12)
    t.user("hi")
    t.tick(500)
    t.result("toolu_01NeverCalledAtAllXYZabc", "orphan")
    m, report = session(t)
    assert calls(m) == []
    assert report.skipped_records["<tool_result without call>"] == 1


# -- item 4: a 1.0.x continuation summary without isCompactSummary -------------------------------------

def test_a_continuation_summary_is_no_prompt_even_without_the_flag() -> None:
    t = Transcript(SID, CWD, version="1.0.51", seed=13)
    # 1.0.x starts the continued conversation with the summary as a plain user message, no flag
    t.user("This session is being continued from a previous conversation that ran out of context. "
           "The conversation is summarized below:\nAnalysis: secret-plan-alpha ...")
    t.tick(3000)
    t.assistant([text("Continuing.")], stop="end_turn")
    t.tick(60_000)
    t.user("now add the migration")
    t.tick(2000)
    t.assistant([text("Done.")], stop="end_turn")
    m, _ = session(t)
    users = [e for e in m["events"] if e["kind"] == "user"]
    assert len(users) == 1 and users[0]["chars"] == len("now add the migration")
    assert m["totals"]["userTurns"] == 1 and m["totals"]["promptChars"] == len("now add the migration")


# -- item 2: helper transcripts in the seed's vocabulary -----------------------------------------------

def _helper_session(tmp_path: Any, name: str) -> dict[str, Any]:
    from redact.formats.claude_code.files import Sidechain

    main = Transcript(SID, CWD, version="2.1.92", seed=14)
    main.user("fix the flaky test")
    main.tick(1500)
    main.assistant([text("Looking.")], stop="end_turn")
    helper = Transcript(SID, CWD, version="2.1.92", seed=15, agent_id=name,
                        start="2026-03-02T09:00:05.000Z")
    helper.user("what does the retry flag do?")
    helper.tick(2500)
    r = helper.tool_id()
    helper.assistant([tool_use(r, "Read", {"file_path": CWD + "/src/retry.py"})], stop="tool_use")
    helper.tick(300)
    helper.result(r, "def retry(): ...")
    helper.tick(2000)
    helper.assistant([text("It retries twice.")], stop="end_turn", usage=(5, 100, 2000, 40))
    path = tmp_path / f"agent-{name}.jsonl"
    path.write_bytes(helper.bytes())
    m, _ = session(main, sidechains=[Sidechain(path, name)])
    return m


def test_helper_transcripts_are_subagent_lanes_that_say_what_they_are(tmp_path: Any) -> None:
    for name, expected in (("aside_question-fcbe11d0c3a2b9e4", "side-question"),
                           ("acompact-9e1f00", "compaction"), ("aprompt_suggestion-77aa01", "helper")):
        m = _helper_session(tmp_path, name)
        (lane,) = [a for a in m["agents"] if a["id"] != "main"]
        assert lane["kind"] == "subagent" and lane["subagentType"] == expected
        assert "launchSeq" not in lane  # nothing in the main lane launched it
        assert lane["calls"] == 1 and lane["requests"] == 2 and lane["tokens"] > 0
        assert m["totals"]["subagents"] == 1
        read = next(e for e in m["events"] if e["kind"] == "read")
        assert read["agent"] == lane["id"]


def test_a_uuid_named_subagent_is_a_plain_subagent() -> None:
    assert helper_type("a24d441f2b73d6772") is None
    assert helper_type("3b2f6c1a-0d4e-4f5a-8b7c-9d0e1f2a3b4c") is None
    assert helper_type("aside_question-fcbf929fc3d4fdc0") == "side-question"
    assert helper_type("Weird Name") == "helper"


def test_helper_lanes_survive_the_public_policy_readably(tmp_path: Any) -> None:
    from redact.apply.walk import redact_map
    from redact.keys.material import Key
    from redact.policy import load_policy

    m = _helper_session(tmp_path, "acompact-9e1f00")
    out = redact_map(m, load_policy("public"), Key(bytes(range(32)), source="test"),
                     RedactionReport(source="t"))
    (lane,) = [a for a in out["agents"] if a["id"] != "main"]
    assert lane["kind"] == "subagent" and lane["subagentType"] == "compaction"


# -- item 10: ticket events from MCP trackers ---------------------------------------------------------

def _mcp_session(name: str, inp: dict[str, Any], answer: str, *, is_error: bool = False) -> Transcript:
    t = Transcript(SID, CWD, version="2.1.90", seed=16)
    t.user("file a ticket for the flaky export")
    t.tick(1200)
    c = t.tool_id()
    t.assistant([tool_use(c, name, inp)], stop="tool_use")
    t.tick(900)
    t.result(c, [{"type": "text", "text": answer}], is_error=is_error)
    t.tick(700)
    t.assistant([text("Filed.")], stop="end_turn")
    return t


LINEAR_ANSWER = ('{"id": "8d3a0c52-1f7e-4b8a-9a51-0c1d2e3f4a5b", "identifier": "LED-412", '
                 '"title": "Export drops rows past 10k (secret-title-canary)", "state": "Todo"}')
JIRA_ANSWER = ('{"id": "10093", "key": "OPS-77", '
               '"self": "https://quinn-co.atlassian.net/rest/api/3/issue/10093"}')
GITHUB_ANSWER = ('{"number": 58, "html_url": "https://github.com/quinn-co/ledger/issues/58", '
                 '"title": "Export drops rows (secret-title-canary)"}')


def _tickets(m: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [(e["tracker"], e["action"], e.get("id")) for e in m["events"] if e["kind"] == "ticket"]


def test_mcp_tracker_issue_creation_is_a_ticket_event() -> None:
    cases = (
        ("mcp__claude_ai_Linear__save_issue", {"title": "x", "team": "LED"}, LINEAR_ANSWER,
         ("linear", "create", "LED-412")),
        ("mcp__linear__save_issue", {"id": "LED-412", "state": "Done"}, LINEAR_ANSWER,
         ("linear", "update", "LED-412")),
        ("mcp__linear__create_issue", {"title": "x", "teamId": "t"}, LINEAR_ANSWER,
         ("linear", "create", "LED-412")),
        ("mcp__atlassian__createJiraIssue", {"projectKey": "OPS", "summary": "x"}, JIRA_ANSWER,
         ("jira", "create", "OPS-77")),
        ("mcp__github__create_issue", {"owner": "quinn-co", "repo": "ledger", "title": "x"}, GITHUB_ANSWER,
         ("github", "create", "quinn-co/ledger#58")),
    )
    for name, inp, answer, expected in cases:
        m, _ = session(_mcp_session(name, inp, answer))
        assert _tickets(m) == [expected], name
        assert m["totals"]["ticketsCreated" if expected[1] == "create" else "ticketsUpdated"] == 1


def test_no_ticket_without_a_confirmed_success() -> None:
    # a failed call, a read-only tool, and a key in the answer of a server that is no tracker
    for name, answer, err in (("mcp__linear__save_issue", LINEAR_ANSWER, True),
                              ("mcp__linear__get_issue", LINEAR_ANSWER, False),
                              ("mcp__notes__save_issue", LINEAR_ANSWER, False)):
        m, _ = session(_mcp_session(name, {"title": "x"}, answer, is_error=err))
        assert _tickets(m) == [], name


def test_mcp_ticket_id_follows_the_policy() -> None:
    from redact.api import redact_bytes
    from redact.keys.material import Key

    data = _mcp_session("mcp__linear__save_issue", {"title": "x"}, LINEAR_ANSWER).bytes()
    default = redact_bytes(data, name="t.jsonl").session_map
    assert _tickets(default) == [("linear", "create", "LED-412")]
    public = redact_bytes(data, name="t.jsonl", policy="public",
                          key=Key(bytes(range(32)), source="test")).session_map
    (ticket,) = [e for e in public["events"] if e["kind"] == "ticket"]
    assert ticket["tracker"] == "linear" and ticket["action"] == "create"
    assert "id" not in ticket  # the public policy drops ticket references, as for `gh issue create`
    assert b"secret-title-canary" not in redact_bytes(data, name="t.jsonl").data


# -- item 6: a session whose working directory moves into another repository -------------------------

OTHER = "/Users/quinn/src/billing-api"


def _moving_session(first: str = CWD) -> Transcript:
    t = Transcript(SID, first, version="2.1.96", seed=17)
    t.user("bump the ledger schema, then fix billing to match")
    t.tick(1000)
    e1 = t.tool_id()
    t.assistant([tool_use(e1, "Edit", {"file_path": CWD + "/schema/ledger.sql", "old_string": "a",
                                       "new_string": "b"})], stop="tool_use")
    t.tick(300)
    t.result(e1, "ok")
    t.tick(500)
    b = t.tool_id()
    t.assistant([tool_use(b, "Bash", {"command": f"cd {OTHER}"})], stop="tool_use")
    t.tick(100)
    t.result(b, "", tur={"stdout": "", "stderr": "", "interrupted": False})
    t.cwd = OTHER  # the client records the shell's new working directory from here on
    t.tick(500)
    e2, r2 = t.tool_id(), t.tool_id()
    t.assistant([tool_use(e2, "Write", {"file_path": OTHER + "/src/schema.py", "content": "x"}),
                 tool_use(r2, "Read", {"file_path": CWD + "/schema/ledger.sql"})], stop="tool_use")
    t.tick(200)
    t.result(e2, "created", tur={"type": "create"})
    t.result(r2, "x")
    t.tick(400)
    t.assistant([text("Both done.")], stop="end_turn")
    return t


def _file(m: dict[str, Any], path: str) -> dict[str, Any]:
    return next(f for f in m["files"] if f["path"] == path)


def test_a_second_repository_gets_its_own_entry_and_relative_paths() -> None:
    m, _ = session(_moving_session())
    assert [(r["id"], r.get("name")) for r in m["repos"]] == [("r0", "ledger"), ("r1", "billing-api")]
    ledger, billing = _file(m, "schema/ledger.sql"), _file(m, "src/schema.py")
    assert (ledger["repo"], ledger["edits"], ledger["reads"]) == ("r0", 1, 1)
    assert (billing["repo"], billing["edits"], billing.get("op")) == ("r1", 1, "create")
    assert not any(t.get("scope") == "outside" for e in m["events"] for t in e.get("targets", ()))
    assert "quinn" not in str(m)


def test_a_subfolder_or_a_parent_folder_is_no_new_repository() -> None:
    for later in (CWD + "/schema", "/Users/quinn/src"):
        t = _moving_session()
        for rec in t.records:
            if rec.get("cwd") == OTHER:
                rec["cwd"] = later
        m, _ = session(t)
        assert [r["id"] for r in m["repos"]] == ["r0"], later


def test_a_session_that_starts_at_home_takes_its_first_repository_later() -> None:
    m, _ = session(_moving_session(first="/Users/quinn"))
    assert [(r["id"], r.get("name")) for r in m["repos"]] == [("r0", "billing-api")]
    assert _file(m, "src/schema.py")["repo"] == "r0"
    assert not any(f["path"].endswith("ledger.sql") for f in m["files"])  # outside every repository


def test_multi_repository_maps_survive_every_policy() -> None:
    from redact.api import redact_bytes
    from redact.keys.material import Key

    data = _moving_session().bytes()
    for policy in ("default", "public"):
        result = redact_bytes(data, name="t.jsonl", policy=policy,
                              key=Key(bytes(range(32)), source="test") if policy == "public" else None)
        m = result.session_map
        assert [r["id"] for r in m["repos"]] == ["r0", "r1"]
        assert sorted(f["repo"] for f in m["files"]) == ["r0", "r1"]


# -- item 10: Claude Code's Batch tool (clients 0.2.x) ---------------------------------------------------

def _batch_session() -> Transcript:
    t = Transcript(SID, CWD, version="0.2.98", seed=18)
    t.user("check the status of the exporter")
    t.tick(1500)
    b = t.tool_id()
    invocations = [
        {"tool_name": "Read", "input": {"file_path": CWD + "/export/rows.py"}},
        {"tool_name": "Grep", "input": {"pattern": "canary-pattern-zq", "path": CWD + "/export"}},
        {"tool_name": "Bash", "input": {"command": "git status", "description": "canary-description"}},
    ]
    batch = {"description": "canary-batch-description", "invocations": invocations}
    t.assistant([tool_use(b, "Batch", batch)], stop="tool_use")
    t.tick(40)
    msg = "mapr_msg_01Abc"

    def inner(n: int, content: str, tur: dict[str, Any], *, err: bool = False, ms: int = 0) -> dict[str, Any]:
        block: dict[str, Any] = {"tool_use_id": f"{msg}_{n}", "type": "tool_result", "content": content}
        if err:
            block["is_error"] = True
        return {"key": f"canary-key-{n}(pattern: canary-pattern-zq)",
                "message": {"type": "user", "uuid": t.uid(), "timestamp": f"2026-03-02T09:00:01.5{ms:02d}Z",
                            "message": {"role": "user", "content": [block]}, "toolUseResult": tur}}

    ordered = [
        inner(2, "On branch main\nnothing to commit", {"stdout": "On branch main", "stderr": "",
                                                       "interrupted": False}, ms=30),
        inner(1, "No files found", {"filenames": [], "numFiles": 0}, err=True, ms=20),
        inner(0, "   1\tdef rows(): ...", {"type": "text"}, ms=10),
    ]
    outer = [{"type": "text", "text": "Read(file_path: canary-key):"},
             {"type": "text", "text": "def rows()"},
             {"type": "text", "text": "Grep(pattern: canary-pattern-zq):"},
             {"type": "text", "text": "No files found"}]
    t.result(b, outer, is_error=True, tur={"normalizedMessages": [], "orderedToolResults": ordered,
                                            "resolvedInvocations": {}, "totalDurationMs": 21,
                                            "totalTokens": 0, "totalToolCalls": 3})
    t.tick(2000)
    t.assistant([text("The exporter is finished.")], stop="end_turn")
    return t


def test_batch_is_one_event_per_tool_it_ran() -> None:
    m, _ = session(_batch_session())
    evs = calls(m)
    assert [(e["kind"], e.get("tool")) for e in evs] == [
        ("read", "Read"), ("search", "Grep"), ("exec", "Bash")]
    read, grep, bash = evs
    assert m["files"][read["targets"][0]["file"]]["path"] == "export/rows.py"
    assert not read.get("err") and grep["err"] is True  # only the Grep of the three failed
    assert bash["verb"] == "git status" and bash["exitCode"] == 0 and not bash.get("err")
    assert m["totals"]["calls"] == 3 and m["totals"]["errors"] == 1
    (first_llm, _) = [e for e in m["events"] if e["kind"] == "llm"]
    assert first_llm["toolCalls"] == 1  # the model asked for one call, the Batch


def test_batch_text_never_reaches_the_map() -> None:
    from redact.api import redact_bytes

    data = redact_bytes(_batch_session().bytes(), name="t.jsonl").data
    assert b"canary" not in data


def test_a_batch_of_another_shape_stays_one_tool_event() -> None:
    t = Transcript(SID, CWD, version="0.2.98", seed=19)
    t.user("go")
    t.tick(1000)
    b = t.tool_id()
    t.assistant([tool_use(b, "Batch", {"description": "x", "calls": []})], stop="tool_use")
    t.tick(100)
    t.result(b, "done")
    m, _ = session(t)
    assert [(e["kind"], e["tool"]) for e in calls(m)] == [("tool", "Batch")]


def test_a_helper_transcript_alone_is_a_helper_session() -> None:
    for name, role in (("acompact-9e1f00", "helper"), ("a0edd2b", "subagent")):
        t = Transcript(SID, CWD, version="2.1.39", seed=20, agent_id=name)
        t.user("summarise the conversation so far")
        t.tick(4000)
        t.assistant([text("Summary: ...")], stop="end_turn")
        m, _ = session(t)
        assert m["session"]["role"] == role and m["session"]["parentSessionId"] == f"local:claude-code:{SID}"
        assert [a["kind"] for a in m["agents"]] == ["main"]


# -- invariants ---------------------------------------------------------------------------------------

_TOOLS = st.sampled_from([("Bash", {"command": "pytest -q"}), ("Read", {"file_path": CWD + "/a.py"}),
                          ("Edit", {"file_path": CWD + "/b.py", "old_string": "x", "new_string": "y"}),
                          ("Grep", {"pattern": "p", "path": CWD})])


@given(steps=st.lists(st.tuples(_TOOLS, st.booleans(), st.integers(50, 90_000), st.booleans()),
                      min_size=1, max_size=6))
def test_file_order_of_a_result_and_its_call_never_changes_the_map(
        steps: list[tuple[tuple[str, dict[str, Any]], bool, int, bool]]) -> None:
    t = Transcript(SID, CWD, version="2.1.85", seed=21)
    t.user("go")
    swaps = []
    for (name, inp), failed, ms, swap in steps:
        t.tick(700)
        c = t.tool_id()
        t.assistant([tool_use(c, name, inp)], stop="tool_use")
        call_rec = t.records[-1]
        t.tick(ms)
        res_rec = t.result(c, "Exit code 1" if failed else "ok", is_error=failed)
        if swap:
            swaps.append((call_rec, res_rec))
    t.tick(400)
    t.assistant([text("done")], stop="end_turn")
    in_order, _ = session(t)
    for call_rec, res_rec in swaps:
        i, j = t.records.index(call_rec), t.records.index(res_rec)
        t.records[i], t.records[j] = t.records[j], t.records[i]
    assert session(t)[0] == in_order


@given(st.text(min_size=1, max_size=80))
def test_helper_types_are_a_closed_list(agent_id: str) -> None:
    assert helper_type(agent_id) in {None, HELPER_OTHER, *HELPER_AGENTS.values()}


_PLACES = ["/Users/quinn/src/ledger", "/Users/quinn/src/ledger/schema", "/Users/quinn/src",
           "/Users/quinn/src/billing-api", "/Users/quinn/src/billing-api/web", "/Users/quinn", "/tmp/w",
           "C:\\Users\\quinn\\src\\tools", "/Users/quinn/.claude/worktrees/brave-owl"]


@given(st.lists(st.tuples(st.sampled_from(_PLACES), st.sampled_from(_PLACES)), min_size=1, max_size=6))
def test_every_file_names_a_repository_whatever_the_working_directories(
        moves: list[tuple[str, str]]) -> None:
    t = Transcript(SID, moves[0][0], version="2.1.96", seed=22)
    t.user("go")
    for cwd, target in moves:
        t.cwd = cwd
        t.tick(500)
        c = t.tool_id()
        sep = "\\" if target.startswith("C:") else "/"
        t.assistant([tool_use(c, "Edit", {"file_path": target + sep + "f.py", "old_string": "a",
                                          "new_string": "b"})], stop="tool_use")
        t.tick(100)
        t.result(c, "ok")
    m, _ = session(t)
    repos = [r["id"] for r in m.get("repos", [])]
    assert repos == [f"r{i}" for i in range(len(repos))]
    assert len(repos) <= len({cwd for cwd, _ in moves})
    for f in m["files"]:
        assert f["repo"] in repos and not f["path"].startswith(("/", "~", "C:", "c:"))
    assert "quinn" not in str(m).lower()
