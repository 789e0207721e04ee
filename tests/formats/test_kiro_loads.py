"""`--to native` output of Kiro CLI sessions loads in Kiro: checked by an independent loader built
from Kiro's session layout as public readers describe it (tests/formats/kiro_loader.py), over our
fixtures, generated logs and every corpus file Kiro CLI wrote."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.api_native import scrub_file, scrub_native
from redact.errors import BadInput
from redact.formats.detect import detect
from redact.keys.material import Key
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.conftest import CORPUS, corpus_case, corpus_dir, corpus_params
from tests.formats import kirofix
from tests.formats.jsonfix import plain
from tests.formats.kiro_loader import export_problems, log_problems, metadata_problems

KEY = Key(bytes(range(5, 37)), source="test")


def _native(data: bytes, policy: str = "public") -> bytes:
    return scrub_native(data, "kiro", name="in", policy=load_policy(policy, mode="hashed"), key=KEY,
                        mode="hashed", report=RedactionReport(source="in"))


def _lines(data: bytes) -> list[Any]:
    return [orjson.loads(line) for line in data.splitlines() if line.strip()]


def test_the_loader_check_refuses_what_kiro_refuses() -> None:
    """The check itself: the shape objects the scrubber used to write, half a thinking block, and two
    replies in a row are each refused; the fixture as Kiro wrote it loads."""
    good = kirofix.entries(plain())
    assert log_problems(good) == [] and metadata_problems(kirofix.metadata(plain())) == []
    shaped = orjson.loads(orjson.dumps(good))
    shaped[0]["data"]["content"][0]["data"] = {"chars": 5}
    assert log_problems(shaped)
    half = orjson.loads(orjson.dumps(good))
    half[1]["data"]["content"][0]["data"]["redactedContent"] = {"chars": 8}
    assert log_problems(half)
    twice = [good[0], good[7], good[7]]
    assert any("in a row" in p for p in log_problems(twice))
    assert metadata_problems({**kirofix.metadata(plain()), "title": {"chars": 3}})


@pytest.mark.parametrize("policy", ["default", "public"])
def test_fixture_native_output_loads(policy: str) -> None:
    doc = orjson.loads(_native(kirofix.export(plain()), policy))
    assert doc["log_entries"] and export_problems(doc) == []
    meta, log = kirofix.store_pair(plain())
    out_log = _lines(_native(log, policy))
    assert len(out_log) == len(kirofix.entries(plain())) and log_problems(out_log) == []
    assert metadata_problems(orjson.loads(_native(meta, policy))) == []


def test_text_slots_hold_strings_and_thinking_is_dropped_whole() -> None:
    doc = orjson.loads(_native(kirofix.export(plain())))
    blocks = [b for e in doc["log_entries"] for b in e["data"].get("content", [])]
    texts = [b["data"] for b in blocks if b["kind"] == "text"]
    assert texts and all(isinstance(t, str) for t in texts)
    assert not [t for t in texts if "plain" in t]  # placeholder text, never the words
    assert "thinking" not in {b["kind"] for b in blocks}
    assert isinstance(doc["metadata"]["title"], str)


_BLOCK = st.sampled_from(["text", "thinking", "image", "toolUse"])


@settings(max_examples=40, deadline=None)
@given(turns=st.lists(st.lists(_BLOCK, min_size=1, max_size=4), min_size=1, max_size=6),
       extra=st.lists(st.sampled_from(["Checkpoint", "Summary", "AssistantMessage"]), max_size=3))
def test_generated_logs_load_after_scrubbing(turns: list[list[str]], extra: list[str]) -> None:
    """Prompts and replies with any mix of blocks, unknown kinds among them: the output loads."""
    entries: list[dict[str, Any]] = []
    for n, kinds in enumerate(turns):
        entries.append({"version": "v1", "kind": "Prompt", "data": {"message_id": f"p-{n}", "content": [
            {"kind": "text", "data": "hello there"}], "meta": {"timestamp": 1778528621 + n}}})
        content: list[dict[str, Any]] = []
        calls = []
        for m, kind in enumerate(kinds):
            if kind == "text":
                content.append({"kind": "text", "data": "some reply"})
            elif kind == "thinking":
                content.append({"kind": "thinking", "data": {"text": "hmm", "signature": "EqkCsig",
                                                             "redactedContent": [1, 2, 3]}})
            elif kind == "image":
                content.append({"kind": "image", "data": {"format": "png", "source": {"bytes": [1, 2]}}})
            else:
                calls.append(f"tooluse_{n}x{m}")
                content.append({"kind": "toolUse", "data": {"toolUseId": calls[-1], "name": "shell",
                                                            "input": {"command": "ls -la"}}})
        entries.append({"version": "v1", "kind": "AssistantMessage", "data": {"message_id": f"a-{n}",
                                                                              "content": content}})
        for kind in extra if n == 0 else []:
            entries.append({"version": "v1", "kind": kind, "data": {"message_id": f"x-{n}", "content": [
                {"kind": "text", "data": "more words"}]}})
        if calls:
            entries.append({"version": "v1", "kind": "ToolResults", "data": {"message_id": f"r-{n}", "content": [
                {"kind": "toolResult", "data": {"toolUseId": c, "status": "success",
                                                "content": [{"kind": "text", "data": "out"}]}} for c in calls]}})
    out = _lines(_native(b"".join(orjson.dumps(e) + b"\n" for e in entries)))
    assert out and log_problems(out) == []


def _corpus_files() -> list[str]:
    root = corpus_dir("kiro")
    found = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".json", ".jsonl", "")
                   and p.stat().st_size)
    return [str(p.relative_to(root)) for p in found]


@pytest.mark.parametrize("rel", corpus_params(_corpus_files))
def test_every_corpus_kiro_file_scrubs_into_a_file_kiro_loads(rel: str) -> None:
    """Each corpus file Kiro CLI wrote (its format detected as `kiro`): the native output loads."""
    corpus_case(rel, "kiro")
    path = CORPUS / "kiro" / rel
    if _format(path) != "kiro":
        return  # the ConversationState saves and the SQLite store are kiro-legacy's (test_kiro_fidelity)
    out = scrub_file(path, policy="public", key=KEY, mode="hashed").data
    try:
        whole = orjson.loads(out)
    except orjson.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "log_entries" in whole:
        assert export_problems(whole) == []
    elif isinstance(whole, dict) and "session_id" in whole:
        assert metadata_problems(whole) == []
    else:
        records = _lines(out)
        assert records and log_problems(records) == []


def _format(path: Path) -> str | None:
    try:
        return detect(path.read_bytes(), path.name)
    except Exception:  # noqa: BLE001 - a file no format claims is not Kiro CLI's
        return None


# -- the ConversationState of `/save` (Kiro's LegacyV1, Amazon Q CLI's save): `/load` reads its text
# slots as strings. The check below is written from that layout (the history's turns: a user message
# whose content is a Prompt / ToolUseResults / CancelledToolUses, an assistant message that is a
# Response or a ToolUse), not from the scrubber's table.

def _legacy_problems(doc: Any) -> list[str]:
    problems: list[str] = []

    def text(where: str, value: Any) -> None:
        if not isinstance(value, str):
            problems.append(f"{where}: {type(value).__name__}, not a string")

    def results(where: str, items: Any) -> None:
        for r in items or []:
            for j, item in enumerate(r.get("content") or []):
                if "Text" in item:
                    text(f"{where}.content[{j}].Text", item["Text"])

    for i, turn in enumerate(doc.get("history") or []):
        user, assistant = turn.get("user") or {}, turn.get("assistant") or {}
        content = user.get("content") or {}
        if "Prompt" in content:
            text(f"history[{i}].user.Prompt.prompt", content["Prompt"].get("prompt"))
        if "CancelledToolUses" in content:
            text(f"history[{i}].user.CancelledToolUses.prompt", content["CancelledToolUses"].get("prompt"))
            results(f"history[{i}].user.CancelledToolUses", content["CancelledToolUses"].get("tool_use_results"))
        if "ToolUseResults" in content:
            results(f"history[{i}].user.ToolUseResults", content["ToolUseResults"].get("tool_use_results"))
        for kind in ("Response", "ToolUse"):
            if kind in assistant:
                text(f"history[{i}].assistant.{kind}.content", assistant[kind].get("content"))
    return problems


def _legacy_native(data: bytes, policy: str) -> bytes:
    return scrub_native(data, "kiro-legacy", name="in", policy=load_policy(policy, mode="hashed"), key=KEY,
                        mode="hashed", report=RedactionReport(source="in"))


def test_the_legacy_check_refuses_a_shape_object() -> None:
    doc = orjson.loads(kirofix.legacy(plain()))
    assert _legacy_problems(doc) == []
    turn = next(t for t in doc["history"] if "Prompt" in t["user"]["content"])
    turn["user"]["content"]["Prompt"]["prompt"] = {"chars": 5}
    assert _legacy_problems(doc)


@pytest.mark.parametrize("writer", ["kiro", "amazon-q"])
@pytest.mark.parametrize("policy", ["default", "public"])
def test_legacy_save_native_output_loads(policy: str, writer: str) -> None:
    source = orjson.loads(kirofix.legacy(plain(), writer=writer))
    out = orjson.loads(_legacy_native(kirofix.legacy(plain(), writer=writer), policy))
    assert len(out["history"]) == len(source["history"]) and _legacy_problems(out) == []
    assert "transcript" not in out  # the text it repeats is dropped


def _is_legacy(path: Path) -> bool:
    try:
        return detect(path.read_bytes()[:1 << 20], path.name) == "kiro-legacy"
    except BadInput:  # a store (SQLite) or a file no format reads: not a save
        return False


def _legacy_corpus() -> list[Path]:
    return [p for p in sorted(corpus_dir("kiro").iterdir()) if p.is_file() and _is_legacy(p)]


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_legacy_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_legacy_save_loads_after_native(path: Path) -> None:
    corpus_case(path)
    data = path.read_bytes()
    out = orjson.loads(_legacy_native(data, "default"))
    assert len(out["history"]) == len(orjson.loads(data)["history"]) and _legacy_problems(out) == []
