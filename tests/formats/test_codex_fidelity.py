"""Fidelity over the real Codex rollouts (issue 15): what each rollout holds against what its map
holds, counted by a small parser written here, independent of the reader (it shares no code with
redact/formats/codex*.py).

Per rollout it counts tool calls, shell commands, file edits (the file headers of apply_patch
patches), errors and tokens, and asserts the map agrees exactly. Run it as a script for the
agreement table per client version:

    PYTHONPATH=. python -m tests.formats.test_codex_fidelity [../shared/corpus/codex]

Skipped cleanly when ../shared/corpus is absent.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params

pytestmark = pytest.mark.corpus

SHELLS = {"shell", "shell_command", "exec_command", "container.exec", "local_shell"}
FIELDS = ("calls", "shell", "edits", "errors", "tokens")
_FILE_HEADER = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to):", re.MULTILINE)
_EXIT_LINE = re.compile(r"^(?:Exit code:|Process exited with code) (-?\d+)\s*$", re.MULTILINE)
_RUNNING = re.compile(r"^Process running with session ID (\d+)\s*$", re.MULTILINE)


@dataclass
class Counts:
    version: str = "legacy"
    calls: int = 0
    shell: int = 0
    edits: int = 0
    errors: int = 0
    tokens: int = 0
    notes: list[str] = field(default_factory=list)

    def row(self) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in FIELDS)


# -- the independent count of a rollout ------------------------------------------------------------
def _records(data: bytes) -> list[dict[str, Any]]:
    try:
        doc = json.loads(data)
    except ValueError:
        doc = None  # JSON Lines
    if isinstance(doc, dict) and "items" in doc:  # the single-JSON rollout
        out: list[dict[str, Any]] = [{"type": "session_meta", "payload": doc.get("session", {})}]
        for item in doc.get("items", []):
            out.extend({"type": "response_item", "payload": p} for p in _chat(item))
        return out
    out = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if "payload" in rec:
            out.append(rec)
        elif rec.get("record_type") == "state":
            continue
        elif "type" in rec:
            out.append({"type": "response_item", "payload": rec})
        else:
            out.append({"type": "session_meta", "payload": rec})
    return out


def _chat(item: dict[str, Any]) -> list[dict[str, Any]]:
    if item.get("role") == "tool":
        return [{"type": "function_call_output", "call_id": item.get("tool_call_id"),
                 "output": item.get("content")}]
    return [{"type": "function_call", "call_id": tc.get("id"), "name": tc["function"].get("name"),
             "arguments": tc["function"].get("arguments")}
            for tc in item.get("tool_calls") or []
            if isinstance(tc, dict) and isinstance(tc.get("function"), dict)]


def _patch_of(name: str, args: Any) -> str | None:
    """The patch text of an apply_patch call (the tool, or the shell running apply_patch)."""
    if name == "apply_patch":
        if isinstance(args, dict):
            return args.get("input")
        return args if isinstance(args, str) else None
    if name not in SHELLS or not isinstance(args, dict):
        return None
    cmd = args.get("command", args.get("cmd"))
    if isinstance(cmd, list) and cmd and cmd[0] == "apply_patch":
        return cmd[1] if len(cmd) > 1 else ""
    if isinstance(cmd, list) and len(cmd) >= 3 and cmd[0].endswith("sh"):
        cmd = cmd[2]
    if isinstance(cmd, str) and re.match(r"\s*(?:cd \S+ && )?apply_patch\b", cmd):
        return cmd
    return None


def _output_text(raw: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(raw, dict):
        raw = raw.get("content")
    if isinstance(raw, list):
        return "\n".join(i.get("text", "") for i in raw if isinstance(i, dict)), {}
    if not isinstance(raw, str):
        return "", {}
    if raw.startswith("{"):
        try:
            doc = json.loads(raw)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("output"), str):
            return doc["output"], doc.get("metadata") or {}
    return raw, {}


def count_rollout(data: bytes) -> Counts:
    c = Counts()
    names: dict[str, str] = {}
    failed: set[str] = set()
    sessions: dict[str, str] = {}  # unified-exec session -> the exec_command that started it
    polls: dict[str, str] = {}
    last_total: Any = None
    meta_seen = False
    for rec in _records(data):
        kind, p = rec.get("type"), rec.get("payload")
        if not isinstance(p, dict):
            continue
        if kind == "session_meta":
            if not meta_seen and p.get("cli_version"):
                c.version = str(p["cli_version"])
            meta_seen = True
            continue
        t = p.get("type")
        if kind == "response_item" and t in ("function_call", "custom_tool_call", "local_shell_call",
                                              "web_search_call", "tool_search_call"):
            cid = p.get("call_id") or p.get("id") or f"anon-{len(names)}"
            if cid in names:
                continue
            name = {"local_shell_call": "local_shell", "web_search_call": "web_search",
                    "tool_search_call": "tool_search"}.get(t, p.get("name") or "")
            names[cid] = name
            c.calls += 1
            args: Any = p.get("input") if t == "custom_tool_call" else p.get("arguments")
            if t == "function_call" and isinstance(args, str):
                try:
                    args = json.loads(args)
                except ValueError:
                    args = None
            if t == "local_shell_call":
                args = {"command": (p.get("action") or {}).get("command")}
            patch = _patch_of(name, args)
            if patch is not None:
                c.edits += len(_FILE_HEADER.findall(patch))
            elif name in SHELLS:
                c.shell += 1
            if name == "write_stdin" and isinstance(args, dict) and args.get("session_id") is not None:
                polls[cid] = str(args["session_id"])
        elif kind == "response_item" and t in ("function_call_output", "custom_tool_call_output"):
            cid = p.get("call_id")
            name = names.get(cid, "")
            text, meta = _output_text(p.get("output"))
            code = meta.get("exit_code")
            head = text[:1024]
            if code is None and not meta:
                m = _EXIT_LINE.search(head)
                code = int(m.group(1)) if m else None
            running = _RUNNING.search(head) if not meta else None
            if name in SHELLS and running:
                sessions[running.group(1)] = cid
            if name == "write_stdin":
                owner = sessions.get(polls.get(cid, ""))
                if owner and code not in (None, 0):
                    failed.add(owner)
                continue
            low = text[:160].lower()
            if (code not in (None, 0)) or (code is None and low.startswith(
                    ("failed in sandbox", "exec_command failed", "error:", "err:", "aborted",
                     "apply_patch verification failed", "exec command rejected"))):
                failed.add(cid)
        elif kind == "event_msg":
            if t == "exec_command_end" and isinstance(p.get("exit_code"), int) and p["exit_code"] != 0:
                failed.add(p.get("call_id"))
            elif t == "patch_apply_end" and p.get("success") is False:
                failed.add(p.get("call_id"))
            elif t == "turn_aborted" and p.get("reason") in ("interrupted", "replaced", None):
                c.errors += 1
            elif t in ("error", "stream_error"):
                c.errors += 1
            elif t == "guardian_assessment" and p.get("status") in ("approved", "denied", "timed_out",
                                                                     "aborted"):
                c.calls += 1
                c.errors += p.get("status") != "approved"
            elif t == "token_count" and isinstance(p.get("info"), dict):
                info = p["info"]
                total = info.get("total_token_usage") or {}
                key = tuple(total.get(k) for k in ("input_tokens", "cached_input_tokens", "output_tokens",
                                                   "total_tokens"))
                if total and key == last_total:
                    continue
                prev = last_total
                last_total = key if total else last_total
                last = info.get("last_token_usage")
                if isinstance(last, dict):
                    c.tokens += int(last.get("input_tokens") or 0) + int(last.get("output_tokens") or 0)
                elif total:
                    before = prev or (0, 0, 0, 0)
                    c.tokens += max((key[0] or 0) - (before[0] or 0), 0) + \
                        max((key[2] or 0) - (before[2] or 0), 0)
    c.errors += len({cid for cid in failed if cid in names})
    return c


def count_map(m: dict[str, Any]) -> Counts:
    c = Counts()
    c.calls = m["totals"].get("calls", 0)
    for ev in m["events"]:
        if ev.get("tool") in SHELLS and ev["kind"] != "edit":
            c.shell += 1
        if ev["kind"] == "edit":
            c.edits += sum(1 for t in ev.get("targets", ()) if t.get("touch") == "edit")
    c.errors = m["totals"].get("errors", 0)
    c.tokens = m["totals"].get("tokens", 0)
    return c


# -- the test --------------------------------------------------------------------------------------
_FOLDER: list[Path] = []  # set by the script's argument


@cache
def _files() -> tuple[Path, ...]:
    folder = _FOLDER[0] if _FOLDER else corpus_dir("codex")
    return tuple(sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".json")))


def _names() -> list[str]:
    return corpus_params(lambda: [p.name for p in _files()])


def compare(path: Path) -> tuple[Counts, Counts]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    return count_rollout(data), count_map(m)


@pytest.mark.parametrize("name", _names(), ids=lambda n: n[-44:])
def test_map_agrees_with_the_rollout(name: str) -> None:
    corpus_case(name, "codex")
    path = next(p for p in _files() if p.name == name)
    source, produced = compare(path)
    assert dict(zip(FIELDS, produced.row())) == dict(zip(FIELDS, source.row()))


def table() -> str:
    by_version: dict[str, Counter[str]] = {}
    lines = ["| cli_version | rollouts | " + " | ".join(f"{f} (map/source)" for f in FIELDS) + " | agree |",
             "|---|---|" + "---|" * (len(FIELDS) + 1)]
    for path in _files():
        source, produced = compare(path)
        agg = by_version.setdefault(source.version, Counter())
        agg["rollouts"] += 1
        for f, a, b in zip(FIELDS, produced.row(), source.row()):
            agg[f + ".map"] += a
            agg[f + ".src"] += b
            agg["agree"] += a == b
            agg["counts"] += 1
    for version, agg in sorted(by_version.items()):
        cells = [f"{agg[f + '.map']}/{agg[f + '.src']}" for f in FIELDS]
        lines.append(f"| {version} | {agg['rollouts']} | " + " | ".join(cells) +
                     f" | {agg['agree']}/{agg['counts']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1:
        _FOLDER.append(Path(sys.argv[1]))
    print(table())
