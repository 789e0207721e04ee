"""Fidelity over the real Aider chat histories (issue 25): what each launch in a history holds against
what its map holds (each `# aider chat started at` run is a session of its own, read as `FILE#N`),
counted by a small parser written here from the Markdown, independent of the reader (it shares no
code with redact/formats/aider/). Every field of tests/formats/fidelity.py's Counts must agree.

    PYTHONPATH=. python -m tests.formats.test_aider_fidelity [CORPUS_DIR]

prints the agreement per Aider version (the `> Aider v...` line of each run). Skipped cleanly when
../shared/corpus is absent.
"""
from __future__ import annotations

import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_file
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.fidelity import Counts, differences, iso, map_counts, table

pytestmark = pytest.mark.corpus

SHELL = ("run", "commit")
_START = re.compile(r"^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})\s*$")
_TOKENS = re.compile(r"^> Tokens: (.*)$")
_NUMBER = re.compile(r"([0-9][0-9.,]*)(k|m)? (sent|received|cache write|cache hit)")
_FILE = re.compile(r"[^\s*`'\"<>|]+")
_FAILURE = ("> litellm.", "> The API provider has rate limited you", "> The LLM did not conform to the edit format")
_ECHOED = ("/ask", "/code", "/architect", "/context", "/help")  # Aider sends the text on the next #### line


def runs(text: str) -> list[list[str]]:
    out: list[list[str]] = []
    for line in text.split("\n"):
        if _START.match(line.rstrip()):
            out.append([])
        if out:
            out[-1].append(line.rstrip("\r"))
    return out


def _tokens(text: str) -> int:
    total = 0
    for number, scale, _ in _NUMBER.findall(text):
        try:
            value = float(number.replace(",", ""))
        except ValueError:
            continue
        total += int(value * {"k": 1000, "m": 1_000_000}.get(scale.lower(), 1))
    return total


def count_run(lines: list[str]) -> tuple[Counts, str]:
    c = Counts()
    start = _START.match(lines[0].rstrip())
    assert start
    t = datetime.fromisoformat(f"{start.group(1)}T{start.group(2)}").replace(tzinfo=UTC).timestamp() * 1000
    c.start, c.duration = iso(t), 0
    version = "<none>"
    model: str | None = None
    models: set[str] = set()
    by_tool: dict[str, int] = {}
    order: list[str] = []
    prompt_open = False  # in a block of #### lines that is a prompt
    handoff = False  # in a block that repeats the reply before it
    reply_open = False  # the current model response has text or tokens not yet closed
    reply_first: str | None = None  # the first line of the last reply (a hand-off repeats it)
    quoted: list[str] = []
    adding = False
    failed = False  # the previous line was a failure's

    def call(name: str, kind: str) -> None:
        c.calls += 1
        by_tool[name] = by_tool.get(name, 0) + 1
        order.append(kind)
        c.shell += kind == "shell"

    def request() -> None:
        c.requests += 1
        if model:
            models.add(model)

    for raw in lines[1:]:
        line = raw.rstrip()
        was_failed, failed = failed, False
        if raw.startswith("#### ") or line == "####":
            body = raw[5:].rstrip()
            reply_open = False
            quoted = []
            adding = False
            if handoff:
                continue
            if prompt_open:
                continue
            if body.startswith(("/", "!")):
                word = "!" if body.startswith("!") else body.split()[0].lower()
                if word in ("!", "/run", "/test"):
                    call("run", "shell")
                elif word in ("/add", "/read-only"):
                    adding = True
                    call("add", "read")
                continue
            if reply_first is not None and body.strip() == reply_first:
                handoff = True
                continue
            c.turns += 1
            prompt_open = True
            reply_first = None
            continue
        if not line:
            continue
        prompt_open = handoff = False
        if line.startswith(">"):
            if line.startswith("> Aider v"):
                version = line.split()[2][1:]
            elif re.match(r"> (?:Main model|Model|Models): ", line):
                model = line.split(": ", 1)[1].split()[0].rstrip(",")
            elif line.startswith("> Added ") and line.endswith(("to the chat.", "to the chat")):
                name = line[len("> Added "):].rsplit(" to the chat", 1)[0].strip().strip("`'\"")
                if _FILE.fullmatch(name):
                    if not adding:
                        call("add", "read")
                        adding = True
                    c.reads += 1
            elif line.startswith("> Applied edit to "):
                name = line[len("> Applied edit to "):].strip().strip("`'\"")
                if _FILE.fullmatch(name):
                    call("edit", "edit")
                    c.edits += 1
                quoted = []
            elif re.match(r"> Commit [0-9a-f]{7,40} ", line):
                call("commit", "shell")
                quoted = []
            elif _TOKENS.match(line):
                c.tokens += _tokens(line)
                if not reply_open:  # usage with no reply text before it: a response of its own
                    request()
                reply_open = False
                quoted = []
            elif re.match(r"> Run shell commands?\? .*\b(y|n|yes|no)\s*$", line, re.IGNORECASE):
                if line.rsplit(None, 1)[-1].lower().startswith("y"):
                    for _ in quoted:
                        call("run", "shell")
                quoted = []
            elif line.startswith(_FAILURE):
                if not was_failed:
                    c.errors += 1
                failed = True
                quoted = []
            elif line[1:].strip():
                quoted.append(line[1:].strip())
            continue
        quoted = []
        adding = False
        if not reply_open:
            request()
            reply_open = True
            reply_first = line.strip()
    c.by_tool = dict(sorted(by_tool.items()))
    c.models = tuple(sorted(m for m in models if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,119}", m)))
    c.order = tuple(order)
    return c, version


def map_of(path: Path, n: int) -> dict[str, Any]:
    return redact_file(f"{path}#{n}", policy="internal").session_map


# -- the test --------------------------------------------------------------------------------------
_FOLDER: list[Path] = []


def _files() -> list[Path]:
    folder = _FOLDER[0] if _FOLDER else corpus_dir("aider")
    return sorted(p for p in folder.iterdir() if p.name.endswith(".aider.chat.history.md"))


def _cases() -> list[tuple[str, int]]:
    return [(p.name, n) for p in _files() for n in range(1, len(runs(p.read_text("utf-8", "replace"))) + 1)]


def compare(path: Path, n: int) -> tuple[Counts, Counts, str]:
    source, version = count_run(runs(path.read_text("utf-8", "replace"))[n - 1])
    return source, map_counts(map_of(path, n), SHELL), version


@pytest.mark.parametrize("case", corpus_params(_cases), ids=lambda c: f"{c[0][-40:]}#{c[1]}" if c[1:] else str(c))
def test_map_agrees_with_the_run(case: Any) -> None:
    corpus_case(case, "aider")
    name, n = case
    source, produced, _ = compare(corpus_dir("aider") / name, n)
    assert differences(source, produced) == {}


def report() -> str:
    rows = []
    for path in _files():
        for n in range(1, len(runs(path.read_text("utf-8", "replace"))) + 1):
            source, produced, version = compare(path, n)
            rows.append((version, source, produced))
    return table(rows)


if __name__ == "__main__":  # pragma: no cover - a report for people
    if len(sys.argv) > 1:
        _FOLDER.append(Path(sys.argv[1]))
    print(report())
