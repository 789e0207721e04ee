"""From the words of one simple command to verbs: assignments, program names, subcommand tables.

`run()` is the single entry point: it drops leading `NAME=value` words, normalises the program name,
and either hands the words to a rule (a wrapper such as `sudo`, a shell such as `bash -c`, a runner
such as `npx`: see `wrappers.py`, `shells.py`, `hosts.py` and `runners.py`, which register
themselves here) or walks the program's subcommand tree from the vocabulary. Words are only ever *compared* with vocabulary keys;
what is emitted is always the vocabulary's own spelling, so no argument can reach a verb.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from redact.verbs import files
from redact.verbs.classify import classify_script, vcs_action
from redact.verbs.ctx import Ctx, Dyn, Hit
from redact.verbs.names import hash_name, program_key
from redact.verbs.vocab import Node, Program

#: A rule that takes over a program: (words, index after the program word, ctx, level, stdin, name).
Rule = Callable[[Sequence[str], int, Ctx, int, "str | None", str], None]
#: A hook after a subcommand matched: (words, index after the match, ctx, level, stdin, hit).
Hook = Callable[[Sequence[str], int, Ctx, int, "str | None", Hit], None]

RULES: dict[str, Rule] = {}
HOOKS: dict[str, Hook] = {}

#: Set-up steps: skipped when choosing the main verb of a line if anything else follows.
SETUP = frozenset({"cd", "export", "source", "set", "pushd", "popd", "unset", "alias", "unalias",
                   "ulimit", "umask", "shopt", "trap", "local", "declare", "readonly", "typeset",
                   "set-location", "push-location", "pop-location", "set-strictmode", "set-variable",
                   "import-module", "set-executionpolicy"})
#: Guards and pauses: weaker still (`[ -f .env ] && source .env` is about `source`).
GUARDS = frozenset({"test", "true", "false", "sleep", "wait", "test-path", "start-sleep"})


def setup_rank(verb: str) -> int:
    """0 for an action, 1 for a set-up step, 2 for a guard; the main verb has the lowest rank."""
    return 2 if verb in GUARDS else (1 if verb in SETUP else 0)

_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")


def is_assignment(word: str) -> bool:
    return "=" in word and _ASSIGN.match(word) is not None


def program_hit(name: str, ctx: Ctx, level: int) -> Hit:
    """The hit for a vocabulary program used bare (`sudo -v`, `bash script.sh`)."""
    root = ctx.vocab.programs[name].root
    return Hit(root.verb, None, level, setup_rank(root.verb), root.cat, root.verify)


def unknown_hit(word: str, ctx: Ctx, level: int) -> Hit:
    name = word if type(word) is Dyn else hash_name(word)
    return Hit(None, name, level)


def run(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None) -> None:
    """Resolve the command that starts at `words[i]` and add its hits to `ctx`."""
    n = len(words)
    while i < n and is_assignment(words[i]):
        i += 1
    if i >= n:
        return
    word = words[i]
    if type(word) is Dyn:
        ctx.add(unknown_hit(word, ctx, level))
        return
    name = program_key(word, ctx.vocab, ctx.windows)
    if name is None:
        ctx.add(unknown_hit(word, ctx, level))
        return
    first = len(ctx.hits)
    rule = RULES.get(name)
    if rule is not None:
        rule(words, i + 1, ctx, level, stdin, name)
    else:
        run_program(ctx.vocab.programs[name], words, i + 1, ctx, level, stdin)
    if first < len(ctx.hits) and name in files.FILE_PROGRAMS:
        files.attach(ctx.hits[first], name, words, i + 1)


# -- options ------------------------------------------------------------------------------------------
def option_width(word: str, opts: frozenset[str], style: str = "gnu") -> int:
    """How many words the option `word` spans: 1, or 2 when its value is the next word."""
    if word.startswith("--"):
        return 1 if "=" in word or word not in opts else 2
    if word in opts:
        return 2
    if style == "go" or "=" in word[:3]:
        return 1
    last = len(word) - 1
    for k in range(1, len(word)):  # a getopt cluster: -xvf FILE, -nNS (glued value)
        if "-" + word[k] in opts:
            return 2 if k == last else 1
    return 1


def is_option(word: str, plus: bool = False) -> bool:
    return len(word) > 1 and (word[0] == "-" or (plus and word[0] == "+"))


def skip_opts(words: Sequence[str], j: int, opts: frozenset[str], style: str = "gnu",
              plus: bool = False) -> int:
    """The index of the first positional word at or after `j` (past a `--`)."""
    n = len(words)
    while j < n:
        word = words[j]
        if word == "--":
            return j + 1
        if not is_option(word, plus):
            return j
        j += 1 if word[0] == "+" else option_width(word, opts, style)
    return j


def positionals(words: Sequence[str], j: int, opts: frozenset[str], style: str = "gnu",
                limit: int = 8) -> list[str]:
    """Up to `limit` positional words from `j` on, options and `NAME=value` skipped."""
    found: list[str] = []
    n = len(words)
    while j < n and len(found) < limit:
        j = skip_opts(words, j, opts, style)
        if j >= n:
            break
        word = words[j]
        if not is_assignment(word):
            found.append(word)
        j += 1
    return found


def has_flag(words: Sequence[str], start: int, flags: dict[str, str]) -> str | None:
    for k in range(start, len(words)):
        word = words[k]
        found = flags.get(word) or (flags.get(word.split("=", 1)[0]) if "=" in word else None)
        if found is not None:
            return found
    return None


# -- programs -----------------------------------------------------------------------------------------
def child_of(node: Node, word: str, program: Program) -> Node | None:
    if type(word) is Dyn or not node.children:
        return None
    key = word.lower() if program.ci and word.isascii() else word
    child = node.children.get(key)
    if child is None and ":" in key:
        if program.kind == "seq" and key.startswith(":"):  # gradle :app:test -> test
            return node.children.get(key.rsplit(":", 1)[1])
        while child is None and program.colon and ":" in key:  # db:migrate:status -> db:migrate -> db
            key = key.rsplit(":", 1)[0]
            child = node.children.get(key)
    return child


def run_program(program: Program, words: Sequence[str], i: int, ctx: Ctx, level: int,
                stdin: str | None) -> None:
    node = program.root
    kind = program.kind
    j = i
    script_word: str | None = None
    n = len(words)
    if kind == "sub" or kind == "script":
        while node.children:
            j = skip_opts(words, j, node.opts, program.style, program.plus)
            if j >= n:
                break
            child = child_of(node, words[j], program)
            if child is None:
                implicit = node.children.get("run") if kind == "script" and node is program.root else None
                if implicit is not None and type(words[j]) is not Dyn:
                    node, script_word = implicit, words[j]
                break
            node = child
            j += 1
    elif kind == "scan":
        for word in positionals(words, j, node.opts, program.style, limit=16):
            child = child_of(node, word, program)
            if child is not None:
                node = child
                break
    elif kind == "seq":
        _run_seq(program, words, j, ctx, level)
        return
    verify = node.verify
    if node.verify_if is not None:
        verify = has_flag(words, i, node.verify_if) or verify
    if node.script and verify is None:
        if script_word is None:
            limit = 8 if node is program.root else 1
            names = positionals(words, j, node.opts, program.style, limit)
        else:
            names = [script_word]
        for name in names:
            if type(name) is not Dyn:
                verify = classify_script(name, node.verb)
                if verify is not None:
                    break
    hit = Hit(node.verb, None, level, setup_rank(node.verb), node.cat, verify,
              vcs_action(program.name, node.verb, words, j))
    if verify == "test":
        hit.cat = "test"
    elif verify is not None and hit.cat in ("shell", "package", "tool"):
        hit.cat = "build"
    hook = HOOKS.get(node.verb)
    if hook is not None:
        hook(words, j, ctx, level, stdin, hit)
    else:
        ctx.add(hit)


def _run_seq(program: Program, words: Sequence[str], j: int, ctx: Ctx, level: int) -> None:
    """mvn clean install, gradle clean build: every positional that is a known phase or task."""
    root = program.root
    parts: list[str] = []
    verify: str | None = None
    for word in positionals(words, j, root.opts, program.style, limit=32):
        child = child_of(root, word, program)
        if child is None:
            continue
        emitted = child.verb[len(program.name) + 1:]
        if emitted in parts:
            continue
        parts.append(emitted)
        verify = _stronger(verify, child.verify)
        if len(parts) >= program.seq_max:
            break
    verb = " ".join([program.name, *parts])
    cat = "test" if verify == "test" else ("build" if verify else root.cat)
    ctx.add(Hit(verb, None, level, 0, cat, verify))


VERIFY_ORDER = {"test": 4, "typecheck": 3, "lint": 2, "build": 1}


def _stronger(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if VERIFY_ORDER[a] >= VERIFY_ORDER[b] else b
