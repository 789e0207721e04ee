"""Fidelity over the real Gemini CLI chats (issue 25): what each chat holds against what its map holds,
counted by a small parser written here from the raw files, independent of the reader (it shares no
code with redact/formats/gemini_cli/). Every field of tests/formats/fidelity.py's Counts must agree.

    PYTHONPATH=. python -m tests.formats.test_gemini_cli_fidelity [CORPUS_DIR]

prints the agreement per layout (Gemini CLI records no client version). Skipped cleanly when
../shared/corpus is absent.
"""
from __future__ import annotations

import json
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.fidelity import Counts, differences, iso, map_counts, table

pytestmark = pytest.mark.corpus

SHELL = ("run_shell_command",)
READS = {"read_file", "read_many_files"}
EDITS = {"write_file", "replace", "edit"}
SEARCHES = {"glob", "grep_search", "search_file_content", "grep", "list_directory", "ls"}
WEB = {"google_web_search", "web_fetch"}
KNOWN = READS | EDITS | SEARCHES | WEB | set(SHELL) | {
    "codebase_investigator", "delegate_to_agent", "save_memory", "write_todos", "ask_user", "enter_plan_mode",
    "exit_plan_mode", "read_background_output", "list_background_processes", "activate_skill"}
_EXIT = re.compile(r"^Exit Code: (-?\d+)\s*$", re.MULTILINE)


def _ms(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000
    except ValueError:
        return None


def _chat(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(metadata, messages: the last writing of each id, in the order ids first appear)."""
    text = data.decode("utf-8")
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    messages: dict[str, dict[str, Any]] = {}
    meta: dict[str, Any] = {}
    if isinstance(doc, dict) and "messages" in doc:
        meta = doc
        rows = doc["messages"]
    else:
        rows = []
        for n, line in enumerate(text.split("\n")):
            if not line.strip():
                continue
            rec = json.loads(line)
            if n == 0 and "type" not in rec:
                meta = rec
            elif "$set" in rec:
                rows.extend((rec["$set"] or {}).get("messages") or [])
            elif "type" in rec:
                rows.append(rec)
    for m in rows:
        if isinstance(m, dict) and isinstance(m.get("id"), str) and m.get("type") in (
                "user", "gemini", "info", "error", "warning"):
            messages[m["id"]] = m
    return meta, list(messages.values())


def _kind(name: str) -> str:
    if name in SHELL:
        return "shell"
    if name in READS:
        return "read"
    if name in EDITS:
        return "edit"
    if name in SEARCHES:
        return "search"
    if name in WEB:
        return "web"
    return "mcp" if name not in KNOWN and "__" in name else "other"


def _output(tc: dict[str, Any]) -> tuple[str, str]:
    out, err = [], []
    for part in tc.get("result") or []:
        resp = ((part or {}).get("functionResponse") or {}).get("response") or {}
        if isinstance(resp.get("output"), str):
            out.append(resp["output"])
        if isinstance(resp.get("error"), str):
            err.append(resp["error"])
    return "\n".join(out), "\n".join(err)


def count_chat(data: bytes) -> Counts:
    meta, messages = _chat(data)
    c = Counts()
    times: list[float] = []  # the messages' times: the session starts at its first message
    ends: list[float] = []
    by_tool: dict[str, int] = {}
    models: set[str] = set()
    order = []
    seen: set[str] = set()
    for m in messages:
        t = _ms(m.get("timestamp"))
        kind = m["type"]
        content = m.get("content")
        # the CLI's own notices (info, warning) are no part of the session's work: it starts at its
        # first prompt, reply or error
        if t is not None and (kind in ("user", "gemini", "error") or content == "Request cancelled."):
            times.append(t)
            ends.append(t)
        if kind == "user":
            chars = len(content) if isinstance(content, str) else sum(
                len(p.get("text") or "") for p in content if isinstance(p, dict)) if isinstance(content, list) else 0
            images = sum(1 for p in content if isinstance(p, dict) and "inlineData" in p) \
                if isinstance(content, list) else 0
            c.turns += bool(chars or images)
        elif kind == "error":
            c.errors += 1
        elif kind == "info" and content == "Request cancelled.":
            c.errors += 1
        elif kind == "gemini":
            c.requests += 1
            tok = m.get("tokens") or {}
            c.tokens += sum(int(tok.get(k) or 0) for k in ("input", "output", "thoughts"))
            if isinstance(m.get("model"), str):
                models.add(m["model"])
            for tc in m.get("toolCalls") or []:
                if not isinstance(tc, dict) or not tc.get("id") or tc["id"] in seen:
                    continue
                seen.add(tc["id"])
                name = tc.get("name") or "unknown"
                c.calls += 1
                k = _kind(name)
                order.append(k)
                label = "/".join(name.split("__", 1)) if k == "mcp" else "<web>" if k == "web" else name
                by_tool[label] = by_tool.get(label, 0) + 1
                args = tc.get("args") or {}
                path = next((args[a] for a in ("file_path", "absolute_path", "path")
                             if isinstance(args.get(a), str) and args[a]), None)
                out, err = _output(tc)
                c.shell += k == "shell"
                c.mcp += k == "mcp"
                c.reads += k == "read" and path is not None
                c.edits += k == "edit" and path is not None
                c.creates += name == "write_file" and path is not None and tc.get("status") == "success" and \
                    out.startswith("Successfully created and wrote to new file")
                codes = _EXIT.findall(out[-4000:]) if k == "shell" else []
                c.errors += tc.get("status") in ("error", "cancelled") or \
                    (tc.get("status") != "success" and bool(err)) or bool(codes and int(codes[-1]) != 0)
                done = _ms(tc.get("timestamp"))
                if done is not None and t is not None and done >= t:
                    ends.append(done)
    c.by_tool = dict(sorted(by_tool.items()))
    c.models = tuple(sorted(models))
    c.order = tuple(order)
    # startTime is when the CLI opened the chat, before any message: the start of an empty one only
    start = min(times) if times else _ms(meta.get("startTime"))
    c.start = iso(start)
    c.duration = int(round(max(ends) - start)) if ends and start is not None else 0
    return c


# -- the test --------------------------------------------------------------------------------------
_FOLDER: list[Path] = []


def _files() -> list[Path]:
    folder = _FOLDER[0] if _FOLDER else corpus_dir("gemini-cli")
    return sorted(p for p in folder.rglob("session-*.json*") if p.is_file() and p.parent.name == "chats")


def compare(path: Path) -> tuple[Counts, Counts]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    return count_chat(data), map_counts(m, SHELL)


@pytest.mark.parametrize("name", corpus_params(lambda: [str(p.relative_to(corpus_dir("gemini-cli")))
                                                       for p in _files()]), ids=lambda n: n[-40:])
def test_map_agrees_with_the_chat(name: str) -> None:
    corpus_case(name, "gemini-cli")
    source, produced = compare(corpus_dir("gemini-cli") / name)
    assert differences(source, produced) == {}


def report() -> str:
    return table([("jsonl" if p.suffix == ".jsonl" else "json", *compare(p)) for p in _files()])


if __name__ == "__main__":  # pragma: no cover - a report for people
    if len(sys.argv) > 1:
        _FOLDER.append(Path(sys.argv[1]))
    print(report())
