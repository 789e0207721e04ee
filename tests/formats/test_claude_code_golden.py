"""Golden maps of the shipped example and the legacy fixture, plus what a reader of the fixtures
expects by hand (counted from `make_example.py` / `legacy_fixture.py`, not from the output)."""
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
from tests.formats import golden_cc, legacy_fixture, make_example


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    return golden_cc.produce("claude-code-example.default.json")


@pytest.fixture(scope="module")
def example_public() -> dict[str, Any]:
    return golden_cc.produce("claude-code-example.public.json")


@pytest.fixture(scope="module")
def legacy() -> dict[str, Any]:
    return golden_cc.produce("claude-code-legacy.default.json")


@pytest.mark.parametrize("name", sorted(golden_cc.CASES))
def test_matches_the_golden_file(name: str) -> None:
    expected = (golden_cc.GOLDEN / name).read_text(encoding="utf-8")
    assert golden_cc.render(golden_cc.produce(name)) == expected, (
        "output changed: if intended, run `.venv/bin/python -m tests.formats.golden_cc` and review the diff")


def test_checked_in_inputs_match_their_generators(tmp_path: Path) -> None:
    make_example.write(tmp_path / "ex")
    for have, made in zip(make_example.paths(), make_example.paths(tmp_path / "ex")):
        assert have.read_bytes() == made.read_bytes()
    legacy_fixture.write(tmp_path / "legacy")
    for name in (f"{legacy_fixture.SESSION}.jsonl", f"agent-{legacy_fixture.FLAT_AGENT}.jsonl"):
        assert (legacy_fixture.DIR / name).read_bytes() == (tmp_path / "legacy" / name).read_bytes()


def kinds(m: dict[str, Any]) -> Counter[str]:
    return Counter(e["kind"] for e in m["events"])


def test_example_by_hand(example: dict[str, Any]) -> None:
    m = example
    jsonschema.Draft202012Validator(shipped()).validate(m)
    tot = m["totals"]
    # main: Read x2, TodoWrite, Task, MCP, WebFetch, Edit x2, Write, Bash x6; subagent: Grep, Read, Glob
    assert tot["calls"] == 18
    assert (kinds(m)["read"], kinds(m)["search"], kinds(m)["edit"]) == (3, 2, 3)
    assert (kinds(m)["exec"], kinds(m)["verify"], kinds(m)["mcp"], kinds(m)["web"], kinds(m)["tool"],
            kinds(m)["subagent"]) == (4, 2, 1, 1, 1, 1)
    # 13 sonnet + 4 opus responses in the main lane, 4 haiku responses in the subagent
    assert tot["requests"] == 21
    assert (tot["userTurns"], tot["promptImages"], tot["promptUrls"]) == (2, 1, 2)
    assert tot["errors"] == 4
    assert tot["errorsBySource"] == {"hook": 1, "llm": 1, "tool": 2}
    assert tot["errorsByClass"] == {"blocked": 1, "exit_code": 1, "hook_error": 1, "overloaded": 1}
    assert (tot["retries"], tot["delays"], tot["delayMs"]) == (1, 2, 38_400 + 41_300)
    assert (tot["compactions"], tot["commits"], tot["prsCreated"], tot["modelSwitches"]) == (1, 1, 1, 1)
    assert (tot["subagents"], tot["tasks"], tot["filesTouched"], tot["filesCreated"]) == (1, 2, 3, 1)
    assert m["session"]["outcome"] == "pr_created"
    assert m["session"]["models"] == ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001",
                                      "claude-opus-4-5-20251101"]


def test_example_events_by_hand(example: dict[str, Any]) -> None:
    m = example
    events = m["events"]
    first_llm = next(e for e in events if e["kind"] == "llm")
    assert first_llm["latency"] == 2600 + 2 * 400 and first_llm["thinking"] is True
    tests = [e for e in events if e["kind"] == "verify"]
    assert [t["verb"] for t in tests] == ["npm test", "npm test"]
    assert tests[0]["err"] is True and tests[0]["exitCode"] == 1 and tests[0]["errClass"] == "exit_code"
    assert tests[1]["retryOf"] == tests[0]["seq"] and tests[1]["attempt"] == 2 and tests[1]["exitCode"] == 0
    deploy = next(e for e in events if e["kind"] == "exec" and e["verb"] == "<script>")
    assert deploy["errClass"] == "blocked"
    commit = next(e for e in events if e["kind"] == "commit")
    assert (commit["sha"], commit["files"], commit["ins"], commit["del"]) == ("3f9a2c1", 2, 48, 6)
    pr = next(e for e in events if e.get("vcs", {}).get("action") == "pr_create")
    assert pr["verb"] == "gh pr create" and pr["vcs"]["number"] == 482
    assert m["prs"] == [{"provider": "github", "repo": "acme-corp/acme-billing", "number": 482,
                         "url": "https://github.com/acme-corp/acme-billing/pull/482", "seq": pr["seq"], "state": "open"}]
    hook = next(e for e in events if e["kind"] == "error" and e["source"] == "hook")
    assert hook["hook"] == "PostToolUse:Edit" and events[hook["ref"]]["tool"] == "Edit"
    switch = next(e for e in events if e["kind"] == "model_switch")
    assert (switch["from"], switch["to"]) == ("claude-sonnet-4-5-20250929", "claude-opus-4-5-20251101")
    compaction = next(e for e in events if e["kind"] == "compaction")
    assert (compaction["trigger"], compaction["preTokens"]) == ("auto", 167_245)
    outside = [t for e in events for t in e.get("targets", []) if "label" in t]
    assert outside == [{"scope": "outside", "label": "~ (home)", "touch": "read"}]
    web = next(e for e in events if e["kind"] == "web")
    assert web["host"] == "docs.stripe.com"
    mcp = next(e for e in events if e["kind"] == "mcp")
    assert (mcp["server"], mcp["tool"]) == ("linear", "get_issue")


def test_example_lanes_and_files_by_hand(example: dict[str, Any]) -> None:
    m = example
    main, sub = m["agents"]
    assert sub == {**sub, "id": "sa-a4c81e2f9b3d7e15", "kind": "subagent", "parent": "main",
                   "subagentType": "Explore", "model": "claude-haiku-4-5-20251001", "calls": 3, "requests": 4,
                   "errors": 0, "outcome": "completed"}
    launch = m["events"][sub["launchSeq"]]
    assert launch["kind"] == "subagent" and launch["child"] == sub["id"] and launch["dur"] == 38_400
    assert (main["calls"], main["requests"], main["outcome"]) == (15, 17, "pr_created")
    files = {f["path"]: f for f in m["files"]}
    assert set(files) == {"src/export/invoice.ts", "src/money/round.ts", "src/export/legacy/csv_adapter.ts",
                          "src/money/round.test.ts", "src/export/csv.test.ts", "src/export/invoice.test.ts"}
    inv = files["src/export/invoice.ts"]
    assert (inv["reads"], inv["edits"], inv["hits"], inv["op"]) == (1, 2, 1, "modify")
    assert files["src/export/invoice.test.ts"]["op"] == "create"
    assert [t["n"] for t in m["tasks"]] == [1, 2]
    assert m["repos"] == [{"id": "r0", "name": "acme-billing"}]


def test_example_public_is_hashed(example_public: dict[str, Any]) -> None:
    m = example_public
    assert m["session"]["pathMode"] == "hashed"
    assert all(re.fullmatch(r"[0-9a-f]{10}(/[0-9a-f]{10})*", f["path"]) for f in m["files"])
    assert m["repos"][0]["name"].startswith("h:")
    deploy = [e for e in m["events"] if e["kind"] == "exec" and e["verb"].startswith("<script")]
    assert deploy and re.fullmatch(r"<script:[0-9a-f]{10}>", deploy[0]["verb"])
    assert m["prs"][0].keys() == {"provider", "repo", "seq", "state"}


@pytest.mark.parametrize("policy", ["default", "public"])
def test_example_leaks_nothing_and_scans_clean(policy: str) -> None:
    main_path, sub_path = make_example.paths()
    m = redact_file(main_path, policy=policy, key=golden_cc.KEY if policy == "public" else None).session_map
    out = json.dumps(m, ensure_ascii=False)
    assert [s for s in make_example.SECRETS if s in out] == []
    scan = scan_map(m, source=main_path.read_bytes() + sub_path.read_bytes())
    assert scan.clean, [f.as_dict() for f in scan.findings]


def test_legacy_by_hand(legacy: dict[str, Any]) -> None:
    m = legacy
    out = json.dumps(m)
    assert [s for s in legacy_fixture.SECRETS if s in out] == []
    tot = m["totals"]
    # resumed records read once: Read, Task, Grep (sidechain), Bash, Edit
    assert tot["calls"] == 5 and tot["requests"] == 8 and tot["userTurns"] == 2
    lanes = {a["id"]: a for a in m["agents"]}
    side = next(a for a in m["agents"] if a.get("subagentType") == "general-purpose")
    assert m["events"][side["launchSeq"]]["kind"] == "subagent" and side["calls"] == 1
    flat = lanes["sa-5c1d2e3"]  # the Warmup transcript beside the session, found by sessionId
    assert "launchSeq" not in flat and flat["requests"] == 1
    llm = [e for e in m["events"] if e["kind"] == "llm" and e["agent"] == "main"]
    assert [e["latency"] for e in llm] == [3100, 2500, 2200, 4800, 2300]  # the records' durationMs
    error = next(e for e in m["events"] if e["kind"] == "error")
    assert (error["source"], error["errClass"]) == ("llm", "overloaded")
    bash = next(e for e in m["events"] if e["kind"] == "exec")
    assert (bash["verb"], bash["exitCode"], bash["errClass"]) == ("<script>", 127, "exit_code")
    assert m["session"]["outcome"] == "unresolved_errors"  # two errors in the last 12 events


def test_the_readme_command_on_the_example(tmp_path: Path) -> None:
    from redact.cli import main
    from redact.keys.material import keygen

    key = tmp_path / "key"
    keygen(key)
    out = tmp_path / "out.json.gz"
    code = main(["--mode", "hashed", "--key-file", str(key), str(make_example.paths()[0]), "-o", str(out)])
    assert code == 0 and out.exists()
    m = redact_file(out).session_map  # the map reads back as a map
    assert m["session"]["pathMode"] == "hashed" and m["totals"]["prsCreated"] == 1
