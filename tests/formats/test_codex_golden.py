"""Golden maps of the Codex fixtures, plus what a reader of `make_codex.py` expects by hand (counted
from the fixture's code, not from the output)."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from audit.scan import scan_map
from redact.api import redact_file
from redact.model.schema import shipped
from tests.formats import golden_formats, make_codex

NAMES = sorted(n for n in golden_formats.CASES if n.startswith("codex"))


@pytest.fixture(scope="module")
def modern() -> dict[str, Any]:
    return golden_formats.produce("codex-modern.default.json")


def kinds(m: dict[str, Any]) -> Counter[str]:
    return Counter(e["kind"] for e in m["events"])


@pytest.mark.parametrize("name", NAMES)
def test_matches_the_golden_file(name: str) -> None:
    expected = (golden_formats.GOLDEN / name).read_text(encoding="utf-8")
    assert golden_formats.render(golden_formats.produce(name)) == expected, (
        "output changed: if intended, run `.venv/bin/python -m tests.formats.golden_formats` and review the diff")


def test_checked_in_fixtures_match_their_generator(tmp_path: Path) -> None:
    make_codex.write(tmp_path)
    for path in (make_codex.MODERN, make_codex.LEGACY, make_codex.LEGACY_JSON):
        assert path.read_bytes() == (tmp_path / path.name).read_bytes(), path.name


@pytest.mark.parametrize("path", [make_codex.MODERN, make_codex.LEGACY, make_codex.LEGACY_JSON], ids=lambda p: p.name)
@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_fixtures_leak_nothing_and_scan_clean(path: Path, policy: str) -> None:
    result = redact_file(path, policy=policy, key=golden_formats.KEY if policy == "public" else None)
    m = result.session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    out = json.dumps(m, ensure_ascii=False)
    assert [s for s in make_codex.SECRETS if s in out] == []
    kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
    assert scan_map(m, source=path.read_bytes(), kept_identifiers=kept).clean


def test_modern_calls_and_requests_by_hand(modern: dict[str, Any]) -> None:
    m = modern
    k = kinds(m)
    # calls: 2 pytest (verify), apply_patch, git commit (shell), ls (local_shell: a search), web search,
    # linear MCP, github MCP, view_image, update_plan, spawn_agent, wait, shell apply_patch, exec_command,
    # unparsed shell
    assert m["totals"]["calls"] == 15
    assert (k["verify"], k["edit"], k["exec"], k["search"], k["web"], k["mcp"], k["read"], k["tool"],
            k["subagent"]) == (2, 2, 3, 1, 1, 2, 1, 2, 1)
    # 7 token counts with new totals (one repeat ignored, one rate-limit only) + one assistant message
    # with no usage (the record whose timestamp does not parse)
    assert m["totals"]["requests"] == 8
    assert m["totals"]["tokens"] == (11000 + 1000) + (12000 + 800) + (13000 + 200) + (14000 + 600) + \
        (14000 + 400) + (16000 + 300) + (17000 + 400)
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert (llm[0]["in"], llm[0]["cr"], llm[0]["out"], llm[0]["thinking"], llm[0]["toolCalls"]) == \
        (3000, 8000, 1000, True, 1)
    assert llm[0]["latency"] == 2020  # prompt at +0, reasoning +2000, call +10, token count +10
    assert [e["toolCalls"] for e in llm] == [1, 1, 1, 4, 3, 2, 3, 0]
    assert m["session"]["models"] == ["gpt-5.1-codex"]


def test_modern_tools_by_hand(modern: dict[str, Any]) -> None:
    events = modern["events"]
    tests = [e for e in events if e["kind"] == "verify"]
    assert [t["verb"] for t in tests] == ["pytest", "pytest"]
    assert (tests[0]["err"], tests[0]["exitCode"], tests[0]["errClass"], tests[0]["dur"]) == (True, 1, "exit_code", 2500)
    assert tests[1]["retryOf"] == tests[0]["seq"] and tests[1]["attempt"] == 2 and tests[1]["dur"] == 3200
    commit = next(e for e in events if e["kind"] == "commit")
    assert (commit["sha"], commit["files"], commit["ins"], commit["del"]) == ("4b5c6d7", 3, 20, 5)
    shell = next(e for e in events if e.get("tool") == "shell" and e["kind"] == "exec" and not e.get("err"))
    assert shell["verb"] == "git add" and shell["exitCode"] == 0 and shell["dur"] == 400  # argv seen through bash -lc
    ls = next(e for e in events if e.get("tool") == "local_shell")
    assert ls["verb"] == "ls"
    mcp = [(e["server"], e["tool"]) for e in events if e["kind"] == "mcp"]
    assert mcp == [("linear", "get_issue"), ("github", "create_pull_request")]
    linear = next(e for e in events if e["kind"] == "mcp")
    assert linear["dur"] == 700  # from mcp_tool_call_end
    assert next(e for e in events if e["kind"] == "web")["host"] == "search"
    sub = next(e for e in events if e["kind"] == "subagent")
    assert sub["subagentType"] == "explorer" and sub["model"] == "gpt-5.1-codex-mini"
    running = next(e for e in events if e.get("tool") == "exec_command")
    assert running["verb"] == "npm run" and "exitCode" not in running and not running.get("err")
    dangling = next(e for e in events if e.get("errClass") == "no_result")
    assert dangling["verb"] == "<empty>"  # its arguments did not parse
    shot = next(e for e in events if e["kind"] == "read")
    assert shot["targets"] == [{"scope": "outside", "label": "~/Desktop", "touch": "read"}]


def test_modern_edits_and_files_by_hand(modern: dict[str, Any]) -> None:
    m = modern
    files = {f["path"]: f for f in m["files"]}
    # the patch tool: Update, Add, Delete, Update+Move; the shell apply_patch after `cd web`
    assert list(files) == ["src/shop/checkout.py", "tests/test_rounding.py", "src/shop/legacy_round.py",
                           "src/shop/util.py", "src/shop/money.py", "web/app.js"]
    assert [files[p]["op"] for p in files] == ["modify", "create", "delete", "rename-from", "rename-to", "modify"]
    edits = [e for e in m["events"] if e["kind"] == "edit"]
    assert [e["tool"] for e in edits] == ["apply_patch", "apply_patch"]
    assert (m["totals"]["filesTouched"], m["totals"]["filesCreated"], m["totals"]["filesDeleted"]) == (6, 1, 1)
    assert m["repos"] == [{"id": "r0", "name": "acme-shop", "remote": "acme-corp/acme-shop"}]


def test_modern_errors_turns_and_outcome_by_hand(modern: dict[str, Any]) -> None:
    m = modern
    tot = m["totals"]
    assert (tot["userTurns"], tot["promptImages"], tot["promptUrls"]) == (2, 1, 1)
    # pytest exit 1, the dangling call, the stream error, the aborted turn, the usage limit
    assert tot["errors"] == 5
    assert tot["errorsByClass"] == {"exit_code": 1, "interrupted": 1, "no_result": 1, "server_error": 1,
                                    "usage_limit": 1}
    assert tot["errorsBySource"] == {"llm": 2, "orchestration": 1, "tool": 2}
    stream = next(e for e in m["events"] if e["kind"] == "error" and e.get("retry"))
    assert stream["errClass"] == "server_error"  # http_status_code 502
    compaction = [e for e in m["events"] if e["kind"] == "compaction"]
    assert len(compaction) == 1 and compaction[0]["preTokens"] == 17000 + 400  # compacted + context_compacted
    assert tot["prsCreated"] == 1 and m["prs"][0]["number"] == 77
    assert m["session"]["outcome"] == "pr_created"
    assert m["session"]["id"] == f"local:codex:{make_codex.SESSION}"


def test_modern_report_counts_skipped_records() -> None:
    report = redact_file(make_codex.MODERN).report
    assert report.skipped_records == {
        "message:developer": 1, "event_msg:task_started": 1, "event_msg:agent_reasoning": 2,
        "event_msg:web_search_end": 1, "event_msg:collab_agent_spawn_begin": 1, "<output without call>": 1,
        "response_item:ghost_snapshot": 1, "event_msg:task_complete": 1, "event_msg:turn_diff": 1,
        "event_msg:<other>": 1, "<other>": 2,  # future_record, brand_new_event: names this tool does not know
    }


def test_modern_public_is_hashed() -> None:
    m = golden_formats.produce("codex-modern.public.json")
    assert m["session"]["pathMode"] == "hashed"
    assert all(re.fullmatch(r"[0-9a-f]{10}(/[0-9a-f]{10})*", f["path"]) for f in m["files"])
    assert m["repos"][0]["name"].startswith("h:")


def test_legacy_layouts_by_hand() -> None:
    legacy = golden_formats.produce("codex-legacy.default.json")
    # one prompt (the environment context is the harness's); apply_patch as argv; python through bash -lc
    assert (legacy["totals"]["userTurns"], legacy["totals"]["calls"], legacy["totals"]["requests"]) == (1, 2, 3)
    assert [f["path"] for f in legacy["files"]] == ["tiny.py"] and legacy["files"][0]["op"] == "create"
    assert legacy["repos"] == [{"id": "r0", "name": "tiny", "remote": "lee/tiny"}]  # root from <environment_context>
    assert all(e["t"] == 0 for e in legacy["events"])  # items without times take the header's
    assert all("latency" not in e for e in legacy["events"] if e["kind"] == "llm")  # unknown, not zero
    doc = golden_formats.produce("codex-legacy-json.default.json")
    verbs = [e["verb"] for e in doc["events"] if "verb" in e]
    assert verbs == ["ls", "cargo test"]
    cargo = next(e for e in doc["events"] if e.get("verb") == "cargo test")
    assert cargo["kind"] == "verify" and cargo["exitCode"] == 101 and cargo["errClass"] == "exit_code"
    assert (doc["totals"]["userTurns"], doc["totals"]["requests"]) == (1, 3)
    assert doc["session"]["id"] == "local:codex:7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d"
