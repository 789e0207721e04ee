"""Every Claude Code transcript of the shared corpus, through the whole pipeline.

Skipped cleanly when ../shared/corpus is absent. For each session: it is detected and read, the map
validates against the shipped JSON Schema and the model, the scanner passes with the transcript as
taint source, and the counts match what the transcript shows (counted straight from the JSON).
"""
from __future__ import annotations

import re
from functools import cache
from typing import Any

import jsonschema
import pytest

from audit.scan import scan_map
from redact.api import Result, redact_bytes
from redact.formats.detect import detect
from redact.formats.claude_code.table import RECORD_TYPES
from redact.keys.material import Key
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.corpus_cc import CorpusSession, sessions, shown

pytestmark = pytest.mark.corpus
CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
# User names that occur in the corpus's paths: none may survive in any map.
USER_NAMES = ("xuwentao", "bholt", "/egv", "marco", "USER", "/Users/", "/home/")
_LABEL = re.compile(r"^(?:<duplicate>|<tool_result without call>|<no type>|"
                    r"[a-z][a-z0-9_-]{0,40}(?::(?:[a-z][a-z0-9_-]{0,40}|<other>|<no time>))?)$")
KEY = Key(bytes(range(32)), source="test")


@cache
def _sessions() -> tuple[CorpusSession, ...]:
    return tuple(sessions(corpus_dir("claude-code")))


@cache
def _run(name: str, policy: str) -> Result:
    session = next(s for s in _sessions() if s.name == name)
    return redact_bytes(session.main.read_bytes(), name=session.name, policy=policy,
                        key=KEY if policy == "public" else None, companions=session.sidechains)


def _names() -> list[str]:
    return corpus_params(lambda: [s.name for s in _sessions()])


@pytest.fixture(params=_names(), ids=lambda name: name[:-6][-48:])
def session(request: pytest.FixtureRequest) -> CorpusSession:
    corpus_case(request.param, "claude-code")
    return next(s for s in _sessions() if s.name == request.param)


def test_detected_as_claude_code(session: CorpusSession) -> None:
    assert detect(session.main.read_bytes(), session.name) == "claude-code"
    for side in session.sidechains:
        assert detect(side.path.read_bytes(), side.path.name) == "claude-code"


def test_map_validates_and_scans_clean(session: CorpusSession) -> None:
    result = _run(session.name, "default")
    m = result.session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    SessionMap.model_validate(m)
    assert [e["seq"] for e in m["events"]] == list(range(len(m["events"])))
    assert all(a["t"] <= b["t"] for a, b in zip(m["events"], m["events"][1:]))
    kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
    scan = scan_map(m, source=session.source(), kept_identifiers=kept)
    assert scan.clean, [f.as_dict() for f in scan.findings]


def test_public_map_scans_clean(session: CorpusSession) -> None:
    result = _run(session.name, "public")
    kept = {cat: sorted(vals) for cat, vals in result.report.idents.kept.items()}
    scan = scan_map(result.session_map, source=session.source(), kept_identifiers=kept)
    assert scan.clean, [f.as_dict() for f in scan.findings]
    assert result.session_map["session"]["pathMode"] == "hashed"


def test_counts_match_the_transcript(session: CorpusSession) -> None:
    m = _run(session.name, "default").session_map
    kinds: dict[str, int] = {}
    for ev in m["events"]:
        kinds[ev["kind"]] = kinds.get(ev["kind"], 0) + 1
    seen = shown(session)
    bash = seen.tool_uses["Bash"]
    # a Bash call is exec or verify, or read / search when it only reads files (issue 15 item 8)
    assert sum(1 for ev in m["events"] if ev.get("tool") == "Bash" and
               ev["kind"] in ("exec", "verify", "read", "search")) == bash
    assert sum(kinds.get(k, 0) for k in CALL_KINDS) == sum(seen.tool_uses.values())
    assert m["totals"]["calls"] == sum(seen.tool_uses.values())
    mcp = sum(n for name, n in seen.tool_uses.items() if name.startswith("mcp__"))
    assert kinds.get("mcp", 0) == mcp
    assert kinds.get("subagent", 0) == seen.tool_uses["Task"] + seen.tool_uses["Agent"]
    web = seen.tool_uses["WebFetch"] + seen.tool_uses["WebSearch"]
    assert kinds.get("web", 0) == web
    edits = sum(seen.tool_uses[n] for n in ("Edit", "MultiEdit", "Write", "NotebookEdit"))
    assert kinds.get("edit", 0) == edits
    assert m["totals"]["requests"] == kinds.get("llm", 0)
    assert m["totals"]["userTurns"] == kinds.get("user", 0)
    if seen.types["user"] == 0:
        assert m["events"] == [] or all(ev["kind"] != "user" for ev in m["events"])


def test_lanes_and_launches(session: CorpusSession) -> None:
    m = _run(session.name, "default").session_map
    lanes = {a["id"]: a for a in m["agents"]}
    assert "main" in lanes
    for ev in m["events"]:
        assert ev["agent"] in lanes
    for lane in m["agents"]:
        if lane.get("launchSeq") is not None:
            launch = m["events"][lane["launchSeq"]]
            assert launch["kind"] == "subagent" and launch.get("child") == lane["id"]
        if lane["id"] != "main":
            assert re.fullmatch(r"sa-[0-9a-f]{6,32}", lane["id"])
    assert m["totals"]["subagents"] == sum(1 for a in m["agents"] if a["kind"] == "subagent")


def test_every_record_type_is_mapped_or_counted(session: CorpusSession) -> None:
    report = _run(session.name, "default").report
    for name in report.skipped_records:
        assert _LABEL.match(name), name
    for kind in shown(session).types:
        assert kind in RECORD_TYPES, kind  # the corpus holds no type the tables do not name


def test_no_user_name_survives(session: CorpusSession) -> None:
    for policy in ("default", "public"):
        data = _run(session.name, policy).data.decode()
        for name in USER_NAMES:
            assert name not in data, (policy, name)


def test_paths_are_relative_or_labels(session: CorpusSession) -> None:
    m: dict[str, Any] = _run(session.name, "default").session_map
    for f in m["files"]:
        assert not f["path"].startswith(("/", "~")) and ":" not in f["path"][:3]
