"""Factory Droid over the shared corpus: every file of its folder read (the session logs) or skipped
with a reason that names it (the settings beside them); each map valid under the JSON Schema, the
model and the strict reading of the seed, under every policy; the native copy passes its own proof;
and fidelity: a small parser written here, straight from the JSON Lines and sharing no code with the
reader, counts prompts, model responses, tool calls, shell commands, file edits and failed calls,
and the map must agree exactly (on the corpus, whose one session is a header line only, and on the
fixture session). Skipped cleanly when ../shared/corpus is absent. `full_counts` counts every field of
tests/formats/fidelity.py's `Counts` (issue 25) the same way: the times are the messages'
`timestamp`s (the start: the first prompt or response, as the seed defines `startedAt`; context the
harness injected (`llm_only`) is no event); the model is a message's, else the settings file's
beside the log; `Create` makes a new file.

    PYTHONPATH=. python -m tests.formats.test_factory_droid_fidelity

prints the agreement per session version."""
from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from functools import cache
from pathlib import Path

import jsonschema
import pytest

from redact.batch import run as batch
from redact.api import Result, redact_bytes, redact_file
from redact.api_native import scrub_native
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.audit.scanner_maps import KEY
from tests.conftest import CORPUS_ABSENT, corpus_case, corpus_dir, corpus_params
from tests.formats import droidfix
from tests.formats.fidelity import Counts as Full
from tests.formats.fidelity import differences, iso, table
from tests.formats.fidelity import map_counts as full_map_counts
from tests.formats.seed_strict import violations
from tests.maps import shell_commands

POLICIES = ("default", "internal", "public")
CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _files() -> list[Path]:
    return sorted(p for p in corpus_dir("factory-droid").rglob("*") if p.is_file())


def _logs() -> list[Path]:
    files = corpus_params(_files)
    return files if files == [CORPUS_ABSENT] else [p for p in files if p.suffix == ".jsonl"]


def count(data: bytes) -> dict[str, int]:
    lines = [json.loads(line) for line in data.splitlines() if line.strip()]
    messages = [r for r in lines if r.get("type") == "message"]
    out = Counter[str]()
    for r in messages:
        role, content = r["message"]["role"], r["message"]["content"]
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        if role == "assistant":
            out["llm"] += 1
            uses = [b for b in blocks if b.get("type") == "tool_use"]
            out["calls"] += len(uses)
            out["shell"] += sum(b["name"] == "Execute" for b in uses)
            out["edits"] += sum(b["name"] in ("Edit", "Create", "MultiEdit", "ApplyPatch") for b in uses)
        else:
            out["failed"] += sum(b.get("type") == "tool_result" and b.get("is_error") is True for b in blocks)
            if r.get("visibility") != "llm_only" and any(b.get("type") in ("text", "image") for b in blocks):
                out["user"] += 1
    return {k: out[k] for k in ("user", "llm", "calls", "shell", "edits", "failed")}


def mapped(m: dict[str, object]) -> dict[str, int]:
    events = m["events"]
    assert isinstance(events, list)
    kinds = Counter(e["kind"] for e in events)
    return {"user": kinds["user"], "llm": kinds["llm"], "calls": sum(kinds[k] for k in CALLS),
            "shell": shell_commands(m), "edits": kinds["edit"],
            "failed": sum(1 for e in events if e["kind"] in CALLS and e.get("err"))}


@cache
def _run(path: Path, policy: str) -> Result:
    return redact_file(path, policy=policy, key=KEY if policy == "public" else None)


@pytest.fixture(params=_logs(), ids=lambda p: getattr(p, "name", str(p)))
def log(request: pytest.FixtureRequest) -> Path:
    corpus_case(request.param)
    return Path(request.param)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_session_yields_a_valid_map(log: Path, policy: str) -> None:
    m = _run(log, policy).session_map
    jsonschema.Draft202012Validator(shipped()).validate(m)
    SessionMap.model_validate(m)
    assert not violations(m)
    assert m["session"]["agentTool"] == "factory-droid"
    assert m["session"]["id"].endswith(log.stem) or policy == "public"  # public hashes session ids


def test_the_map_keeps_what_the_session_did(log: Path) -> None:
    assert mapped(_run(log, "default").session_map) == count(log.read_bytes())


@pytest.mark.parametrize("policy", ["default", "public"])
def test_the_native_copy_passes_its_proof(log: Path, policy: str) -> None:
    out = scrub_native(log.read_bytes(), "factory-droid", name=log.name,
                       policy=load_policy(policy, mode="hashed" if policy == "public" else None),
                       key=KEY if policy == "public" else None, mode="hashed" if policy == "public" else None,
                       report=RedactionReport(source=log.name))
    assert len(out.splitlines()) == len(log.read_bytes().splitlines())


def test_every_corpus_file_is_read_or_skipped_with_a_reason(tmp_path: Path) -> None:
    files = corpus_params(_files)
    corpus_case(files[0] if files else CORPUS_ABSENT)
    homes = sorted({p.parent.parent for p in files if p.parent.parent.name == "sessions"})
    tasks, other = batch.plan([str(h) for h in homes], tmp_path / "out")  # each ~/.factory/sessions
    read = {Path(t.input) for t in tasks}
    skipped = {Path(o.input): o.message for o in other if o.status == batch.SKIPPED}
    for path in files:
        assert path in read or (path in skipped and path.name in skipped[path]), f"{path.name}: neither"
    assert all(p.name.endswith(".settings.json") for p in skipped)


def test_the_fixture_session_agrees_too() -> None:
    data = droidfix.session()
    want = count(data)
    assert want["calls"] == droidfix.COUNTS["calls"] and want["user"] == droidfix.COUNTS["user"]
    assert mapped(redact_bytes(data, name="s.jsonl", policy="default").session_map) == want



# -- every field of the shared Counts (issue 25) -----------------------------------------------------
_KIND = {"Execute": "shell", "Read": "read", "Edit": "edit", "Create": "edit", "MultiEdit": "edit",
         "ApplyPatch": "edit", "Grep": "search", "Glob": "search", "LS": "search", "FetchUrl": "web",
         "WebSearch": "web"}


def _ms(value: object) -> float:
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp() * 1000


def full_counts(data: bytes, settings: dict[str, object] | None = None) -> Full:
    c = Full()
    by_tool: Counter[str] = Counter()
    order: list[str] = []
    models: set[str] = set()
    starts: list[float] = []
    times: list[float] = []
    for r in (json.loads(line) for line in data.splitlines() if line.strip()):
        if r.get("type") != "message":
            continue
        role, content = r["message"]["role"], r["message"]["content"]
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        t = _ms(r["timestamp"]) if r.get("timestamp") else None
        if t is not None:
            times.append(t)
        if role == "assistant":
            c.requests += 1
            starts += [t] if t is not None else []
            if r["message"].get("model"):
                models.add(r["message"]["model"])
            for b in blocks:
                if b.get("type") != "tool_use":
                    continue
                kind = _KIND.get(b["name"], "other")
                args = b.get("input") or {}
                named = bool(args.get("file_path") or args.get("path"))
                c.calls += 1
                by_tool["<web>" if kind == "web" else b["name"]] += 1
                order.append(kind)
                c.shell += kind == "shell"
                c.reads += kind == "read" and named
                c.edits += kind == "edit" and named
                c.creates += b["name"] == "Create" and named
        else:
            c.errors += sum(b.get("type") == "tool_result" and b.get("is_error") is True for b in blocks)
            if r.get("visibility") != "llm_only" and any(b.get("type") in ("text", "image") for b in blocks):
                c.turns += 1
                starts += [t] if t is not None else []
    if not models and settings and settings.get("model") and c.requests:
        models.add(str(settings["model"]))
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    c.models = tuple(sorted(models))
    if starts:
        c.start = iso(min(starts))
        c.duration = int(round(max(times) - min(starts)))
    return c


def _settings(path: Path) -> dict[str, object] | None:
    beside = path.with_name(path.stem + ".settings.json")
    return json.loads(beside.read_text()) if beside.exists() else None


@cache
def _full(path: Path) -> tuple[str, Full, Full]:
    data = path.read_bytes()
    header = json.loads(data.splitlines()[0])
    produced = full_map_counts(redact_bytes(data, name=path.name, policy="internal").session_map, ("Execute",))
    return f"v{header.get('version', '?')}", full_counts(data, _settings(path)), produced


def test_every_session_agrees_on_every_count(log: Path) -> None:
    _, source, produced = _full(log)
    assert differences(source, produced) == {}


def test_the_fixture_session_agrees_on_every_count() -> None:
    data = droidfix.session()
    source = full_counts(data)
    assert source.creates == 1  # its `Create` call
    produced = full_map_counts(redact_bytes(data, name="s.jsonl", policy="internal").session_map, ("Execute",))
    assert differences(source, produced) == {}


if __name__ == "__main__":  # pragma: no cover - a report for people
    print(table([_full(p) for p in _logs() if isinstance(p, Path)]))
