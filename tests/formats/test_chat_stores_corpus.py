"""Every file of the shared corpus's opencode, Cursor, Crush, Aider, OpenHands, Amp and Continue folders,
through the pipeline (and, for the JSON formats, `--to native`).

Skipped cleanly when ../shared/corpus is absent. Each file is either read (each session of a SQLite
store on its own) or deliberately skipped as auxiliary, with the reason. Every map validates against
the shipped JSON Schema and the model under default, internal and public (the scanner runs inside
every redaction: a finding would have refused the map), and its counts (tool calls, shell commands,
file edits, tokens) agree with a count made here, straight from the store or the Markdown, without
the readers. The stores are opened read-only (`immutable`: the corpus copies have no WAL) and never
change.
"""
from __future__ import annotations

import hashlib
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from functools import cache
from pathlib import Path

import jsonschema
import orjson
import pytest

from redact.api import Result, redact_file
from redact.errors import BadInput
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from tests.audit.scanner_maps import KEY
from tests.conftest import CORPUS_ABSENT, corpus_case, corpus_dir, corpus_params
from tests.maps import shell_commands

pytestmark = pytest.mark.corpus
FOLDERS = ("opencode", "cursor", "crush", "aider", "openhands", "amp", "continue")
POLICIES = ("default", "internal", "public")
CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
#: files that are not sessions: the tool skips them by name (redact/formats/auxiliary.py), never reads them
AUXILIARY = {
    ".aider.input.history": "never read",
    ".aider.llm.history": "never read",
    "opencode.log": "never read",
    "prompt-history.jsonl": "never read",
    "sessions.json": "never read",
    "toolUsage.jsonl": "never read",
}


def _files() -> list[Path]:
    return sorted(p for sub in FOLDERS for p in corpus_dir(sub).rglob("*") if p.is_file())


def _ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)


def _is_db(path: Path) -> bool:
    return path.read_bytes()[:16] == b"SQLite format 3\x00"


def _units() -> list[str]:
    """`path` or `path#session` for everything that must read; auxiliary files are not units."""
    files = corpus_params(_files)
    if files == [CORPUS_ABSENT]:
        return files
    out: list[str] = []
    for path in files:
        if any(path.name.endswith(aux) for aux in AUXILIARY):
            continue
        if _v0_folder(path) is not None and path.name != "metadata.json":
            continue  # a file of an OpenHands V0 conversation folder: the conversation is one unit
        if _is_db(path):
            out.extend(f"{path}#{sid}" for sid in _sessions(path))
        elif path.name.endswith(".aider.chat.history.md"):  # each launch of Aider is a session: FILE#N
            out.extend(f"{path}#{n}" for n in range(1, len(_aider_runs(path)) + 1))
        else:
            out.append(str(path))
    return out


def _sessions(path: Path) -> list[str]:
    with closing(_ro(path)) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "part" in names:
            return [r[0] for r in db.execute("SELECT id FROM session")]
        if "messages" in names:
            return [r[0] for r in db.execute("SELECT id FROM sessions")]
        if "cursorDiskKV" in names:
            found = []
            for key, value in db.execute("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'"):
                doc = orjson.loads(value) if value else {}
                if doc.get("fullConversationHeadersOnly") or doc.get("conversation"):
                    found.append(key.split(":", 1)[1])
            return found
        row = db.execute("SELECT value FROM ItemTable WHERE key = "
                         "'workbench.panel.aichat.view.aichat.chatdata'").fetchone()
        tabs = orjson.loads(row[0])["tabs"] if row else []
        return [t["tabId"] for t in tabs if t.get("bubbles")]


@cache
def _run(unit: str, policy: str) -> Result:
    return redact_file(unit, policy=policy, key=KEY if policy == "public" else None)


# -- independent counts -------------------------------------------------------------------------------

def _count_opencode(db: sqlite3.Connection, sid: str) -> dict[str, int]:
    parts = [orjson.loads(r[0]) for r in db.execute("SELECT data FROM part WHERE session_id = ?", (sid,))]
    tools = [p for p in parts if p.get("type") == "tool"]
    tokens = 0
    for (data,) in db.execute("SELECT data FROM message WHERE session_id = ?", (sid,)):
        m = orjson.loads(data)
        if m.get("role") == "assistant":
            t = m.get("tokens") or {}
            tokens += t.get("input", 0) + t.get("output", 0) + t.get("reasoning", 0)
    return {"calls": len(tools), "shell": sum(p["tool"] == "bash" for p in tools),
            "edits": sum(p["tool"] in ("edit", "write", "multiedit", "patch") for p in tools), "tokens": tokens}


def _count_crush(db: sqlite3.Connection, sid: str) -> dict[str, int]:
    calls = []
    for (parts,) in db.execute("SELECT parts FROM messages WHERE session_id = ? AND role = 'assistant'", (sid,)):
        calls += [p["data"]["name"] for p in orjson.loads(parts) if p.get("type") == "tool_call"]
    prompt, completion = db.execute("SELECT prompt_tokens, completion_tokens FROM sessions WHERE id = ?",
                                    (sid,)).fetchone()
    return {"calls": len(calls), "shell": calls.count("bash"),
            "edits": sum(n in ("edit", "multiedit", "write") for n in calls), "tokens": prompt + completion}


def _count_cursor(db: sqlite3.Connection, sid: str) -> dict[str, int]:
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "cursorDiskKV" not in names:
        return {"calls": 0, "shell": 0, "edits": 0, "tokens": 0}
    doc = orjson.loads(db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (f"composerData:{sid}",)).fetchone()[0])
    tools: list[str] = []
    tokens = 0
    for head in doc.get("fullConversationHeadersOnly") or []:
        row = db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (f"bubbleId:{sid}:{head['bubbleId']}",)).fetchone()
        bubble = orjson.loads(row[0]) if row and row[0] else {}
        if bubble.get("type") == 2:
            tokens += sum((bubble.get("tokenCount") or {}).values())
        if bubble.get("toolFormerData", {}).get("name"):
            tools.append(bubble["toolFormerData"]["name"])
    return {"calls": len(tools), "shell": sum(n.startswith("run_terminal") for n in tools),
            "edits": sum(n.startswith(("edit_file", "search_replace", "write", "delete_file")) for n in tools),
            "tokens": tokens}


_K = {"k": 1000, "m": 1_000_000, "": 1}


def _aider_runs(path: Path) -> list[list[str]]:
    """The lines of each `# aider chat started at` run of a history (split here, not by the reader)."""
    runs: list[list[str]] = []
    for ln in path.read_text(encoding="utf-8", errors="replace").split("\n"):
        if ln.startswith("# aider chat started at ") or not runs:
            runs.append([])
        runs[-1].append(ln)
    return [run for run in runs if run and run[0].startswith("# aider chat started at ")]


def _count_aider(path: Path, n: int) -> dict[str, int]:
    lines = _aider_runs(path)[n - 1]
    edits = sum(1 for ln in lines if ln.startswith("> Applied edit to ")
                and re.fullmatch(r"[^\s*`'\"<>|]+", ln[len("> Applied edit to "):].strip()))
    shell = 0
    previous = ""
    for ln in lines:  # a command starts an input: the previous non-blank line is not input too
        if re.match(r"#### (/run|/test|!)", ln) and not previous.startswith("####"):
            shell += 1
        previous = ln if ln.strip() else previous
    shell += sum(1 for ln in lines if ln.startswith("> Commit ") and re.match(r"> Commit [0-9a-f]{7,40} ", ln))
    for i, ln in enumerate(lines):
        if re.match(r"> Run shell commands?\? .*\b(y|yes)\s*$", ln.rstrip(), re.IGNORECASE):
            j = i - 1
            while j >= 0 and lines[j].startswith("> ") and lines[j][2:].strip() and \
                    not re.match(r"> (Tokens|Applied edit|Commit|Aider v|Main model|Model|Added)", lines[j]):
                shell += 1
                j -= 1
    tokens = 0
    for ln in lines:
        if ln.startswith("> Tokens: "):
            for number, scale, what in re.findall(r"([0-9][0-9.,]*)(k|m)? (sent|received)", ln):
                tokens += int(float(number.replace(",", "")) * _K[scale])
    return {"edits": edits, "shell": shell, "tokens": tokens}


def _count_openhands(path: Path) -> dict[str, int]:
    actions = [e["action"] for e in orjson.loads(path.read_bytes()) if e.get("kind") == "ActionEvent"]
    return {"calls": len(actions), "shell": sum(a["kind"] == "TerminalAction" for a in actions),
            "edits": sum(a["kind"] == "FileEditorAction" and a.get("command") != "view" for a in actions),
            "tokens": 0}


def _v0_folder(path: Path) -> Path | None:
    """The OpenHands V0 conversation folder (`.openhands/sessions/<id>/`) holding `path`."""
    for folder in (path.parent, path.parent.parent):
        if folder.parent.name == "sessions" and (folder / "events").is_dir():
            return folder
    return None


def _count_openhands_v0(folder: Path) -> dict[str, int]:
    events = [orjson.loads(p.read_bytes()) for p in (folder / "events").glob("*.json")]
    calls = [e for e in events if e.get("source") == "agent" and e.get("action") in (
        "run", "read", "write", "edit", "browse", "call_tool_mcp", "think", "finish", "delegate", "run_ipython")]
    usage = {e["tool_call_metadata"]["model_response"]["id"]: e["tool_call_metadata"]["model_response"]["usage"]
             for e in calls}
    return {"calls": len(calls), "shell": sum(e["action"] == "run" for e in calls),
            "edits": sum(e["action"] == "edit" and e["args"].get("command") != "view" for e in calls),
            "tokens": sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage.values())}


def _count_amp(path: Path) -> dict[str, int]:
    doc = orjson.loads(path.read_bytes())
    uses = [b["name"] for m in doc["messages"] for b in m.get("content", []) if b.get("type") == "tool_use"]
    tokens = sum(m.get("usage", {}).get("inputTokens", 0) + m.get("usage", {}).get("outputTokens", 0)
                 for m in doc["messages"] if m["role"] == "assistant")
    # the ledger's model calls that no message shows (the title generation)
    tokens += sum(e["tokens"]["input"] + e["tokens"]["output"] for e in doc.get("usageLedger", {}).get("events", [])
                  if e.get("operationType") != "inference")
    return {"calls": len(uses), "shell": uses.count("Bash"),
            "edits": sum(n in ("edit_file", "create_file") for n in uses), "tokens": tokens}


def _count_continue(path: Path) -> dict[str, int]:
    doc = orjson.loads(path.read_bytes())
    names = [tc["function"]["name"] for h in doc["history"] for tc in h["message"].get("toolCalls") or []]
    usage = [h["message"].get("usage") or {} for h in doc["history"]]
    # total_tokens: prompt, completion and a thinking model's thoughts (which only it counts)
    tokens = sum(u.get("total_tokens") or u.get("prompt_tokens", 0) + u.get("completion_tokens", 0) for u in usage)
    return {"calls": len(names), "shell": sum(n in ("Bash", "run_terminal_command") for n in names),
            "edits": sum(n in ("Write", "Edit", "MultiEdit", "edit_existing_file", "create_new_file",
                               "single_find_and_replace") for n in names), "tokens": tokens}


def _independent(unit: str) -> dict[str, int]:
    path, _, sid = unit.partition("#")
    p = Path(path)
    if "continue_sessions_" in p.name:
        return _count_continue(p)
    if "_amp_threads_T-" in p.name:
        return _count_amp(p)
    if p.name.endswith("events.json"):
        return _count_openhands(p)
    folder = _v0_folder(p)
    if folder is not None:
        return _count_openhands_v0(folder)
    if p.name.endswith(".aider.chat.history.md"):
        return _count_aider(p, int(sid))
    with closing(_ro(p)) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "part" in names:
            return _count_opencode(db, sid)
        if "messages" in names:
            return _count_crush(db, sid)
        return _count_cursor(db, sid)


# -- tests --------------------------------------------------------------------------------------------

@pytest.fixture(params=_units(), ids=lambda u: u.rsplit("/", 1)[-1][-60:])
def unit(request: pytest.FixtureRequest) -> str:
    corpus_case(request.param)
    return str(request.param)


def _digest(paths: Iterator[Path]) -> dict[str, tuple[str, int]]:
    return {str(p): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in paths}


@pytest.mark.parametrize("policy", POLICIES)
def test_every_session_yields_a_valid_map(unit: str, policy: str) -> None:
    store = Path(unit.partition("#")[0])
    before = _digest(iter([store]))
    m = _run(unit, policy).session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    SessionMap.model_validate(m)
    assert m["session"]["agentTool"] in ("opencode", "cursor", "crush", "aider", "openhands", "amp",
                                         "continue")
    assert _digest(iter([store])) == before


def test_counts_agree_with_an_independent_count(unit: str) -> None:
    m = _run(unit, "default").session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = _independent(unit)
    if "calls" in want:
        assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert shell_commands(m) == want["shell"]
    assert kinds["edit"] == want["edits"]
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e.get("in", 0) + e.get("out", 0) for e in llm) == want["tokens"]


def test_every_corpus_file_is_read_or_skipped_with_a_reason() -> None:
    files = _files()
    for path in files:
        if any(path.name.endswith(name) for name in AUXILIARY):
            with pytest.raises(BadInput, match="never read"):
                redact_file(path)
    assert sum(_is_db(p) for p in files) == 5




def test_native_output_passes_the_native_scan() -> None:
    from redact.api_native import scrub_native
    from redact.policy.load import load_policy
    from redact.report import RedactionReport

    found = [(p, "openhands") for p in sorted(corpus_dir("openhands").glob("*events.json"))]
    found += [(p, "amp") for p in sorted(corpus_dir("amp").glob("*.json"))]
    found += [(p, "continue-dev") for p in sorted(corpus_dir("continue").glob("*_sessions_*-*.json"))]
    for path, fmt in found:
        for policy in POLICIES:
            out = scrub_native(path.read_bytes(), fmt, name=path.name, policy=load_policy(policy),
                               key=KEY if policy == "public" else None, mode=None,
                               report=RedactionReport(source=path.name))
            assert orjson.loads(out) and b'"chars"' in out
