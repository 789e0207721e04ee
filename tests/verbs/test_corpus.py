"""Property tests over the shared command corpora (skipped when ../shared/corpus is absent).

For every command of nl2bash and tldr (about 50,000), and every shell command found in the real
Claude Code and Codex logs: the analysis never raises, every verb passes `is_valid_verb`, and a canary
planted in an argument, a file name, a script name or an assignment never reaches the result.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from redact.verbs import UNPARSED, default_vocabulary, extract, extract_argv, is_valid_verb
from redact.verbs.engine import analyze, analyze_argv
from redact.verbs.parse import parse_tree
from tests.conftest import corpus_dir

pytestmark = pytest.mark.corpus

CANARY = "Zq9canaryXy"
CANARY_LOW = CANARY.lower()


def _commands() -> list[str]:
    folder = corpus_dir("commands")
    commands: list[str] = []
    for name in ("nl2bash.txt", "tldr.txt"):
        path = folder / name
        if path.is_file():
            commands.extend(line for line in path.read_text(encoding="utf-8").split("\n") if line)
    if not commands:
        pytest.skip("no command corpus files")
    return commands


@pytest.fixture(scope="module")
def commands() -> list[str]:
    return _commands()


def _leaks(result: object) -> bool:
    text = repr(result).lower()
    return CANARY_LOW in text


def _plant(command: str, k: int) -> str:
    """Put the canary somewhere in `command`, choosing the place by `k`."""
    words = command.split(" ")
    how = k % 6
    if how == 0:
        return f"{command} {CANARY}"
    if how == 1 and len(words) > 1:
        words[1 + k % (len(words) - 1)] = CANARY
        return " ".join(words)
    if how == 2:
        return f"./scripts/{CANARY}.sh {command}"
    if how == 3:
        return f"{CANARY}_TOKEN={CANARY} {command}"
    if how == 4 and len(words) > 1:
        return f"{words[0]} {words[1]}{CANARY} " + " ".join(words[2:])
    return f"{command} --token={CANARY} '{CANARY} secret' \"{CANARY}\""


def test_corpus_never_raises_and_stays_in_the_vocabulary(commands: list[str]) -> None:
    vocab = default_vocabulary()
    unparsed = 0
    for command in commands:
        found = analyze(command, vocab)  # the strict path: a bug raises here instead of failing closed
        if found.special == UNPARSED:
            unparsed += 1
            assert parse_tree(command) is None
            continue
        result = found.plain
        assert vocab.is_valid_verb(result.verb), command
        for verb in result.verbs:
            assert vocab.is_valid_verb(verb), command
        assert result.verb in result.verbs or not result.verbs
    assert unparsed / len(commands) < 0.02  # tree-sitter rejects about 0.7% of this corpus


def test_planted_canary_never_reaches_a_verb(commands: list[str]) -> None:
    for k, command in enumerate(commands):
        planted = _plant(command, k)
        result = extract(planted)
        assert not _leaks(result), planted
        assert is_valid_verb(result.verb)


def test_hashed_mode_keeps_names_out(commands: list[str]) -> None:
    def hasher(name: str) -> str:
        assert isinstance(name, str)
        return "0123456789"

    for command in commands[::7]:
        result = extract(f"./bin/{CANARY}-tool {command}", hasher=hasher)
        assert result.verb in ("<script:0123456789>", UNPARSED)
        assert not _leaks(result)


# -- real agent logs -------------------------------------------------------------------------------------
def _jsonl_records(path: Path) -> Iterator[dict[str, object]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except ValueError:
            return
        items = data.get("items", []) if isinstance(data, dict) else data
        yield from (item for item in items if isinstance(item, dict))
        return
    for line in text.split("\n"):
        if line.strip():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


def _agent_commands() -> tuple[list[str], list[list[str]]]:
    lines: list[str] = []
    argvs: list[list[str]] = []
    for sub in ("claude-code", "codex"):
        try:
            folder = corpus_dir(sub)
        except pytest.skip.Exception:
            continue
        for path in sorted(folder.iterdir()):
            for record in _jsonl_records(path):
                message = record.get("message")
                content = message.get("content") if isinstance(message, dict) else None
                for block in content if isinstance(content, list) else []:
                    if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == "Bash":
                        command = (block.get("input") or {}).get("command")
                        if isinstance(command, str):
                            lines.append(command)
                payload = record.get("payload", record)
                if isinstance(payload, dict) and payload.get("type") == "function_call":
                    try:
                        arguments = json.loads(str(payload.get("arguments") or "{}"))
                    except ValueError:
                        continue
                    command = arguments.get("command") if isinstance(arguments, dict) else None
                    if isinstance(command, list) and all(isinstance(w, str) for w in command):
                        argvs.append(command)
                    elif isinstance(command, str):
                        lines.append(command)
    if not lines and not argvs:
        pytest.skip("no agent logs in ../shared/corpus")
    return lines, argvs


def test_agent_log_commands() -> None:
    vocab = default_vocabulary()
    lines, argvs = _agent_commands()
    for command in lines:
        result = analyze(command, vocab).plain
        assert vocab.is_valid_verb(result.verb)
        assert all(vocab.is_valid_verb(verb) for verb in result.verbs)
        assert not _leaks(extract(f"{command} {CANARY}"))
    unparsed = 0
    for argv in argvs:
        result = analyze_argv(tuple(argv), vocab).plain
        unparsed += result.verb == UNPARSED
        assert vocab.is_valid_verb(result.verb)
        assert all(vocab.is_valid_verb(verb) for verb in result.verbs)
        assert not _leaks(extract_argv([*argv, CANARY]))
    assert unparsed <= max(3, len(argvs) // 50)
