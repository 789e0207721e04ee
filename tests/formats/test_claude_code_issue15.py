"""Claude Code transcripts whose structure the map used to lose (issue 15), on fixtures written here.

Each fixture is modelled on a shape seen in real 2.1.x / 1.0.x / 0.2.x transcripts; each test fails
without the fix it names.
"""
from __future__ import annotations

from typing import Any

from redact.build import build_map
from redact.formats.claude_code_files import read_session
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
