"""Fidelity over the real Codex rollouts (issues 15, 25): what each rollout holds against what its map
holds, counted by a small parser written here, independent of the reader (it shares no code with
redact/formats/codex/). Every field of tests/formats/fidelity.py's `Counts` must agree:

- turns: `event_msg` user_message events (older rollouts: user messages a person wrote, not the
  environment context or instructions the client injects);
- requests: runs of the model's own items (reasoning, messages, calls) between two inputs; tokens:
  each new `token_count` (a repeated total is the same usage again), its last usage's input + output;
- calls: function_call / custom_tool_call / local_shell_call / web_search_call; edits and creates: the
  file headers of apply_patch patches; errors: failed outputs, exec_command_end exit codes, failed
  patches, aborted turns and error events;
- start / duration: the person's prompts, the model's items, tool outputs and token counts (and a
  command's stated duration), not the session header or the injected context.

    PYTHONPATH=. python -m tests.formats.test_codex_fidelity [../shared/corpus/codex]

prints the agreement per client version. Skipped cleanly when ../shared/corpus is absent.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.fidelity import Counts, differences, iso, map_counts, table

pytestmark = pytest.mark.corpus

SHELLS = {"shell", "shell_command", "exec_command", "container.exec", "local_shell"}
_ADD_HEADER = re.compile(r"^\*\*\* Add File:", re.MULTILINE)
# what the client puts in the model's input as a user message that no person typed
_NOT_TYPED = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<turn_aborted>",
              "<user_shell_command>")
_FILE_HEADER = re.compile(r"^\*\*\* (?:Add File|Update File|Delete File|Move to):", re.MULTILINE)
_EXIT_LINE = re.compile(r"^(?:Exit code:|Process exited with code) (-?\d+)\s*$", re.MULTILINE)
_RUNNING = re.compile(r"^Process running with session ID (\d+)\s*$", re.MULTILINE)


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
    """A chat-completions item as response items; each assistant item is one completion."""
    if item.get("role") == "user":
        return [{"type": "message", "role": "user", "content": item.get("content")}]
    if item.get("role") == "assistant":
        if not item.get("tool_calls") and _said(item.get("content")).startswith("Switched approval mode to"):
            return []  # the client's notice of the person's /approval switch, not a completion
        return [{"type": "message", "role": "assistant", "completion": True}] + [
            {"type": "function_call", "call_id": tc.get("id"), "name": tc["function"].get("name"),
             "arguments": tc["function"].get("arguments")}
            for tc in item.get("tool_calls") or [] if isinstance(tc, dict) and isinstance(tc.get("function"), dict)]
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


def _ms(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return round(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000, 3)
    except ValueError:
        return None


def _said(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(b.get("text") or "") for b in content or () if isinstance(b, dict))


def _kind(name: str, patch: str | None) -> str:
    if patch is not None:
        return "edit"
    if name in SHELLS:
        return "shell"
    if name in ("web_search", "web_fetch"):
        return "web"
    return "mcp" if "__" in name else "other"


def count_rollout(data: bytes) -> tuple[str, Counts]:
    """(the client version, the rollout's `Counts`)."""
    version = "legacy"
    c = Counts()
    names: dict[str, str] = {}
    failed: set[str] = set()
    sessions: dict[str, str] = {}  # unified-exec session -> the exec_command that started it
    polls: dict[str, str] = {}
    last_total: Any = None
    meta_seen = False
    by_tool: Counter[str] = Counter()
    order: list[str] = []
    models: set[str] = set()
    prompts = typed = 0  # user_message events; user messages in the model's input that a person wrote
    replies = 0  # runs of the model's own items
    in_reply = False
    times: list[float] = []
    header_time: float | None = None
    called: dict[str, float | None] = {}  # call id -> when it was made
    ends: list[float] = []  # when a command that states its duration ended
    typed_times: list[float] = []
    for rec in _records(data):
        kind, p = rec.get("type"), rec.get("payload")
        if not isinstance(p, dict):
            continue
        t = p.get("type")
        when = _ms(rec.get("timestamp"))
        if kind == "session_meta":
            if not meta_seen and p.get("cli_version"):
                version = str(p["cli_version"])
            if not meta_seen:
                header_time = _ms(p.get("timestamp"))
            meta_seen = True
            continue
        if kind == "turn_context":
            if isinstance(p.get("model"), str) and p["model"]:
                models.add(p["model"])
            continue
        if kind == "response_item" and when is not None and t not in ("ghost_snapshot", "message"):
            times.append(when)  # the model's items and the tools' outputs (a message: below)
        if kind == "response_item":
            ours = t in ("reasoning", "function_call", "custom_tool_call", "local_shell_call",
                         "web_search_call", "tool_search_call") or \
                (t == "message" and p.get("role") == "assistant")
            replies += (ours and not in_reply) or (p.get("completion") is True and in_reply)
            if ours or t in ("function_call_output", "custom_tool_call_output", "message"):
                in_reply = ours
        if kind == "response_item" and t == "message" and p.get("role") == "user":
            text = _said(p.get("content")).lstrip()
            person = bool(text) and not text.startswith(_NOT_TYPED)
            typed += person
            if person and when is not None:
                typed_times.append(when)  # the prompt's own event, where the client writes one, wins
        if kind == "response_item" and t == "message" and p.get("role") == "assistant" and when is not None:
            times.append(when)
        if kind == "response_item" and t in ("function_call", "custom_tool_call", "local_shell_call",
                                              "web_search_call", "tool_search_call"):
            cid = p.get("call_id") or p.get("id") or f"anon-{len(names)}"
            if cid in names:
                continue
            name = {"local_shell_call": "local_shell", "web_search_call": "web_search",
                    "tool_search_call": "tool_search"}.get(t, p.get("name") or "")
            names[cid] = name
            called[cid] = when if when is not None else (max(times) if times else header_time)
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
            k = _kind(name, patch)
            order.append(k)
            by_tool["apply_patch" if k == "edit" else "<web>" if k == "web" else
                    "/".join(name.split("__", 1)) if k == "mcp" else name] += 1
            if patch is not None:
                c.edits += len(_FILE_HEADER.findall(patch))
                c.creates += len(_ADD_HEADER.findall(patch))
            elif name in SHELLS:
                c.shell += 1
            c.mcp += k == "mcp"
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
            took = meta.get("duration_seconds")
            if isinstance(took, (int, float)) and called.get(cid) is not None:
                ends.append(called[cid] + took * 1000)  # the log states how long the command ran
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
            if t in ("user_message", "turn_aborted", "error", "stream_error", "token_count", "task_complete") \
                    and when is not None:
                times.append(when)
            if t == "user_message":
                prompts += bool(str(p.get("message") or "").strip() or p.get("images"))
            elif t == "exec_command_end" and isinstance(p.get("exit_code"), int) and p["exit_code"] != 0:
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
                    continue  # the client repeats a count it already wrote: the same response
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
    c.turns = prompts if prompts else typed
    # a request is a run of the model's own items (reasoning, messages, calls) between two inputs: a
    # response the person interrupted has items but no token count
    c.requests = replies
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    c.models = tuple(sorted(models))
    times += typed_times if not prompts else []
    start = min(times) if times else header_time
    c.start = iso(start)
    last = max(times + ends) if times or ends else None
    c.duration = int(round(last - start)) if last is not None and start is not None else 0
    return version, c


# -- the test --------------------------------------------------------------------------------------
_FOLDER: list[Path] = []  # set by the script's argument


@cache
def _files() -> tuple[Path, ...]:
    folder = _FOLDER[0] if _FOLDER else corpus_dir("codex")
    return tuple(sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".json")))


def _names() -> list[str]:
    return corpus_params(lambda: [p.name for p in _files()])


@cache
def compare(path: Path) -> tuple[str, Counts, Counts]:
    """(client version, source counts, map counts) of one rollout, parsed and redacted once."""
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    version, source = count_rollout(data)
    return version, source, map_counts(m, tuple(sorted(SHELLS)))


@pytest.mark.parametrize("name", _names(), ids=lambda n: n[-44:])
def test_map_agrees_with_the_rollout(name: str) -> None:
    corpus_case(name, "codex")
    path = next(p for p in _files() if p.name == name)
    _, source, produced = compare(path)
    assert differences(source, produced) == {}


def report() -> str:
    return table([compare(p) for p in _files()])


if __name__ == "__main__":  # pragma: no cover - a report for people
    import sys

    if len(sys.argv) > 1:
        _FOLDER.append(Path(sys.argv[1]))
    print(report())
