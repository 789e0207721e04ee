"""Goose over the shared corpus: every file of its folder read or skipped with a reason that names it
(the store; the JSON Lines fragments, whose last line the excerpt cut, read with --skip-bad-lines
and refused without; the projects index skipped by name); each map valid under the JSON Schema, the
model and the strict reading of the seed, under every policy; and fidelity: a small parser written
here, straight from the JSON Lines (and the store's rows) and sharing no code with the reader,
counts prompts, model responses, tool calls, shell commands, file edits and failed calls, and the map
must agree exactly, on the corpus and on the fixture sessions. Skipped cleanly when ../shared/corpus
is absent."""
from __future__ import annotations

import json
import sqlite3
from collections import Counter
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from redact.api import Result, redact_bytes, redact_file
from redact.errors import BadInput
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from tests.audit.scanner_maps import KEY
from tests.conftest import CORPUS_ABSENT, corpus_case, corpus_dir, corpus_params
from tests.formats import goosefix
from tests.formats.seed_strict import violations
from tests.maps import shell_commands

POLICIES = ("default", "internal", "public")
CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
#: corpus files that are not sessions, each with the words of the reason the tool gives
SKIPPED = {"projects.json": "project index"}
SHELLS = ("developer__shell", "DeveloperSystem__bash")
EDITORS = ("developer__text_editor", "DeveloperSystem__text_editor")


def _files() -> list[Path]:
    return sorted(p for p in corpus_dir("goose").rglob("*") if p.is_file())


def _units() -> list[str]:
    files = corpus_params(_files)
    if files == [CORPUS_ABSENT]:
        return files
    out: list[str] = []
    for path in files:
        if path.read_bytes()[:16] == b"SQLite format 3\x00":
            with closing(sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)) as db:
                out += [f"{path}#{r[0]}" for r in db.execute("SELECT id FROM sessions")]
        elif path.suffix == ".jsonl":
            out.append(str(path))
    return out


# -- the source side ----------------------------------------------------------------------------------

def _item(i: dict[str, Any]) -> tuple[str, Any]:
    """(kind, detail) of one content item of any generation, read here on its own."""
    if i.get("type") == "text" or "Text" in i or ("text" in i and "type" not in i):
        return "text", None
    if i.get("type") == "image" or "Image" in i:
        return "image", None
    if i.get("type") == "toolRequest":
        call = i["toolCall"]
        return ("call", (i["id"], call["value"]["name"], call["value"]["arguments"])) \
            if call.get("status") == "success" else ("bad", None)
    if "ToolRequest" in i:
        call = i["ToolRequest"]["tool_call"]
        return ("call", (i["ToolRequest"]["id"], call["Ok"]["name"], call["Ok"]["arguments"])) if "Ok" in call \
            else ("bad", None)
    if "tool_name" in i:
        return "call", (None, i["tool_name"], i.get("arguments") or {})
    if i.get("type") == "toolResponse":
        r = i["toolResult"]
        return "result", (i["id"], r.get("status") == "error" or
                          (isinstance(r.get("value"), dict) and r["value"].get("isError") is True))
    if "ToolResponse" in i:
        return "result", (i["ToolResponse"]["id"], "Err" in i["ToolResponse"]["tool_result"])
    if "tool_result" in i:
        return "result", (i.get("id"), False)
    return "other", None


def count_records(records: list[dict[str, Any]]) -> dict[str, int]:
    """Counts of a session; a call never answered counts as failed (the map says `no_result`), and a
    late-2024 call (no id) takes the next result by order."""
    out = Counter[str]()
    open_ids: set[str] = set()
    open_plain = 0
    for r in records:
        if r.get("role") not in ("user", "assistant"):
            continue
        items = [_item(i) for i in r.get("content") or []]
        if r["role"] == "assistant":
            out["llm"] += 1
            for kind, detail in items:
                if kind != "call":
                    continue
                cid, name, args = detail
                out["calls"] += 1
                out["shell"] += name in SHELLS
                out["edits"] += name in EDITORS and args.get("command") in ("write", "str_replace", "insert",
                                                                             "undo_edit")
                if cid is None:
                    open_plain += 1
                else:
                    open_ids.add(cid)
        else:
            out["user"] += any(k in ("text", "image") for k, _ in items)
            for kind, detail in items:
                if kind != "result":
                    continue
                rid, error = detail
                if rid in open_ids:
                    open_ids.discard(rid)
                elif open_plain:
                    open_plain -= 1
                else:
                    continue
                out["failed"] += bool(error)
    out["failed"] += len(open_ids) + open_plain
    return {k: out[k] for k in ("user", "llm", "calls", "shell", "edits", "failed")}


def _lines(data: bytes) -> list[dict[str, Any]]:
    out = []
    for line in data.splitlines():
        try:
            found = json.loads(line)
        except json.JSONDecodeError:
            continue  # the excerpt's cut last line
        if isinstance(found, dict):
            out.append(found)
    return out


def count(unit: str) -> dict[str, int]:
    path, _, sid = unit.partition("#")
    if not sid:
        return count_records(_lines(Path(path).read_bytes()))
    with closing(sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)) as db:
        rows = db.execute("SELECT role, content_json FROM messages WHERE session_id = ? ORDER BY id", (sid,))
        return count_records([{"role": role, "content": json.loads(content)} for role, content in rows])


def mapped(m: dict[str, Any]) -> dict[str, int]:
    kinds = Counter(e["kind"] for e in m["events"])
    return {"user": kinds["user"], "llm": kinds["llm"], "calls": sum(kinds[k] for k in CALLS),
            "shell": shell_commands(m), "edits": kinds["edit"],
            "failed": sum(1 for e in m["events"] if e["kind"] in CALLS and e.get("err"))}


@cache
def _run(unit: str, policy: str) -> Result:
    return redact_file(unit, policy=policy, key=KEY if policy == "public" else None, skip_bad_lines=True)


@pytest.fixture(params=_units(), ids=lambda u: u.rsplit("/", 1)[-1][-48:])
def unit(request: pytest.FixtureRequest) -> str:
    corpus_case(request.param)
    return str(request.param)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_session_yields_a_valid_map(unit: str, policy: str) -> None:
    m = _run(unit, policy).session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    SessionMap.model_validate(m)
    assert not violations(m)
    assert m["session"]["agentTool"] == "goose"


def test_the_map_keeps_what_the_session_did(unit: str) -> None:
    assert mapped(_run(unit, "default").session_map) == count(unit)


def _fragments() -> list[str]:
    units = _units()
    return units if units == [CORPUS_ABSENT] else [u for u in units if "#" not in u]


@pytest.mark.parametrize("fragment", _fragments(), ids=lambda u: u.rsplit("/", 1)[-1][-48:])
def test_a_fragment_is_refused_without_skip_bad_lines(fragment: str) -> None:
    corpus_case(fragment)
    unit = fragment
    with pytest.raises(BadInput) as caught:
        redact_file(unit, policy="default")
    assert Path(unit).name in str(caught.value.where) and "line" in str(caught.value)
    assert _run(unit, "default").report.as_dict()  # read with the flag, the cut line said in the report


def test_every_corpus_file_is_read_or_skipped_with_a_reason() -> None:
    files = corpus_params(_files)
    corpus_case(files[0] if files else CORPUS_ABSENT)
    units = {u.partition("#")[0] for u in _units()}
    for path in files:
        if str(path) in units:
            continue
        reason = next((why for name, why in SKIPPED.items() if path.name.endswith(name)), None)
        assert reason is not None, f"{path.name}: neither read nor skipped"
        with pytest.raises(BadInput, match=reason):
            redact_file(path)


@pytest.mark.parametrize("build", [goosefix.session_2025, goosefix.session_feb_2025, goosefix.session_2024])
def test_the_fixture_sessions_agree_too(build: Any) -> None:
    data = build()
    want = count_records(_lines(data))
    assert want["calls"] > 0
    assert mapped(redact_bytes(data, name="s.jsonl", policy="default").session_map) == want


def test_the_fixture_store_agrees_too(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    goosefix.sessions_db(db)
    unit = f"{db}#{goosefix.SID}"
    assert mapped(redact_file(unit, policy="default").session_map) == count(unit)
