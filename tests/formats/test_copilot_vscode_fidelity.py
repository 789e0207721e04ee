"""Fidelity over the real VS Code Copilot Chat sessions (issue 25): what each chat document holds
against what its map holds, counted by a small parser written here from the raw JSON, independent of
the reader (it shares no code with redact/formats/copilot_vscode/). Every field of
tests/formats/fidelity.py's Counts must agree.

A request's model calls are its `toolCallRounds` (one response when it has none but shows text);
its tool calls are the rounds' calls, plus the `toolInvocationSerialized` parts beyond them (each
round call has one part, spelled by VS Code's own id or by the model's name). Its time runs from
its `timestamp` for `result.timings.totalElapsed`.

    PYTHONPATH=. python -m tests.formats.test_copilot_vscode_fidelity [CORPUS_DIR]

prints the agreement per Copilot Chat extension version. Skipped cleanly when ../shared/corpus is
absent.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.fidelity import Counts, differences, iso, map_counts, table

pytestmark = pytest.mark.corpus

SHELL = ("run_in_terminal", "copilot_runInTerminal")
READS = {"read_file"}
EDITS = {"replace_string_in_file", "multi_replace_string_in_file", "insert_edit_into_file", "create_file",
         "edit_notebook_file"}
SEARCHES = {"file_search", "grep_search", "list_dir", "semantic_search", "list_code_usages", "get_changed_files"}
WEB = {"fetch_webpage"}
PATH_ARGS = ("filePath", "path", "file_path")


def _snake(name: str) -> str:
    """The model's spelling of a built-in's VS Code id, roughly (`copilot_readFile` -> `read_file`)."""
    if not name.startswith("copilot_"):
        return name
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name[len("copilot_"):]).lower()


def _kind(name: str) -> str:
    base = _snake(name)
    if name in SHELL:
        return "shell"
    if name.startswith("mcp_"):
        return "mcp"
    for kind, names in (("read", READS), ("edit", EDITS), ("search", SEARCHES), ("web", WEB)):
        if base in names or any(n.startswith(base) for n in names if base):
            return kind
    return "other"


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return value.get("value", "") if isinstance(value, dict) and isinstance(value.get("value"), str) else ""


def count_chat(doc: dict[str, Any]) -> Counts:
    c = Counts()
    by_tool: Counter[str] = Counter()
    models: set[str] = set()
    order: list[str] = []
    starts: list[float] = []
    ends: list[float] = []

    def call(name: str, part: dict[str, Any] | None, args: dict[str, Any]) -> None:
        c.calls += 1
        k = _kind(name)
        order.append(k)
        if k == "mcp":
            source = (part or {}).get("source") or {}
            server = source.get("label") if source.get("type") == "mcp" else None
            rest = name[4:]
            if isinstance(server, str) and rest.startswith(server + "_"):
                label = f"{server}/{rest[len(server) + 1:]}"
            else:
                srv, _, tool = rest.partition("_")
                label = f"{srv}/{tool}"
            c.mcp += 1
        else:
            label = "<web>" if k == "web" else name
        by_tool[label] += 1
        c.shell += k == "shell"
        has_path = any(isinstance(args.get(a), str) and args[a] for a in PATH_ARGS)
        c.reads += k == "read" and has_path
        c.edits += k == "edit" and has_path
        c.creates += k == "edit" and has_path and _snake(name) == "create_file"
        details = (part or {}).get("resultDetails")
        c.errors += isinstance(details, dict) and details.get("isError") is True

    for r in doc.get("requests") or []:
        t = r.get("timestamp")
        if not isinstance(t, (int, float)):
            continue
        starts.append(t)
        ends.append(t)
        message = r.get("message")
        text = _text(message.get("text") if isinstance(message, dict) else message)
        variables = (r.get("variableData") or {}).get("variables") or []
        images = sum(1 for v in variables if isinstance(v, dict) and (v.get("kind") == "image" or v.get("isImage")))
        c.turns += bool(text or images)
        model = r.get("modelId")
        result = r.get("result") or {}
        meta = result.get("metadata") or {}
        rounds = [x for x in meta.get("toolCallRounds") or [] if isinstance(x, dict)]
        parts = [p for p in r.get("response") or [] if isinstance(p, dict)]
        invocations = [p for p in parts if p.get("kind") == "toolInvocationSerialized"]
        calls = [tc for rnd in rounds for tc in rnd.get("toolCalls") or [] if isinstance(tc, dict)]
        shows_text = any(_text(p.get("content") if p.get("kind") == "markdownContent" else p)
                         for p in parts if p.get("kind") in (None, "markdownContent"))
        responses = len(rounds) or int(bool(invocations) or shows_text)
        c.requests += responses
        if responses and isinstance(model, str):
            models.add(model.removeprefix("copilot/"))
        c.tokens += int(meta.get("promptTokens") or 0) + int(meta.get("outputTokens") or 0) if responses else 0
        # each round call has its part: in order when the lists are as long, else the part of its tool
        left = list(invocations)
        for tc in calls:
            name = tc.get("name") or "unknown"
            if len(calls) == len(invocations):
                part: dict[str, Any] | None = left.pop(0)
            else:
                part = next((p for p in left if _snake(p.get("toolId", "")) == _snake(name)), None)
                if part is not None:
                    left.remove(part)
            try:
                args = json.loads(tc.get("arguments") or "{}")
            except ValueError:
                args = {}
            call(name, part, args if isinstance(args, dict) else {})
        for p in left:
            data = p.get("toolSpecificData") or {}
            call(p.get("toolId") or "unknown", p, data.get("rawInput") if isinstance(data.get("rawInput"), dict) else {})
        c.errors += isinstance(result.get("errorDetails"), dict)
        c.errors += r.get("isCanceled") is True
        elapsed = (result.get("timings") or {}).get("totalElapsed")
        if responses and isinstance(elapsed, (int, float)) and elapsed > 0:
            ends.append(t + elapsed)
    created = doc.get("creationDate")
    start = min(starts) if starts else created if isinstance(created, (int, float)) else None
    c.start = iso(start)
    c.duration = int(max(ends) - start) if ends and start is not None else 0
    c.by_tool = dict(sorted(by_tool.items()))
    c.models = tuple(sorted(models))
    c.order = tuple(order)
    return c


def version_of(doc: dict[str, Any]) -> str:
    found = {((r.get("agent") or {}).get("extensionVersion")) for r in doc.get("requests") or []}
    return ",".join(sorted(v for v in found if isinstance(v, str))) or "<none>"


# -- the test --------------------------------------------------------------------------------------
_FOLDER: list[Path] = []


def _files() -> list[Path]:
    folder = _FOLDER[0] if _FOLDER else corpus_dir("copilot-vscode")
    return sorted(p for p in folder.iterdir() if p.suffix == ".json")


def compare(path: Path) -> tuple[Counts, Counts]:
    data = path.read_bytes()
    m = redact_bytes(data, name=path.name, policy="internal").session_map
    return count_chat(json.loads(data)), map_counts(m, SHELL)


@pytest.mark.parametrize("name", corpus_params(lambda: [p.name for p in _files()]), ids=lambda n: n[-40:])
def test_map_agrees_with_the_chat(name: str) -> None:
    corpus_case(name, "copilot-vscode")
    source, produced = compare(corpus_dir("copilot-vscode") / name)
    assert differences(source, produced) == {}


def report() -> str:
    return table([(version_of(json.loads(p.read_bytes())), *compare(p)) for p in _files()])


if __name__ == "__main__":  # pragma: no cover - a report for people
    if len(sys.argv) > 1:
        _FOLDER.append(Path(sys.argv[1]))
    print(report())
