"""The small records shared by the parser, the resolver and the rules."""
from __future__ import annotations

from dataclasses import dataclass

from redact.verbs.vocab import Vocabulary

TOP = 0  # a command of the line itself (also through transparent wrappers and `bash -c`)
INNER = 1  # a command run by another one that keeps its own verb (ssh host CMD, find -exec CMD)
SUBST = 2  # a command whose output is a value: $(...), `...`, <(...)

MAX_DEPTH = 6  # nested command strings (bash -c "bash -c '...'") followed before giving up
MAX_PARSES = 64  # nested command strings parsed per line
MAX_HITS = 256  # verbs kept per line


class Dyn(str):
    """A word whose value is only known at run time (`$X`, `"$(cmd)"`, `{a,b}`).

    Its `str` value is the raw source text (so `--flag=$X` still looks like an option), and
    `script` is a best-effort text for when the word is itself a command string
    (`bash -c "cd $D && make"`). It never reaches a verb: a dynamic program is an unknown program.
    """

    script: str
    node: object
    consumed: bool


def dyn(raw: str, script: str, node: object = None) -> Dyn:
    word = Dyn(raw)
    word.script = script
    word.node = node
    word.consumed = False
    return word


def script_text(word: str) -> str:
    """The text to parse when `word` is a command string."""
    if type(word) is Dyn:
        word.consumed = True
        return word.script
    return word


@dataclass(slots=True)
class Hit:
    """One verb found in a line, before hashing."""

    verb: str | None  # None: a program outside the vocabulary
    name: str | None  # the normalised name an unknown program is hashed under
    level: int
    setup: int = 0  # 0 an action, 1 a set-up step (cd, export), 2 a guard (test, sleep)
    cat: str = "shell"
    verify: str | None = None
    vcs: tuple[str, str, int | None] | None = None
    touch: str | None = None  # read | search | cd: what the command does to files (files.py)
    files: tuple[str, ...] = ()  # its raw path operands (placed by the builder, never emitted)
    writes: bool = False  # a flag makes this otherwise read-only command write (sed -i)


class Ctx:
    """The state of one line's analysis: the vocabulary, the hits so far, and recursion budgets."""

    __slots__ = ("depth", "hits", "out_of_time", "parses", "stdin_used", "vocab", "windows", "writes")

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self.hits: list[Hit] = []
        self.depth = 0
        self.parses = 0
        self.out_of_time = False  # a nested parse ran out of its time budget (parse.py)
        self.windows = False  # inside a cmd.exe / PowerShell string: names are case-insensitive
        self.stdin_used = False  # the resolver consumed the command's heredoc as a script
        self.writes = False  # an output redirect to a file (`> out.txt`): the line is not read-only

    def add(self, hit: Hit) -> None:
        if len(self.hits) < MAX_HITS:
            self.hits.append(hit)
