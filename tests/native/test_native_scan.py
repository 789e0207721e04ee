"""The native leak scan (`audit/native.py`) on its own: a clean native output passes every layer; each
kind of leak planted into one is found, by the layer that owns it, and no finding echoes the value."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from audit.native import scan_native
from tests.formats.ccfix import Transcript, text, tool_use
from tests.native.helpers import lines, native

SID = "0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a"
SECRET = "ghp_" + "Xv9Lq2Wm7Pk4Rt6Yz8Bn1Cd3Fg5Hj0Ks2QaZ"


def _source() -> bytes:
    t = Transcript(SID, "/home/sam/src/payroll", seed=11)
    t.user("Please rotate the payroll signing key tonight")
    tid = t.tool_id()
    t.assistant([text("Rotating the payroll key now."),
                 tool_use(tid, "Bash", {"command": "make rotate-keys ENV=prod"})])
    t.result(tid, "rotated")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__github__get_issue", {"issue": 7})])
    t.result(tid, "ok")
    return t.bytes()


def _clean() -> tuple[bytes, bytes, dict[str, list[str]]]:
    source = _source()
    out, report = native(source, "claude-code")
    kept = {cat: sorted(vals) for cat, vals in report.idents.kept.items()}
    return source, out, kept


def _mutate(out: bytes, change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    records = lines(out)
    change(records)
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def _first(records: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(r for r in records if r["type"] == kind)


def test_a_clean_output_passes_every_layer() -> None:
    source, out, kept = _clean()
    result = scan_native(out, "claude-code", path_mode="relative", kept_identifiers=kept, source=source)
    assert result.clean, [f.as_dict() for f in result.findings]
    assert result.verdicts == {"grammar": "pass", "secrets": "pass", "taint": "pass", "language": "pass"}


def _reply(r: list[dict[str, Any]]) -> dict[str, Any]:
    return next(x for x in r if x["type"] == "assistant" and x["message"]["content"][0]["type"] == "text")


MUTATIONS: dict[str, tuple[Callable[[list[dict[str, Any]]], None], str]] = {
    "text in a shape field": (
        lambda r: _reply(r)["message"]["content"][0].update(text="Rotating the payroll key now."), "grammar.text"),
    "a dropped field present": (lambda r: _first(r, "user").update(slug="quiet-amber-river"), "grammar.text"),
    "an unknown field": (lambda r: _first(r, "user").update(notes="payroll"), "grammar.unknown-field"),
    "a word in an id": (lambda r: _first(r, "user").update(uuid="payroll-rotation"), "grammar.id"),
    "an absolute path": (lambda r: _first(r, "user").update(cwd="/home/sam/src/payroll"), "grammar.path"),
    "a command, not a verb": (
        lambda r: next(b for x in r if x["type"] == "assistant" for b in x["message"]["content"]
                       if b["type"] == "tool_use" and b["name"] == "Bash")["input"].update(
            command="make rotate-keys ENV=prod"), "grammar.verb"),
    "an identifier the report does not list": (
        lambda r: _reply(r)["message"].update(model="payroll-internal-model"), "grammar.identifier-undeclared"),
    "a secret in a tool name": (
        lambda r: next(b for x in r if x["type"] == "assistant" for b in x["message"]["content"]
                       if b["type"] == "tool_use" and b["name"].startswith("mcp__")).update(
            name=f"mcp__{SECRET}__get_issue"), "secrets."),
    "text where a number belongs": (
        lambda r: _reply(r)["message"]["usage"].update(output_tokens="Rotating the payroll key now."),
        "grammar.type"),
    "a shape marker with a payload": (
        lambda r: _reply(r)["message"]["content"][0].update(text={"chars": 3, "text": "payroll"}), "grammar.text"),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_planted_leak_is_found(name: str) -> None:
    source, out, kept = _clean()
    change, rule = MUTATIONS[name]
    bad = _mutate(out, change)
    result = scan_native(bad, "claude-code", path_mode="relative", kept_identifiers=kept, source=source)
    assert not result.clean
    assert any(f.rule.startswith(rule) for f in result.findings), [f.rule for f in result.findings]
    shown = orjson.dumps([f.as_dict() for f in result.findings]).decode()
    for value in ("Rotating the payroll", "rotate-keys", "quiet-amber", SECRET[:10], "payroll-internal"):
        assert value not in shown


def test_taint_finds_source_text_the_grammar_cannot_judge() -> None:
    """A valid relative path (disclosed by the mode) that holds a phrase of the prompt."""
    source, out, kept = _clean()
    bad = _mutate(out, lambda r: _first(r, "user").update(cwd="src/rotate the payroll signing"))  # four words: five read as a sentence (grammar)
    result = scan_native(bad, "claude-code", path_mode="relative", kept_identifiers=kept, source=source)
    assert result.verdicts["grammar"] == "pass" and result.verdicts["taint"] == "fail"
    assert all(f.source == "user:message.content" for f in result.by_layer("taint"))


def test_paths_are_checked_against_the_stated_mode() -> None:
    source, out, kept = _clean()
    result = scan_native(out, "claude-code", path_mode="hashed", kept_identifiers=kept, source=source)
    assert result.clean  # `.` and bucket labels are valid in every mode
    bad = _mutate(out, lambda r: _first(r, "user").update(cwd="src/payroll"))
    result = scan_native(bad, "claude-code", path_mode="hashed", kept_identifiers=kept, source=source)
    assert any(f.rule == "grammar.path" for f in result.findings)


def test_lines_and_json_in_strings_are_checked() -> None:
    from tests.native.codexfix import rollout

    count = iter(range(1000))
    source = rollout(lambda: f"zqscan{next(count)}qz")
    out, report = native(source, "codex")
    kept = {cat: sorted(vals) for cat, vals in report.idents.kept.items()}

    def patch(r: list[dict[str, Any]]) -> None:
        for x in r:
            if x.get("type") == "response_item" and x["payload"]["type"] == "custom_tool_call":
                x["payload"]["input"] += "\n+a line of the patch body"
            if x.get("type") == "response_item" and x["payload"]["type"] == "function_call" and \
                    x["payload"]["name"] == "shell":
                x["payload"]["arguments"] = orjson.dumps({"command": ["grep", "-rn", "secret"],
                                                          "note": "x"}).decode()

    result = scan_native(_mutate(out, patch), "codex", path_mode="relative", kept_identifiers=kept, source=source)
    rules = {f.rule for f in result.findings}
    assert {"grammar.text", "grammar.verb", "grammar.unknown-field"} <= rules
