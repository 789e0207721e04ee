"""Every Codex rollout of the shared corpus, through the whole pipeline.

Skipped cleanly when ../shared/corpus is absent. For each rollout: it is detected from its content,
the map validates against the shipped JSON Schema and the model, the scanner passes with the rollout
as taint source (default and public), no user name of the corpus's paths survives, and the counts
match what the rollout shows (counted straight from the JSON, without the reader).
"""
from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from audit.scan import scan_map
from redact.api import Result, redact_bytes, redact_file
from redact.formats.detect import detect
from redact.formats.codex.table import EVENT_MSGS, RECORD_TYPES, RESPONSE_ITEMS
from redact.keys.material import Key
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from tests.conftest import corpus_case, corpus_dir, corpus_params

pytestmark = pytest.mark.corpus
KEY = Key(bytes(range(32)), source="t")
CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
USER_PARTS = ("/Users/", "/home/", "kobra", "xuwentao", "randy", "tiemo", "tommy")
_LABEL = re.compile(r"^(?:<[a-z ]+>|[a-z][a-z0-9_-]{0,40}(?::(?:[a-z][a-z0-9_-]{0,40}|<other>|<no time>))?)$")
_INJECTED = re.compile(r"^\s*(?:<[a-z_][a-z0-9_ -]{0,60}>|# AGENTS\.md instructions\b|<INSTRUCTIONS>)")


@cache
def _files() -> tuple[Path, ...]:
    return tuple(sorted(p for p in corpus_dir("codex").iterdir() if p.suffix in (".jsonl", ".json")))


def _names() -> list[str]:
    return corpus_params(lambda: [p.name for p in _files()])


@pytest.fixture(params=_names(), ids=lambda name: name[-44:])
def rollout(request: pytest.FixtureRequest) -> Path:
    corpus_case(request.param, "codex")
    return next(p for p in _files() if p.name == request.param)


@cache
def _run(name: str, policy: str) -> Result:
    path = next(p for p in _files() if p.name == name)
    return redact_bytes(path.read_bytes(), name=name, policy=policy, key=KEY if policy == "public" else None)


def _records(path: Path) -> list[dict[str, Any]]:
    data = path.read_bytes()
    if path.suffix == ".json":
        return []
    return [orjson.loads(line) for line in data.split(b"\n") if line.strip()]


def _shown(path: Path) -> dict[str, Any]:
    """Calls, prompts and tokens counted from the raw JSON."""
    calls: set[str] = set()
    prompts_ev = prompts_items = 0
    tokens = 0
    last_key = None
    types: Counter[str] = Counter()
    if path.suffix == ".json":
        doc = orjson.loads(path.read_bytes())
        for item in doc["items"]:
            for tc in item.get("tool_calls") or []:
                calls.add(tc["id"])
            if item.get("role") == "user":
                prompts_items += 1
        return {"calls": len(calls), "prompts": prompts_items, "tokens": 0, "types": types}
    for r in _records(path):
        p = r.get("payload") if "payload" in r else r
        kind = r.get("type") if "payload" in r else None
        if kind:
            types["top:" + kind] += 1
        if not isinstance(p, dict):
            continue
        ptype = p.get("type")
        if ptype and (kind == "response_item" or (kind is None and "record_type" not in r)):
            types["item:" + str(ptype)] += 1
        if kind == "event_msg":
            types["event:" + str(ptype)] += 1
        if ptype in ("function_call", "custom_tool_call", "local_shell_call"):
            calls.add(p.get("call_id") or p.get("id"))
        elif ptype == "web_search_call":
            calls.add(p.get("id"))
        elif ptype == "user_message" and kind == "event_msg" and (p.get("message") or p.get("images")):
            prompts_ev += 1
        elif ptype == "message" and p.get("role") == "user":
            texts = [c.get("text", "") for c in p.get("content") or [] if isinstance(c, dict)]
            if texts and not _INJECTED.match(texts[0]):
                prompts_items += 1
        elif ptype == "token_count" and isinstance(p.get("info"), dict):
            total = p["info"]["total_token_usage"]
            key = (total["input_tokens"], total["cached_input_tokens"], total["output_tokens"], total["total_tokens"])
            if key != last_key:
                last_key = key
                last = p["info"]["last_token_usage"]
                tokens += last["input_tokens"] + last["output_tokens"]
    return {"calls": len(calls), "prompts": prompts_ev if prompts_ev else prompts_items, "tokens": tokens,
            "types": types}


def test_detected_as_codex(rollout: Path) -> None:
    assert detect(rollout.read_bytes(), rollout.name) == "codex"


def test_map_validates_and_scans_clean(rollout: Path) -> None:
    result = _run(rollout.name, "default")
    m = result.session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    SessionMap.model_validate(m)
    assert [e["seq"] for e in m["events"]] == list(range(len(m["events"])))
    assert all(a["t"] <= b["t"] for a, b in zip(m["events"], m["events"][1:]))
    kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
    scan = scan_map(m, source=rollout.read_bytes(), source_format="codex", kept_identifiers=kept)
    assert scan.clean, [f.as_dict() for f in scan.findings]


def test_public_map_scans_clean(rollout: Path) -> None:
    result = _run(rollout.name, "public")
    kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
    scan = scan_map(result.session_map, source=rollout.read_bytes(), source_format="codex", kept_identifiers=kept)
    assert scan.clean, [f.as_dict() for f in scan.findings]
    assert result.session_map["session"]["pathMode"] == "hashed"


def test_counts_match_the_rollout(rollout: Path) -> None:
    m = _run(rollout.name, "default").session_map
    shown = _shown(rollout)
    calls = sum(1 for e in m["events"] if e["kind"] in CALL_KINDS)
    assert calls == m["totals"]["calls"] == shown["calls"]
    assert m["totals"]["userTurns"] == shown["prompts"]
    assert m["totals"]["tokens"] == shown["tokens"]  # each request's usage counted once
    assert m["totals"]["requests"] == sum(1 for e in m["events"] if e["kind"] == "llm")
    assert m["session"]["agentTool"] == "codex"


def test_every_record_type_is_mapped_or_counted(rollout: Path) -> None:
    report = _run(rollout.name, "default").report
    for name in report.skipped_records:
        assert _LABEL.match(name), name
    for name in _shown(rollout)["types"]:
        group, _, kind = name.partition(":")
        table = {"top": RECORD_TYPES, "item": RESPONSE_ITEMS, "event": EVENT_MSGS}[group]
        assert kind in table, name  # the corpus holds no type the tables do not name


def test_no_user_name_survives(rollout: Path) -> None:
    for policy in ("default", "public"):
        data = _run(rollout.name, policy).data.decode()
        for part in USER_PARTS:
            assert part not in data, (policy, part)


def test_paths_are_relative_or_labels(rollout: Path) -> None:
    m = _run(rollout.name, "default").session_map
    for f in m["files"]:
        assert not f["path"].startswith(("/", "~")) and ":" not in f["path"][:3]


def test_streamed_reading_gives_the_same_map(rollout: Path) -> None:
    assert redact_file(rollout).session_map == _run(rollout.name, "default").session_map
