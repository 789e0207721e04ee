"""Fidelity over the real Cline task logs (issue 25): what each ui_messages.json holds against what its
map holds, counted by a small parser written here from the raw messages, independent of the reader
(it shares no code with redact/formats/cline/). Every field of tests/formats/fidelity.py's Counts
must agree.

    PYTHONPATH=. python -m tests.formats.test_cline_fidelity [CORPUS_DIR]

prints the agreement per client version (Cline's ui_messages.json records none: per model provider
instead). Skipped cleanly when ../shared/corpus is absent.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.fidelity import Counts, differences, iso, map_counts, table

pytestmark = pytest.mark.corpus

SHELL = ("execute_command",)
READ_TOOLS = {"readFile"}
EDIT_TOOLS = {"editedExistingFile", "appliedDiff", "newFileCreated", "fileDeleted"}
SEARCH_TOOLS = {"searchFiles", "listFilesTopLevel", "listFilesRecursive", "listCodeDefinitionNames",
                "codebaseSearch"}
WEB_TOOLS = {"webFetch", "webSearch"}
DENIED = "The user denied this operation"


def _json(text: Any) -> dict[str, Any]:
    try:
        found = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def count_task(messages: list[dict[str, Any]]) -> Counts:
    c = Counts()
    by_tool: dict[str, int] = {}
    models: set[str] = set()
    order: list[str] = []
    times: list[float] = []
    waiting = 0  # calls awaiting approval since the last request
    failing = False  # a failed request whose first error_retry is still to come
    gave_up = False  # the previous message was the last attempt's error_retry
    prompted = requested = False

    def call(name: str, kind: str) -> None:
        c.calls += 1
        by_tool[name] = by_tool.get(name, 0) + 1
        order.append(kind)

    for m in messages:
        kind = m.get("type")
        sub = m.get(kind) if kind in ("say", "ask") else None
        if not isinstance(sub, str) or not isinstance(m.get("ts"), (int, float)):
            continue
        times.append(float(m["ts"]))
        text = m.get("text") if isinstance(m.get("text"), str) else ""
        last_gave_up, gave_up = gave_up, False
        if (kind, sub) in (("say", "task"), ("say", "user_feedback")) or (
                (kind, sub) == ("say", "text") and not prompted and not requested):
            if text or m.get("images"):
                c.turns += 1
                prompted = True
            requested = False
            failing = False
        elif (kind, sub) == ("say", "api_req_started"):
            info = _json(text)
            if waiting and DENIED in str(info.get("request", ""))[:4000]:
                c.errors += waiting
            waiting = 0
            c.requests += 1
            requested = True
            c.tokens += sum(int(info.get(k) or 0) for k in ("tokensIn", "tokensOut", "cacheWrites", "cacheReads"))
            model = (m.get("modelInfo") or {}).get("modelId")
            if isinstance(model, str):
                models.add(model)
            failing = False
            if info.get("cancelReason"):
                c.errors += 1
                failing = info["cancelReason"] != "user_cancelled"
        elif (kind, sub) == ("say", "error_retry"):
            if failing:
                failing = False  # the failed request's own failure
            else:
                c.errors += 1
            gave_up = _json(text).get("failed") is True
        elif (kind, sub) == ("ask", "api_req_failed"):
            c.errors += not last_gave_up
        elif (kind, sub) in (("say", "error"), ("ask", "mistake_limit_reached")):
            c.errors += 1
        elif sub == "tool" and kind in ("say", "ask"):
            info = _json(text)
            name = info.get("tool") if isinstance(info.get("tool"), str) else "unknown"
            has_path = isinstance(info.get("path"), str) and bool(info["path"])
            k = "read" if name in READ_TOOLS else "edit" if name in EDIT_TOOLS else \
                "search" if name in SEARCH_TOOLS else "web" if name in WEB_TOOLS else "other"
            call(name, k)
            c.reads += k == "read" and has_path
            c.edits += k == "edit" and has_path
            c.creates += name == "newFileCreated" and has_path
            waiting += kind == "ask"
        elif sub == "command" and kind in ("say", "ask"):
            call("execute_command", "shell")
            c.shell += 1
            waiting += kind == "ask" and m.get("commandCompleted") is not True
        elif (kind, sub) == ("ask", "use_mcp_server"):
            info = _json(text)
            call(f"{info.get('serverName')}/{info.get('toolName') or info.get('uri')}", "mcp")
            c.mcp += 1
        elif (kind, sub) == ("ask", "followup"):
            call("ask_followup_question", "other")
        elif sub == "browser_action_launch":
            call("browser_action", "other")
        elif (kind, sub) == ("say", "load_mcp_documentation"):
            call("load_mcp_documentation", "other")
        elif (kind, sub) == ("ask", "plan_mode_respond"):
            call("plan_mode_respond", "other")
    c.by_tool = dict(sorted(by_tool.items()))
    c.models = tuple(sorted(models))
    c.order = tuple(order)
    c.start = iso(min(times)) if times else ""
    c.duration = int(max(times) - min(times)) if times else 0
    return c


def provider_of(messages: list[dict[str, Any]]) -> str:
    found = {(m.get("modelInfo") or {}).get("providerId") for m in messages if isinstance(m.get("modelInfo"), dict)}
    return ",".join(sorted(p for p in found if isinstance(p, str))) or "<none>"


# -- the test --------------------------------------------------------------------------------------
_FOLDER: list[Path] = []


def _files() -> list[Path]:
    folder = _FOLDER[0] if _FOLDER else corpus_dir("cline")
    return sorted(p for p in folder.iterdir() if p.name.endswith("ui_messages.json"))


def compare(path: Path) -> tuple[Counts, Counts]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    return count_task(json.loads(data)), map_counts(m, SHELL)


@pytest.mark.parametrize("name", corpus_params(lambda: [p.name for p in _files()]), ids=lambda n: n[-40:])
def test_map_agrees_with_the_task(name: str) -> None:
    corpus_case(name, "cline")
    source, produced = compare(corpus_dir("cline") / name)
    assert differences(source, produced) == {}


def report() -> str:
    return table([(provider_of(json.loads(p.read_bytes())), *compare(p)) for p in _files()])


if __name__ == "__main__":  # pragma: no cover - a report for people
    if len(sys.argv) > 1:
        _FOLDER.append(Path(sys.argv[1]))
    print(report())
