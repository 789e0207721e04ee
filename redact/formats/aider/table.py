"""Aider's chat history (`.aider.chat.history.md`), declared: the structured lines the reader parses.

The history is Markdown that Aider appends to: a `# aider chat started at <time>` heading per run,
its status lines quoted (`> Aider v0.82.2`, `> Main model: ...`, `> Added src/app.py to the chat.`,
`> Applied edit to src/app.py`, `> Tokens: 9.9k sent, 682 received. Cost: ...`, `> Commit 1a2b3c4
...`), the user's input as `#### ` lines, and the model's replies as plain Markdown. Only the lines
below are read; everything else is text, never kept (a reply's length is counted, and its
SEARCH/REPLACE blocks are counted, never their content or file names).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HISTORY = ".aider.chat.history.md"
START = re.compile(r"# aider chat started at (\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2})\s*$")
VERSION = re.compile(r"> Aider v(\d+\.\d+\.\d+(?:[.-][0-9A-Za-z.+-]{1,40})?)\s*$")
MODEL = re.compile(r"> (?:Main model|Model|Models): (\S{1,120})(?: with .*)?\s*$")
ADDED = re.compile(r"> Added (.{1,4096}?) to the chat\.?\s*$")
APPLIED = re.compile(r"> Applied edit to (.{1,4096}?)\s*$")
COMMIT = re.compile(r"> Commit ([0-9a-f]{7,40}) ")
TOKENS = re.compile(r"> Tokens: (.{1,200}?)\s*$")
TOKEN_PART = re.compile(r"([0-9][0-9.,]*)(k|m)? (sent|received|cache write|cache hit)")
RUN_SHELL = re.compile(r"> Run shell commands?\? .*\b(y|n|yes|no)\s*$", re.IGNORECASE)
ERROR = re.compile(r"> (?:litellm\.\w+|The API provider has rate limited you|"
                   r"The LLM did not conform to the edit format)")
SEARCH = "<<<<<<< SEARCH"
#: A file name as Aider's status lines print it: no white space, quotes, emphasis or angle brackets.
PATH = re.compile(r"[^\s*`'\"<>|]{1,4096}")
USER = "#### "

#: `#### /command` -> what it is. "prompt": its text goes to the model (length only); "shell": a
#: command run in the shell (verb engine); "add": files added to the chat (the `> Added` lines say
#: which); any other command is counted by name in the report and not mapped.
COMMANDS: dict[str, str] = {
    "/ask": "prompt", "/code": "prompt", "/architect": "prompt", "/context": "prompt", "/help": "prompt",
    "/run": "shell", "/test": "shell", "!": "shell",
    "/add": "add", "/read-only": "add",
}

@dataclass(frozen=True)
class Line:
    """One kind of line the reader reads: its grammar (the pattern or prefix the reader matches; None
    for the rest), how the docs show it, its class, and what the reader keeps of it. The reader
    matches only grammars of these rows (tests/formats/test_aider.py), so this is the format's one
    table: the docs' rows are rendered from it."""

    grammar: re.Pattern[str] | str | None
    shown: str
    cls: str
    use: str
    #: sub-grammars the reader applies inside a line of this kind (a file name, a token count)
    parts: tuple[re.Pattern[str], ...] = ()


LINES: tuple[Line, ...] = (
    Line(START, "# aider chat started at <time>", "timestamp",
         "a run starts: the time of its events (written without a zone: read as UTC)"),
    Line(VERSION, "> Aider v<version>", "version", "-"),
    Line(MODEL, "> Main model: / Model: / Models: <model> with ...", "ident:model", "llm model"),
    Line(USER, "#### <text> (consecutive lines)", "text", "a prompt: length only"),
    Line(USER, "#### /ask, /code, /architect, /context, /help <text>", "text",
         "counted as a command; the next #### line (the message Aider sends) is the prompt"),
    Line(USER, "#### /run, /test <command>; #### !<command>", "command", "an exec / verify event (verb engine)"),
    Line(RUN_SHELL, "> <command> before > Run shell command? y", "command", "an exec / verify event per command"),
    Line(ADDED, "#### /add <files>; > Added <file> to the chat", "path", "a read event for the files added",
         parts=(PATH,)),
    Line(APPLIED, "> Applied edit to <file>", "path", "an edit event", parts=(PATH,)),
    Line(COMMIT, "> Commit <sha> <message>", "id", "a commit (sha only; the message is text)"),
    Line(TOKENS, "> Tokens: N sent, N cache write, N cache hit, N received.", "number",
         "in, cw, cr, out of the llm event (as Aider rounds them: 9.9k is 9900)", parts=(TOKEN_PART,)),
    Line(ERROR, "> litellm.*Error / rate limited / did not conform", "enum", "an llm error event"),
    Line(SEARCH, "<<<<<<< SEARCH (in a reply)", "text", "counted per reply (toolCalls), never the content"),
    Line(None, "reply text, any other line", "text", "length only (textChars); never kept"),
)


def sniff_bytes(head: bytes) -> bool:
    """An Aider chat history: its first non-blank line starts a run."""
    text = head[:4096].lstrip(b"\xef\xbb\xbf").lstrip()
    return text.startswith(b"# aider chat started at ")


_RUN_START = re.compile(rb"^# aider chat started at ", re.MULTILINE)


def runs(data: bytes) -> list[tuple[str, bytes]]:
    """The runs of a history, `[(run id, bytes)]`: each `# aider chat started at` line starts one
    launch of Aider, a session of its own (redact/formats/runs.py). Anything before the first run
    goes with it (the reader counts it as skipped). The id is a digest of the run's bytes."""
    starts = [m.start() for m in _RUN_START.finditer(data)]
    if not starts:
        return []
    starts[0] = 0
    bounds = zip(starts, [*starts[1:], len(data)])
    return [(hashlib.sha256(data[a:b]).hexdigest()[:16], data[a:b]) for a, b in bounds]


def sniff(records: list[dict[str, Any]]) -> bool:
    """Never JSON Lines."""
    return False


def list_sessions(folder: Path) -> list[Path]:
    path = folder / HISTORY
    return [path] if path.is_file() else []


def markdown() -> str:
    lines = ["| line | class | what the reader keeps |", "|---|---|---|"]
    for line in LINES:
        lines.append(f"| `{line.shown}` | {line.cls} | {line.use} |")
    lines += ["", "| command | read as |", "|---|---|"]
    for name, how in COMMANDS.items():
        lines.append(f"| `{name}` | {how} |")
    lines.append("| any other command (`/drop`, `/clear`, `/undo`, `/commit`...) | counted by name, not mapped |")
    return "\n".join(lines) + "\n"


#: The rows as the docs' field table reads them (location, class, use), rendered from LINES
#: (docs/formats.md, tests/formats/test_formats_docs.py).
FIELDS = tuple((line.shown, line.cls, line.use) for line in LINES)
