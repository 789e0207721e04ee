"""Zed over the shared corpus: every file of its folder read (each thread of a store on its own) or
skipped with a reason that names it; each map valid under the JSON Schema, the model and the strict
reading of the seed, under every policy; and fidelity: a small parser written here, straight from the
SQLite rows (zstd inflated here with the zstandard library, sharing no code with the reader), counts
each thread's prompts, model responses, tool calls, terminal commands, file edits, failed calls and
tokens, and the map must agree exactly. The same counts are checked on the fixture store. Skipped
cleanly when ../shared/corpus is absent. `full_counts` counts every field of tests/formats/fidelity.py's
`Counts` (issue 25) the same way: Zed keeps no time per message, so the times are the row's
`created_at` and `updated_at`; the model is the thread's (Zed's display name, spelled as a model id:
lower case, spaces as dashes).

    PYTHONPATH=. python -m tests.formats.test_zed_fidelity

prints the agreement per thread version."""
from __future__ import annotations

import io
import json
import sqlite3
from collections import Counter
from contextlib import closing
from datetime import datetime
from functools import cache
from pathlib import Path

import jsonschema
import pytest
import zstandard

from redact.api import Result, redact_file
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from tests.audit.scanner_maps import KEY
from tests.conftest import CORPUS_ABSENT, corpus_case, corpus_dir, corpus_params
from tests.formats import zedfix
from tests.formats.fidelity import Counts as Full
from tests.formats.fidelity import differences, iso, table
from tests.formats.fidelity import map_counts as full_map_counts
from tests.formats.seed_strict import violations
from tests.maps import shell_commands

POLICIES = ("default", "internal", "public")
CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
#: corpus files that are not stores, each with why (none today: the folder holds one threads.db)
SKIPPED: dict[str, str] = {}


def _ro(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)


def _files() -> list[Path]:
    return sorted(p for p in corpus_dir("zed").rglob("*") if p.is_file())


def _units() -> list[str]:
    files = corpus_params(_files)
    if files == [CORPUS_ABSENT]:
        return files
    out = []
    for path in files:
        if path.read_bytes()[:16] == b"SQLite format 3\x00":
            with closing(_ro(path)) as db:
                out += [f"{path}#{r[0]}" for r in db.execute("SELECT id FROM threads")]
    return out


# -- the source side: straight from the row -----------------------------------------------------------

def count(db_path: Path, tid: str) -> dict[str, int]:
    with closing(_ro(db_path)) as db:
        kind, blob = db.execute("SELECT data_type, data FROM threads WHERE id = ?", (tid,)).fetchone()
    raw = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(blob)).read(1 << 28) if kind == "zstd" else blob
    doc = json.loads(raw)
    users = [m["User"] for m in doc["messages"] if isinstance(m, dict) and "User" in m]
    agents = [m["Agent"] for m in doc["messages"] if isinstance(m, dict) and "Agent" in m]
    uses = [c["ToolUse"] for a in agents for c in a["content"] if "ToolUse" in c]
    results = [r for a in agents for r in a["tool_results"].values()]
    ids = {u["id"] for u in users}
    tokens = sum(sum(v for v in usage.values()) for uid, usage in doc.get("request_token_usage", {}).items()
                 if uid in ids)
    return {"user": len(users), "llm": len(agents), "calls": len(uses),
            "shell": sum(u["name"] == "terminal" for u in uses),
            "edits": sum(u["name"] in ("edit_file", "create_file", "delete_path") for u in uses),
            "failed": sum(r["is_error"] for r in results), "tokens": tokens}


def mapped(m: dict[str, object]) -> dict[str, int]:
    events = m["events"]
    assert isinstance(events, list)
    kinds = Counter(e["kind"] for e in events)
    llm = [e for e in events if e["kind"] == "llm"]
    return {"user": kinds["user"], "llm": kinds["llm"], "calls": sum(kinds[k] for k in CALLS),
            "shell": shell_commands(m), "edits": kinds["edit"],
            "failed": sum(1 for e in events if e["kind"] in CALLS and e.get("err")),
            "tokens": sum(e.get("in", 0) + e.get("out", 0) + e.get("cw", 0) + e.get("cr", 0) for e in llm)}


@cache
def _run(unit: str, policy: str) -> Result:
    return redact_file(unit, policy=policy, key=KEY if policy == "public" else None)


@pytest.fixture(params=_units(), ids=lambda u: u.rsplit("#", 1)[-1])
def unit(request: pytest.FixtureRequest) -> str:
    corpus_case(request.param)
    return str(request.param)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_thread_yields_a_valid_map(unit: str, policy: str) -> None:
    m = _run(unit, policy).session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    SessionMap.model_validate(m)
    assert not violations(m)
    assert m["session"]["agentTool"] == "zed" and m["events"]


def test_the_map_keeps_what_the_thread_did(unit: str) -> None:
    path, _, tid = unit.partition("#")
    assert mapped(_run(unit, "default").session_map) == count(Path(path), tid)


def test_every_corpus_file_is_read_or_skipped_with_a_reason() -> None:
    files = corpus_params(_files)
    corpus_case(files[0] if files else CORPUS_ABSENT)
    for path in files:
        if path.name in SKIPPED:
            continue
        assert path.read_bytes()[:16] == b"SQLite format 3\x00", f"{path.name}: neither read nor skipped"
        assert [u for u in _units() if u.startswith(f"{path}#")], f"{path.name}: a store with no thread"


def test_the_fixture_store_agrees_too(tmp_path: Path) -> None:
    db = tmp_path / "threads.db"
    zedfix.threads_db(db)
    want = count(db, zedfix.TID)
    assert want["calls"] == zedfix.COUNTS["calls"]
    assert mapped(redact_file(db, policy="default").session_map) == want



# -- every field of the shared Counts (issue 25) -----------------------------------------------------
_KIND = {"terminal": "shell", "read_file": "read", "edit_file": "edit", "streaming_edit_file": "edit",
         "create_file": "edit", "delete_path": "edit", "grep": "search", "find_path": "search",
         "list_directory": "search", "fetch": "web", "web_search": "web"}


def _ms(value: object) -> float | None:
    if not isinstance(value, str) or not value:
        return None
    head, _, frac = value.replace("Z", "+00:00").partition(".")
    digits = frac[:len(frac) - len(frac.lstrip("0123456789"))]  # nanoseconds: more than datetime reads
    zone = frac[len(digits):] or "+00:00"
    return datetime.fromisoformat(head + zone).timestamp() * 1000 + float("0." + (digits or "0")) * 1000


def full_counts(db_path: Path, tid: str) -> Full:
    with closing(_ro(db_path)) as db:
        kind, blob, created, updated = db.execute(
            "SELECT data_type, data, created_at, updated_at FROM threads WHERE id = ?", (tid,)).fetchone()
    raw = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(blob)).read(1 << 28) if kind == "zstd" else blob
    doc = json.loads(raw)
    c = Full()
    by_tool: Counter[str] = Counter()
    order: list[str] = []
    users = [m["User"] for m in doc["messages"] if isinstance(m, dict) and "User" in m]
    agents = [m["Agent"] for m in doc["messages"] if isinstance(m, dict) and "Agent" in m]
    c.turns, c.requests = len(users), len(agents)
    ids = {u["id"] for u in users}
    c.tokens = sum(sum(usage.values()) for uid, usage in doc.get("request_token_usage", {}).items() if uid in ids)
    for agent in agents:
        for part in agent["content"]:
            if "ToolUse" not in part:
                continue
            use = part["ToolUse"]
            name, args = use["name"], use.get("input") or {}
            kind = _KIND.get(name, "other")
            c.calls += 1
            by_tool["<web>" if kind == "web" else name] += 1
            order.append(kind)
            c.shell += kind == "shell"
            c.reads += kind == "read" and bool(args.get("path"))
            if kind == "edit" and args.get("path"):
                c.edits += 1
                c.creates += name == "create_file" or args.get("mode") == "create"
        c.errors += sum(bool(r["is_error"]) for r in agent["tool_results"].values())
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    model = (doc.get("model") or {}).get("model")
    c.models = (model.lower().replace(" ", "-"),) if model else ()
    times = [t for t in (_ms(created), _ms(updated)) if t is not None]
    if times:
        c.start = iso(min(times))
        c.duration = int(round(max(times) - min(times)))
    return c


@cache
def _full(unit: str) -> tuple[str, Full, Full]:
    path, _, tid = unit.partition("#")
    with closing(_ro(Path(path))) as db:
        kind, blob = db.execute("SELECT data_type, data FROM threads WHERE id = ?", (tid,)).fetchone()
    raw = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(blob)).read(1 << 28) if kind == "zstd" else blob
    version = json.loads(raw).get("version", "?")
    return str(version), full_counts(Path(path), tid), full_map_counts(_run(unit, "internal").session_map, ("terminal",))


def test_every_thread_agrees_on_every_count(unit: str) -> None:
    _, source, produced = _full(unit)
    assert differences(source, produced) == {}


def test_the_fixture_store_agrees_on_every_count(tmp_path: Path) -> None:
    db = tmp_path / "threads.db"
    zedfix.threads_db(db)
    produced = full_map_counts(redact_file(db, policy="internal").session_map, ("terminal",))
    assert differences(full_counts(db, zedfix.TID), produced) == {}
    assert produced.duration > 0  # the row's updated_at: the thread lasted until it was last written


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(table([_full(u) for u in _units()]))
