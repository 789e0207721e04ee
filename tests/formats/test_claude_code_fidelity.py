"""Fidelity over the shared corpus: does each Claude Code map keep everything its session did?

A small parser written here, straight from the JSON and sharing no code with the reader, counts in
each source: tool calls, shell commands, file edits, subagents, failed tool calls, model requests,
model API errors and tokens. The map's own totals and events are counted the same way; they must
agree exactly. Skipped when ../shared/corpus is absent.

Per client version (`version` of the main transcript's records), agreement is printed by
`python -m tests.formats.test_claude_code_fidelity [CORPUS_DIR]`.
"""
from __future__ import annotations

import sys
from collections import Counter
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.api import redact_bytes

EDIT_TOOLS = ("Edit", "MultiEdit", "Write", "NotebookEdit")
CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@dataclass
class Counts:
    calls: int = 0  # tool calls (a 0.2.x Batch counts each tool it ran)
    shell: int = 0  # Bash calls
    edits: int = 0  # Edit / MultiEdit / Write / NotebookEdit calls
    subagents: int = 0  # subagent lanes (Task/Agent transcripts, helper transcripts)
    tool_errors: int = 0  # failed tool calls (is_error, or an interrupted result)
    requests: int = 0  # model responses (distinct message ids)
    llm_errors: int = 0  # API errors (synthetic error messages, system api_error records)
    tokens: int = 0  # input + cache write + cache read + output over all responses


# -- the source side ----------------------------------------------------------------------------------

def _lines(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_bytes().split(b"\n"):  # split on \n only: a raw U+2028 may sit in a string
        if line.strip():
            rec = orjson.loads(line)
            if isinstance(rec, dict):
                out.append(rec)
    return out


class Source:
    def __init__(self) -> None:
        self.uuids: set[str] = set()
        self.calls: dict[str, str] = {}  # tool_use id -> tool name
        self.failed: set[str] = set()
        self.answered: set[str] = set()
        self.usage: dict[str, list[int]] = {}
        self.llm_errors = 0
        self.lanes: set[str] = set()
        self.chain: dict[Any, str] = {}  # record uuid -> its sidechain (old clients, no agentId)

    def assistant(self, rec: dict[str, Any]) -> None:
        msg = rec.get("message")
        if not isinstance(msg, dict):
            return
        if rec.get("isApiErrorMessage") is True or msg.get("model") == "<synthetic>":
            if rec.get("isApiErrorMessage") is True or rec.get("error"):
                self.llm_errors += 1
            return
        mid = msg.get("id") or rec.get("requestId") or rec.get("uuid")
        usage = msg.get("usage") if isinstance(msg.get("usage"), dict) else {}
        names = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
        got = [v if isinstance(v := usage.get(n), int) and v > 0 else 0 for n in names]
        before = self.usage.setdefault(str(mid), [0, 0, 0, 0])  # streamed records repeat the usage
        self.usage[str(mid)] = [max(a, b) for a, b in zip(before, got)]
        for block in msg.get("content") if isinstance(msg.get("content"), list) else ():
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            if block.get("id") in self.calls:
                continue
            runs = block.get("input", {}).get("invocations") if block.get("name") == "Batch" else None
            if isinstance(runs, list):
                for n, run in enumerate(runs):
                    self.calls[f"{block['id']}#{n}"] = run["tool_name"]
                self.calls[block["id"]] = "<batch>"
            else:
                self.calls[block["id"]] = block.get("name", "")

    def user(self, rec: dict[str, Any]) -> None:
        msg = rec.get("message")
        content = msg.get("content") if isinstance(msg, dict) else None
        results = [b for b in content or () if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if isinstance(content, list) else []
        tur = rec.get("toolUseResult") if len(results) == 1 else None
        for block in results:
            tid = block.get("tool_use_id")
            if tid in self.answered:
                continue
            self.answered.add(tid)
            if isinstance(tur, dict) and isinstance(tur.get("orderedToolResults"), list):
                for entry in tur["orderedToolResults"]:  # a Batch: each tool's own result
                    for inner in entry["message"]["message"]["content"]:
                        n = inner["tool_use_id"].rpartition("_")[2]
                        if inner.get("is_error") is True:
                            self.failed.add(f"{tid}#{n}")
                continue
            if block.get("is_error") is True or (isinstance(tur, dict) and tur.get("interrupted") is True):
                self.failed.add(tid)

    def record(self, rec: dict[str, Any], lane: str | None) -> None:
        uuid = rec.get("uuid")
        kind = rec.get("type")
        if kind == "progress":
            return
        if isinstance(uuid, str):
            if uuid in self.uuids:
                return  # resumed sessions repeat records
            self.uuids.add(uuid)
        if kind == "system" and rec.get("subtype") == "api_error":
            self.llm_errors += 1
        if kind not in ("user", "assistant"):
            return
        if lane is not None:
            self.lanes.add(lane)
        (self.assistant if kind == "assistant" else self.user)(rec)


def source_counts(main: Path, sidechains: list[tuple[Path, str]]) -> Counts:
    src = Source()
    with_files = {agent for _, agent in sidechains}
    records = _lines(main)
    first = next((r for r in records if r.get("type") in ("user", "assistant")), None)
    alone = first is not None and first.get("isSidechain") is True  # a subagent transcript on its own
    for rec in records:
        lane = None
        if rec.get("isSidechain") is True and not alone:
            agent = rec.get("agentId")
            if isinstance(agent, str) and agent:
                lane = agent
            else:  # an old client's sidechain inside the main file: one lane per parentUuid chain
                lane = src.chain.get(rec.get("parentUuid")) or f"chain:{rec.get('uuid')}"
                src.chain[rec.get("uuid")] = lane
        data = rec.get("data")
        if rec.get("type") == "progress" and isinstance(data, dict) and data.get("type") == "agent_progress" \
                and data.get("agentId") and data.get("agentId") not in with_files \
                and isinstance(data.get("message"), dict):
            # a subagent without a transcript of its own: its messages ride in progress records
            if rec.get("uuid") not in src.uuids:
                src.uuids.add(rec.get("uuid"))
                src.record(data["message"], data["agentId"])
            continue
        src.record(rec, lane)
    for path, agent in sidechains:
        for rec in _lines(path):
            src.record(rec, agent)
    names = [name for name in src.calls.values() if name != "<batch>"]
    batches = {cid for cid, name in src.calls.items() if name == "<batch>"}
    return Counts(
        calls=len(names),
        shell=names.count("Bash"),
        edits=sum(names.count(t) for t in EDIT_TOOLS),
        subagents=len(src.lanes),
        tool_errors=len({c for c in src.failed if c in src.calls and c not in batches}),
        requests=len(src.usage),
        llm_errors=src.llm_errors,
        tokens=sum(sum(u) for u in src.usage.values()),
    )


# -- the map side --------------------------------------------------------------------------------------

def map_counts(m: dict[str, Any]) -> Counts:
    evs = m["events"]
    calls = [e for e in evs if e["kind"] in CALL_KINDS]
    return Counts(
        calls=m["totals"]["calls"],
        # a read-only shell line (`cat`, `rg`) is a read or search event of the Bash tool
        shell=sum(1 for e in calls if e["kind"] in ("exec", "verify", "read", "search")
                  and e.get("tool") == "Bash"),
        edits=sum(1 for e in calls if e["kind"] == "edit"),
        subagents=m["totals"]["subagents"],
        # a call with no result at all is the map's own finding (no_result), not a failure the log shows
        tool_errors=sum(1 for e in calls if e.get("err") and e.get("errClass") != "no_result"),
        requests=m["totals"]["requests"],
        llm_errors=sum(1 for e in evs if e["kind"] == "error" and e.get("source") == "llm"),
        tokens=m["totals"]["tokens"],
    )


def version_of(main: Path) -> str:
    seen = Counter(r["version"] for r in _lines(main) if isinstance(r.get("version"), str))
    return seen.most_common(1)[0][0] if seen else "<none>"


def compare(session: Any) -> tuple[Counts, Counts]:
    result = redact_bytes(session.main.read_bytes(), name=session.name, companions=session.sidechains)
    src = source_counts(session.main, [(s.path, s.agent_id) for s in session.sidechains])
    return src, map_counts(result.session_map)


# -- the test ------------------------------------------------------------------------------------------

def _sessions() -> list[Any]:
    from tests.conftest import corpus_dir
    from tests.formats.corpus_cc import sessions

    return sessions(corpus_dir("claude-code"))


@pytest.mark.corpus
def test_every_map_keeps_what_its_session_did() -> None:
    disagree: dict[str, dict[str, tuple[int, int]]] = {}
    for session in _sessions():
        src, got = compare(session)
        diff = {f.name: (a, b) for f, a, b in zip(fields(Counts), astuple(src), astuple(got)) if a != b}
        if diff:
            disagree[session.name] = diff
    assert disagree == {}


def main(folder: str | None = None) -> None:  # pragma: no cover - a report for people
    from tests.formats.corpus_cc import sessions

    here = Path(__file__).resolve().parents[2].parent
    root = Path(folder) if folder else here / "shared" / "corpus" / "claude-code"
    by_version: dict[str, list[int]] = {}
    for session in sessions(root):
        src, got = compare(session)
        agree = sum(1 for a, b in zip(astuple(src), astuple(got)) if a == b)
        row = by_version.setdefault(version_of(session.main), [0, 0, 0])
        row[0] += 1
        row[1] += agree
        row[2] += len(fields(Counts))
    print("version   sessions  counts agreeing")
    for version, (n, agree, total) in sorted(by_version.items()):
        print(f"{version:9} {n:8}  {agree}/{total} ({100 * agree / total:.1f}%)")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1] if len(sys.argv) > 1 else None)
