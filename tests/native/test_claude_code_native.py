"""Claude Code transcripts under `--to native`: the same records in the same order, every field by its
class, and the output still a transcript the project's own reader reads and maps."""
from __future__ import annotations

import re
from typing import Any

import orjson
import pytest

from redact.api import redact_bytes
from redact.errors import LeakFound
from redact.formats.claude_code.files import read_session
from redact.api_native import scrub_native
from redact.native.scrub import Scrubber
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats.ccfix import Transcript, text, thinking, tool_use
from tests.native.helpers import KEY, lines, native, report_text

SID = "5b0c9e1d-2f3a-4b5c-8d6e-7f8091a2b3c4"
CWD = "/Users/dana/src/orders-api"
SECRET = "ghp_" + "Zq7Xw2Lm9Pk4Rt6Yv8Bn1Cd3Fg5Hj0Ks2Qe"


def session() -> Transcript:
    t = Transcript(SID, CWD, branch="feature/refund-rounding-globex", seed=3)
    t.user("Please fix the refund rounding bug for Globex before Friday")
    t.assistant([thinking("The customer Globex sees cents lost"), text("I will look at the refund code.")])
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Bash", {"command": f"GITHUB_TOKEN={SECRET} gh pr view 42 --json title",
                                        "description": "Show the Globex pull request"})])
    t.result(tid, "Exit code 1\nerror: could not find pull request for globex-refunds", is_error=True,
             tur={"stdout": "", "stderr": "could not find pull request for globex-refunds",
                  "interrupted": False, "isImage": False})
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": f"{CWD}/src/refunds/rounding.py", "offset": 10})])
    t.result(tid, "def round_refund(amount):\n    return amount",
             tur={"type": "text", "file": {"filePath": f"{CWD}/src/refunds/rounding.py",
                                           "content": "def round_refund(amount)", "numLines": 1}})
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Edit", {"file_path": f"{CWD}/src/refunds/rounding.py",
                                        "old_string": "return amount", "new_string": "return round(amount, 2)"})])
    t.result(tid, "The file has been updated.", tur={"filePath": f"{CWD}/src/refunds/rounding.py",
                                                     "oldString": "return amount", "structuredPatch": []})
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": "/Users/dana/Downloads/globex-contract.pdf"})])
    t.result(tid, "contract text")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Glob", {"pattern": "**/*globex*"})])
    t.result(tid, f"{CWD}/src/partners.py", tur={"filenames": [f"{CWD}/src/partners.py"], "numFiles": 1})
    tid = t.tool_id()
    t.assistant([tool_use(tid, "WebFetch", {"url": "https://docs.python.org/3/library/decimal.html?q=globex",
                                            "prompt": "How do I round money for Globex?"})])
    t.result(tid, "Decimal docs")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__linear__create_issue", {"title": "Globex refunds", "team": "payments"})])
    t.result(tid, [text("Created ENG-1234 for Globex")])
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Task", {"description": "Review the Globex fix", "prompt": "Review it please",
                                        "subagent_type": "code-reviewer"})])
    t.result(tid, [text("Looks right for Globex")], tur={"status": "completed", "agentId": "a1b2c3d4",
                                                          "prompt": "Review it please", "totalTokens": 99})
    t.user([text("[Request interrupted by user]")])
    t.system("api_error", level="error", error={"status": 529, "message": "Overloaded for globex"},
             retryAttempt=1, maxRetries=10, retryInMs=500)
    t.add(t.envelope("attachment", attachment={"type": "hook_non_blocking_error", "hookName": "PostToolUse:Edit",
                                                "hookEvent": "PostToolUse", "stderr": "lint failed on globex.py",
                                                "command": "ruff check src/partners.py", "toolUseID": tid}))
    t.add(t.envelope("progress", data={"type": "agent_progress", "agentId": "a1b2c3d4",
                                       "prompt": "Review it please", "message": {
                                           "type": "assistant", "uuid": t.uid(),
                                           "timestamp": "2026-03-02T09:10:00.000Z",
                                           "message": {"id": "msg_01AbCdEfGhIjKlMnOpQrStUv", "role": "assistant",
                                                       "model": "claude-haiku-4-5",
                                                       "content": [text("Globex fix reviewed")]}}},
                     parentToolUseID=tid, toolUseID="agent_msg_01AbCdEfGhIjKlMn"))
    t.raw({"type": "summary", "summary": "Fixing Globex refund rounding", "leafUuid": t.uid()})
    t.raw({"type": "queue-operation", "operation": "enqueue", "content": "also check Initech",
           "sessionId": SID, "timestamp": "2026-03-02T09:20:00.000Z"})
    t.raw({"type": "last-prompt", "lastPrompt": "Please fix the refund rounding bug", "sessionId": SID})
    t.raw({"type": "future-record", "payload": "Globex secret plans", "sessionId": SID})
    rec = t.envelope("user", message={"role": "user", "content": "thanks"}, futureField={"note": "Globex"})
    t.add(rec)
    return t


def _by_type(records: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [r for r in records if r.get("type") == kind]


def test_same_records_in_the_same_order_with_the_chain_kept() -> None:
    t = session()
    out, report = native(t.bytes(), "claude-code")
    got = lines(out)
    src = [r for r in t.records if r["type"] != "future-record"]
    assert [r["type"] for r in got] == [r["type"] for r in src]
    assert [r.get("uuid") for r in got] == [r.get("uuid") for r in src]
    assert [r.get("parentUuid") for r in got] == [r.get("parentUuid") for r in src]
    assert report.skipped_records["<other>"] == 1  # future-record: a type this tool does not know
    assert report.scanner == {"grammar": "pass", "secrets": "pass", "taint": "pass", "language": "pass"}


def test_no_text_survives_and_text_keeps_its_shape() -> None:
    t = session()
    out, report = native(t.bytes(), "claude-code")
    body = out.decode()
    for word in ("Globex", "globex", "Initech", "dana", "refund-rounding", "round(amount", SECRET[:12],
                 "Friday", "payments", "ENG-1234"):
        assert word not in body, word
    assert "Globex" not in report_text(report) and "globex" not in report_text(report)
    got = lines(out)
    first = _by_type(got, "user")[0]
    assert first["message"]["content"] == {"chars": len("Please fix the refund rounding bug for Globex before Friday")}
    reply = _by_type(got, "assistant")[0]["message"]["content"]
    assert [b["type"] for b in reply] == ["thinking"]
    assert "signature" not in reply[0] and reply[0]["thinking"] == {"chars": 35}
    assert _by_type(got, "summary")[0]["summary"] == {"chars": 29}
    assert _by_type(got, "last-prompt")[0]["lastPrompt"]["chars"] > 0


def test_tool_calls_keep_ids_and_names_and_only_classified_inputs() -> None:
    t = session()
    out, _ = native(t.bytes(), "claude-code")
    calls = [b for r in _by_type(lines(out), "assistant") for b in r["message"]["content"]
             if b["type"] == "tool_use"]
    src = [b for r in t.records if r["type"] == "assistant" for b in r["message"]["content"]
           if b["type"] == "tool_use"]
    assert [c["name"] for c in calls] == [s["name"] for s in src]
    # an id keeps its harness prefix; its body (which could spell anything) becomes 12 hex of a digest
    assert all(re.fullmatch(r"toolu_[0-9a-f]{12}", c["id"]) for c in calls)
    assert len({c["id"] for c in calls}) == len({s["id"] for s in src})
    inputs = {c["name"]: c["input"] for c in calls}
    assert inputs["Bash"] == {"command": "gh pr view"}
    assert calls[1]["input"] == {"file_path": "src/refunds/rounding.py", "offset": 10}
    assert inputs["Edit"] == {"file_path": "src/refunds/rounding.py"}
    assert calls[3]["input"] == {"file_path": "~/Downloads"}
    assert inputs["Glob"] == {}
    assert inputs["WebFetch"] == {"url": "https://docs.python.org"}
    assert inputs["mcp__linear__create_issue"] == {}
    assert inputs["Task"] == {"subagent_type": "code-reviewer"}


def test_results_keep_sizes_exit_codes_and_pairing() -> None:
    t = session()
    out, _ = native(t.bytes(), "claude-code")
    users = _by_type(lines(out), "user")
    bash = users[1]
    block = bash["message"]["content"][0]
    assert block["type"] == "tool_result" and block["is_error"] is True
    assert block["content"]["exitCode"] == 1
    assert bash["toolUseResult"] == {"stdout": {"chars": 0}, "stderr": {"chars": 46}, "interrupted": False,
                                     "isImage": False}
    read = users[2]["toolUseResult"]
    assert read["file"] == {"filePath": "src/refunds/rounding.py", "content": {"chars": 24}, "numLines": 1}
    assert users[5]["toolUseResult"] == {"filenames": ["src/partners.py"], "numFiles": 1}  # relative mode
    task = users[8]["toolUseResult"]
    assert task == {"status": "completed", "agentId": "a1b2c3d4", "totalTokens": 99}
    assert users[9]["message"]["content"] == [{"type": "text", "text": "[Request interrupted by user]"}]


def test_envelope_fields_by_class() -> None:
    t = session()
    out, _ = native(t.bytes(), "claude-code")
    got = lines(out)
    for r in got:
        if "cwd" in r:
            assert r["cwd"] == "."
        assert "slug" not in r
        assert "gitBranch" not in r  # a branch that is not well known: dropped without a key
        assert "futureField" not in r
    out, _ = native(t.bytes(), "claude-code", policy="default", key=KEY)
    branches = {r["gitBranch"] for r in lines(out) if "gitBranch" in r}
    assert len(branches) == 1 and branches.pop().startswith("h:")


def test_subagent_record_inside_progress_is_scrubbed_as_a_record() -> None:
    out, _ = native(session().bytes(), "claude-code")
    progress = _by_type(lines(out), "progress")[0]["data"]
    assert progress["type"] == "agent_progress" and progress["prompt"] == {"chars": 16}
    inner = progress["message"]
    assert inner["type"] == "assistant"
    assert inner["message"]["content"] == [{"type": "text", "text": {"chars": 19}}]


@pytest.mark.parametrize("mode", ["relative", "dirs_only", "hashed"])
def test_paths_follow_the_mode(mode: str) -> None:
    out, report = native(session().bytes(), "claude-code", key=KEY, mode=mode)
    assert report.path_mode == mode
    calls = [b for r in _by_type(lines(out), "assistant") for b in r["message"]["content"]
             if b["type"] == "tool_use" and b["name"] == "Read"]
    inside, outside = calls[0]["input"]["file_path"], calls[1]["input"]["file_path"]
    assert outside == "~/Downloads"
    if mode == "relative":
        assert inside == "src/refunds/rounding.py"
    elif mode == "dirs_only":
        assert inside.startswith("src/refunds/\u2022") and len(inside) == len("src/refunds/") + 7
    else:
        assert [len(s) for s in inside.split("/")] == [10, 10, 10]


def test_public_policy_hashes_ids_and_identifiers() -> None:
    t = session()
    out, report = native(t.bytes(), "claude-code", policy="public", key=KEY)
    got = lines(out)
    assert all(r["uuid"].startswith("h:") for r in got if "uuid" in r)
    # the chain survives hashing: parents still point at the hashed uuid of the record before
    users = [r for r in got if r["type"] in ("user", "assistant")]
    uuids = {r["uuid"] for r in got if "uuid" in r}
    assert all(r["parentUuid"] in uuids for r in users[1:])
    names = [b["name"] for r in _by_type(got, "assistant") for b in r["message"]["content"] if b["type"] == "tool_use"]
    # linear and create_issue are on the public MCP allowlists; code-reviewer on the subagent one
    assert names == ["Bash", "Read", "Edit", "Read", "Glob", "WebFetch", "mcp__linear__create_issue", "Task"]
    assert report.idents.kept["mcp_server"] == {"linear"}
    assert report.path_mode == "hashed"


def test_the_output_reads_again_and_builds_a_valid_map() -> None:
    out, _ = native(session().bytes(), "claude-code")
    facts = read_session(out, "native.jsonl", report=RedactionReport(source="native.jsonl"))
    calls = [f for f in facts.facts if type(f).__name__ == "ToolCall"]
    assert [c.name for c in calls] == ["Bash", "Read", "Edit", "Read", "Glob", "WebFetch",
                                       "mcp__linear__create_issue", "Task"]
    assert calls[0].command == "gh pr view"
    result = redact_bytes(out, name="native.jsonl")
    kinds = [e["kind"] for e in result.session_map["events"]]
    assert kinds.count("exec") + kinds.count("verify") == 1 and "read" in kinds
    assert result.report.scanner["grammar"] == "pass"


def test_a_leaking_output_is_not_returned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Break the scrubber so text passes through: the native scan must refuse the output."""
    real = Scrubber.leaf

    def leaky(self: Scrubber, spec: Any, value: Any, pat: str) -> Any:
        if spec.cls == "shape" and isinstance(value, str):
            return value
        return real(self, spec, value, pat)

    monkeypatch.setattr(Scrubber, "leaf", leaky)
    report = RedactionReport(source="input")
    with pytest.raises(LeakFound) as caught:
        scrub_native(session().bytes(), "claude-code", name="input", policy=load_policy("default"), key=None,
                     mode=None, report=report)
    assert caught.value.report is report
    assert report.scanner["grammar"] == "fail"
    assert any(f["rule"] == "grammar.text" for f in report.findings)
    assert "Globex" not in orjson.dumps(report.findings).decode()


def test_bad_lines_fail_or_are_skipped_and_counted() -> None:
    data = session().bytes()
    broken = data.replace(b"\n", b"\n{not json\n", 1)
    from redact.errors import BadInput

    with pytest.raises(BadInput) as caught:
        native(broken, "claude-code")
    assert caught.value.where == "input:2"
    out, report = native(broken, "claude-code", skip_bad_lines=True)
    assert len(lines(out)) == len(lines(native(data, "claude-code")[0]))
    assert any("bad line" in w for w in report.warnings)


def test_deterministic() -> None:
    data = session().bytes()
    assert native(data, "claude-code", key=KEY, mode="hashed")[0] == native(data, "claude-code", key=KEY,
                                                                            mode="hashed")[0]


def test_a_harness_id_cannot_carry_words_or_a_secret() -> None:
    """`toolu_` + any base-62 body was kept as an id under `default`: an input could write a phrase
    or a key there (`msg_AKIAIOSFODNN7EXAMPLE`) and the native scan took it as proven. The prefix
    stays; the body becomes a digest, the same everywhere the id appears, so the pair still matches."""
    planted = "toolu_AcmeGlobexMergerClosesFridayBobSmith"
    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/work/orders-api")
    t.user("please look")
    t.assistant([tool_use(planted, "Read", {"file_path": "/work/orders-api/a.py"})])
    t.result(planted, "ok")
    t.records[1]["message"]["id"] = "msg_AKIAIOSFODNN7EXAMPLE"
    out, _ = native(t.bytes(), "claude-code")
    text = out.decode()
    assert "Acme" not in text and "AKIA" not in text
    got = lines(out)
    use = next(b for r in got if r["type"] == "assistant" for b in r["message"]["content"] if b["type"] == "tool_use")
    res = next(b for r in got if r["type"] == "user" and isinstance(r["message"]["content"], list)
               for b in r["message"]["content"] if b.get("type") == "tool_result")
    assert re.fullmatch(r"toolu_[0-9a-f]{12}", use["id"]) and res["tool_use_id"] == use["id"]
