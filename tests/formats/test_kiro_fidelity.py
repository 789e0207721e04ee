"""Fidelity of the Kiro maps, on the shared corpus and on our own fixtures: does each map keep what
its session did?

A small parser written here, straight from the JSON and sharing no code with the readers, counts in
each source: prompts, model responses, tool calls, shell calls, file writes and failed tool calls.
The map's events are counted the same way; they must agree exactly. Every file of the corpus folder
is read, or refused with a reason that names it (the empty v1 store). Skipped without the corpus.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from audit.scan import scan_map
from redact.batch import run as batch
from redact.api import redact_file
from redact.formats.detect import detect
from redact.errors import BadInput
from tests.audit.scanner_maps import KEY
from tests.conftest import CORPUS, corpus_case, corpus_dir, corpus_params
from tests.formats import kirofix
from tests.formats.jsonfix import plain
from tests.formats.seed_strict import violations
from tests.maps import shell_commands

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
SHELL = {"shell", "execute_bash", "execute_cmd", "executeBash"}
WRITES = {"write", "fs_write", "fsWrite", "fsAppend", "strReplace"}


@dataclass
class Counts:
    prompts: int = 0
    requests: int = 0
    calls: int = 0
    shell: int = 0
    writes: int = 0
    failed: int = 0


# -- the source side ---------------------------------------------------------------------------------

def _exit_failed(items: list[Any]) -> bool:
    for item in items:
        data = item.get("data") if isinstance(item, dict) else None
        if item.get("kind") == "json" and isinstance(data, dict):
            status = str(data.get("exit_status", ""))
            if status.startswith("exit status:") and status.split(":")[1].strip() != "0":
                return True
    return False


def _entries_counts(entries: list[dict[str, Any]]) -> Counts:
    n = Counts()
    for e in entries:
        content = e["data"].get("content") or []
        if e["kind"] == "Prompt":
            n.prompts += 1
        elif e["kind"] == "AssistantMessage":
            n.requests += 1
            uses = [b["data"] for b in content if b["kind"] == "toolUse"]
            n.calls += len(uses)
            n.shell += sum(u["name"] in SHELL for u in uses)
            n.writes += sum(u["name"] in WRITES for u in uses)
        elif e["kind"] == "ToolResults":
            n.failed += sum(1 for b in content if b["kind"] == "toolResult" and (
                b["data"]["status"] != "success" or _exit_failed(b["data"]["content"])))
    return n


def _conversation_counts(doc: dict[str, Any]) -> Counts:
    n = Counts()
    for turn in doc["history"]:
        content = turn["user"]["content"]
        n.prompts += "Prompt" in content or "CancelledToolUses" in content
        results = (content.get("ToolUseResults") or content.get("CancelledToolUses") or {}).get("tool_use_results", [])
        n.failed += sum(1 for r in results if r["status"] != "Success" or "CancelledToolUses" in content)
        answer = turn["assistant"]
        n.requests += 1
        uses = answer.get("ToolUse", {}).get("tool_uses", [])
        n.calls += len(uses)
        n.shell += sum(u["name"] in SHELL for u in uses)
        n.writes += sum(u["name"] in WRITES for u in uses)
    return n


def ide_counts(doc: dict[str, Any]) -> Counts:
    """A Kiro IDE assembly: a reply whose execution log is there counts the log's bot messages and their
    tool uses (each `tool` message closes the oldest open call); any other reply counts itself."""
    n = Counts()
    logs = {log["executionId"]: log for log in doc["executions"]}
    open_calls = 0
    for entry in doc["session"]["history"]:
        message = entry["message"]
        if message["role"] == "user":
            n.prompts += 1
            continue
        log = logs.pop(entry.get("executionId"), None)
        if log is None:
            n.requests += 1
            uses = [b for b in message["content"] if isinstance(b, dict) and b["type"] == "tool_use"] \
                if isinstance(message["content"], list) else []
            n.calls += len(uses)
            n.failed += len(uses)  # no log: no result
            n.shell += sum(u["name"] in SHELL for u in uses)
            n.writes += sum(u["name"] in WRITES for u in uses)
            continue
        for m in log["messagesFromExecutionId"]:
            if m["role"] == "bot":
                n.requests += 1
                uses = [e for e in m["entries"] if e["type"] == "toolUse"]
                n.calls += len(uses)
                open_calls += len(uses)
                n.shell += sum(u["name"] in SHELL for u in uses)
                n.writes += sum(u["name"] in WRITES for u in uses)
            elif m["role"] == "tool" and open_calls:
                open_calls -= 1
        n.failed += open_calls
        open_calls = 0
    return n


def source_counts(path: Path) -> Counts:
    raw = path.read_bytes()
    if path.suffix == ".jsonl" or (path.suffix == ".json" and path.with_suffix(".jsonl").is_file()):
        log = path.with_suffix(".jsonl").read_bytes()
        return _entries_counts([orjson.loads(line) for line in log.split(b"\n") if line.strip()])
    doc = orjson.loads(raw)
    if "log_entries" in doc:
        return _entries_counts(doc["log_entries"])
    if "kiroIde" in doc:
        return ide_counts(doc)
    if "history" in doc:
        return _conversation_counts(doc)
    return Counts()  # a store's metadata alone: no records


# -- the map side -------------------------------------------------------------------------------------

def map_counts(m: dict[str, Any]) -> Counts:
    events = m["events"]
    calls = [e for e in events if e["kind"] in CALL_KINDS]
    return Counts(prompts=sum(e["kind"] == "user" for e in events), requests=sum(e["kind"] == "llm" for e in events),
                  calls=len(calls), shell=shell_commands(m), writes=sum(e["kind"] == "edit" for e in calls),
                  failed=sum(bool(e.get("err")) for e in calls))


# -- the files --------------------------------------------------------------------------------------------

def _stores() -> list[Path]:
    return sorted(p for p in corpus_dir("kiro").glob("*/.kiro/sessions/cli") if p.is_dir())


def _corpus_sessions() -> list[str]:
    root = corpus_dir("kiro")
    flat = [p for p in sorted(root.iterdir()) if p.is_file()]
    stored = [p for store in _stores() for p in batch.sessions_in(store)]
    return [str(p.relative_to(root)) for p in flat + stored]


REFUSED = {"gixvvv__innovatech-ep3-eks__.local_share_kiro-cli_data.sqlite3": "the kiro-legacy store holds no session"}


def test_every_corpus_file_is_read_or_skipped_with_a_reason() -> None:
    root = corpus_dir("kiro")
    read = {os.path.realpath(root / rel) for rel in _corpus_sessions()}
    skipped = {os.path.realpath(o.input): o.message for store in _stores() for o in batch.skipped_in(store)}
    every = {os.path.realpath(p) for p in root.rglob("*") if p.is_file()}
    assert every == read | set(skipped), sorted(every - read - set(skipped))[:5]
    assert all(Path(p).name in why and "skipped (" in why for p, why in skipped.items())
    assert any(p.endswith(".lock") for p in skipped) and any(p.endswith(".jsonl") for p in skipped)


@pytest.mark.parametrize("rel", corpus_params(_corpus_sessions))
def test_every_corpus_session_keeps_what_it_did(rel: str) -> None:
    corpus_case(rel, "kiro")
    path = CORPUS / "kiro" / rel
    if path.name in REFUSED:
        with pytest.raises(BadInput) as caught:
            redact_file(path)
        assert REFUSED[path.name] in str(caught.value) and path.name in caught.value.diagnostic()
        return
    fmt = detect(path.read_bytes(), path.name) if path.stat().st_size else "kiro"
    assert fmt in ("kiro", "kiro-legacy")
    for policy in ("default", "public"):
        result = redact_file(path, policy=policy, key=KEY if policy == "public" else None)
        m = result.session_map
        assert violations(m) == [], violations(m)[:3]
        assert m["session"]["agentTool"] == "kiro"
        kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
        scan = scan_map(m, source=path.read_bytes(), source_format=fmt, kept_identifiers=kept)
        assert scan.clean, [f.as_dict() for f in scan.findings][:3]
        assert asdict(map_counts(m)) == asdict(source_counts(path))
        assert (m["events"] == []) == any("no records" in w or "no turns" in w for w in result.report.warnings)


@pytest.mark.parametrize("build", ["export", "legacy", "amazon-q"])
def test_fixture_maps_keep_what_they_did(tmp_path: Path, build: str) -> None:
    path = tmp_path / "session.json"
    path.write_bytes(kirofix.export(plain()) if build == "export" else
                     kirofix.legacy(plain(), writer="amazon-q" if build == "amazon-q" else "kiro"))
    got, want = map_counts(redact_file(path).session_map), source_counts(path)
    assert want.calls and want.failed and want.writes
    assert asdict(got) == asdict(want)


def test_ide_fixture_keeps_what_it_did(tmp_path: Path) -> None:
    path = tmp_path / "assembled.json"
    path.write_bytes(kirofix.ide_assembly(plain()))
    got, want = map_counts(redact_file(path).session_map), source_counts(path)
    assert want.calls and want.shell and want.writes and want.failed
    assert asdict(got) == asdict(want)


def test_store_fixture_keeps_what_it_did(tmp_path: Path) -> None:
    meta = kirofix.write_store(tmp_path / "cli", plain())
    assert asdict(map_counts(redact_file(meta).session_map)) == asdict(source_counts(meta))


@pytest.mark.parametrize("rel", corpus_params(_corpus_sessions))
def test_every_corpus_session_scrubs_natively_into_a_file_kiro_loads(rel: str) -> None:
    """`--to native` over each corpus file: the native scan passes (the output is returned), the records
    keep their kinds and order, and never two AssistantMessage records sit in a row."""
    from redact.api_native import scrub_file

    corpus_case(rel, "kiro")
    path = CORPUS / "kiro" / rel
    if path.name in REFUSED or not path.stat().st_size:
        return  # a SQLite store is read to maps only; an empty log has nothing to write
    result = scrub_file(path, policy="public", key=KEY, mode="hashed")
    out = result.data
    if result.input_format == "kiro-legacy":
        assert len(orjson.loads(out)["history"]) == len(orjson.loads(path.read_bytes())["history"])
        return
    try:
        whole = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "log_entries" in whole:  # an export
        records, source = orjson.loads(out)["log_entries"], whole["log_entries"]
    elif isinstance(whole, dict):  # a store's metadata: one document on one line
        assert out.count(b"\n") == 1 and "session_id" in orjson.loads(out)
        records, source = [], []
    else:  # a store's log
        records = [orjson.loads(line) for line in out.splitlines() if line.strip()]
        source = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    kinds = [r.get("kind") for r in records]
    assert not any(a == b == "AssistantMessage" for a, b in zip(kinds, kinds[1:]))
    assert kinds == [r["kind"] for r in source]
    assert b"signature" not in out and b"redactedContent" not in out
