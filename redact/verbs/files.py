"""Read-only file commands: which operands of `cat`, `sed -n`, `rg`, `ls`, `Get-Content`... name files.

The builder turns a shell call whose every command is read-only into a `read` or `search` event with
targets, as it does for the harness's own Read and Grep tools. This module says, for one resolved
command, what it does to files (`read`, `search`, or `cd`: a change of directory) and which of its
words are paths. A pattern, a sed script, an option value is never an operand; a word whose value is
only known at run time, a glob, `-` (stdin), a URL or a device is skipped. The operands are raw paths:
they leave the engine only for the builder's path placement (repo-relative or a bucket), never as a
verb.

A line is read-only when every command in it is one of `READ_ONLY` (read or search commands, and
filters and set-up steps that change nothing) and nothing is written by a redirect (`ctx.writes`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from redact.verbs.ctx import Dyn, Hit

READ, SEARCH, CD = "read", "search", "cd"


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


@dataclass(frozen=True, slots=True)
class FileRule:
    touch: str  # read | search | cd
    opts: frozenset[str] = frozenset()  # options that take a value (the value is skipped)
    lead: int = 0  # leading positionals that are not paths (a pattern, a sed script)
    lead_opts: frozenset[str] = frozenset()  # options whose value takes the lead's place (-e PATTERN)
    path_opts: frozenset[str] = frozenset()  # options whose value is a path (-Path, -LiteralPath)
    no_lead: frozenset[str] = frozenset()  # flags after which every positional is a path (rg --files)
    writes: frozenset[str] = frozenset()  # flags that make the command write (sed -i)
    limit: int = 32  # positionals read as paths at most (Get-ChildItem's second one is a filter)
    out_at: int = -1  # the positional from which words are output files (`uniq IN OUT`): writes
    ps: bool = False  # PowerShell parameters: case-insensitive, `-Name:value`, abbreviations skipped


_HEAD = _set("-n", "-c", "--lines", "--bytes")
_GREP = FileRule(SEARCH, _set("-m", "--max-count", "-A", "-B", "-C", "-d", "-D", "--context",
                              "--after-context", "--before-context", "--label", "--binary-files",
                              "--devices", "--directories"),
                 lead=1, lead_opts=_set("-e", "-f", "--regexp", "--file"))
_RG = FileRule(SEARCH, _set("-m", "--max-count", "-A", "-B", "-C", "-g", "--glob", "--iglob", "-t",
                            "--type", "-T", "--type-not", "-M", "--max-columns", "-j", "--threads",
                            "--sort", "--sortr", "-r", "--replace", "--max-depth", "-d", "-E",
                            "--encoding", "--max-filesize", "--colors", "--pre", "--pre-glob",
                            "--path-separator", "--context-separator", "--field-match-separator",
                            "--type-add", "--ignore-file", "--engine", "--dfa-size-limit",
                            "--regex-size-limit", "--context", "--after-context", "--before-context"),
               lead=1, lead_opts=_set("-e", "-f", "--regexp", "--file"),
               no_lead=_set("--files", "--type-list"))
_PS_PATH = _set("-path", "-literalpath", "-lp", "-pspath")

RULES: dict[str, FileRule] = {
    **dict.fromkeys(("cat", "tac", "less", "more", "most", "view"), FileRule(READ)),
    "bat": FileRule(READ, _set("-l", "--language", "-r", "--line-range", "-H", "--highlight-line",
                               "--style", "--theme", "-m", "--map-syntax", "--tabs", "--wrap",
                               "--terminal-width", "--color", "--paging", "--pager", "--decorations")),
    "batcat": FileRule(READ, _set("-l", "--language", "-r", "--line-range", "--style", "--theme")),
    "nl": FileRule(READ, _set("-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w",
                              "--body-numbering", "--section-delimiter", "--footer-numbering",
                              "--header-numbering", "--line-increment", "--join-blank-lines",
                              "--number-format", "--number-separator", "--starting-line-number",
                              "--number-width")),
    "head": FileRule(READ, _HEAD),
    "tail": FileRule(READ, _HEAD | _set("-s", "--sleep-interval", "--pid", "--max-unchanged-stats")),
    "wc": FileRule(READ, _set("--files0-from")),
    "sort": FileRule(READ, _set("-k", "--key", "-t", "--field-separator", "-S", "--buffer-size",
                                "-T", "--temporary-directory", "--parallel", "--batch-size",
                                "--files0-from", "--compress-program", "--sort", "--random-source"),
                     writes=_set("-o", "--output")),
    "uniq": FileRule(READ, _set("-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars",
                                "--group", "--all-repeated"), out_at=1),
    "sed": FileRule(READ, _set("-l", "--line-length"), lead=1,
                    lead_opts=_set("-e", "-f", "--expression", "--file"),
                    writes=_set("-i", "--in-place")),
    **dict.fromkeys(("grep", "egrep", "fgrep", "ugrep", "ag", "ack"), _GREP),
    "rg": _RG,
    "ls": FileRule(SEARCH, _set("-I", "--ignore", "-w", "--width", "-T", "--tabsize", "--hide",
                                "--format", "--sort", "--time", "--time-style", "--block-size",
                                "--quoting-style", "--indicator-style")),
    "tree": FileRule(SEARCH, _set("-L", "-P", "-I", "-o", "--filelimit", "--charset", "--timefmt")),
    "fd": FileRule(SEARCH, _set("-e", "--extension", "-t", "--type", "-E", "--exclude", "-d",
                                "--max-depth", "--min-depth", "--exact-depth", "-x", "--exec", "-X",
                                "--exec-batch", "-j", "--threads", "-S", "--size", "--changed-within",
                                "--changed-before", "-o", "--owner", "-c", "--color", "--max-results",
                                "--base-directory", "--path-separator", "--search-path", "--ignore-file"),
                   lead=1),
    **dict.fromkeys(("cd", "pushd"), FileRule(CD, limit=1)),
    # PowerShell cmdlets (the PowerShell walker hands their parameters over as `-Name` words)
    "get-content": FileRule(READ, _set("-totalcount", "-head", "-first", "-tail", "-last",
                                       "-readcount", "-encoding", "-delimiter", "-filter", "-include",
                                       "-exclude", "-stream", "-credential"), path_opts=_PS_PATH, ps=True),
    "select-string": FileRule(SEARCH, _set("-include", "-exclude", "-encoding", "-context", "-culture"),
                              lead=1, lead_opts=_set("-pattern"), path_opts=_PS_PATH, ps=True),
    "get-childitem": FileRule(SEARCH, _set("-filter", "-include", "-exclude", "-depth", "-attributes"),
                              path_opts=_PS_PATH, limit=1, ps=True),
    **dict.fromkeys(("set-location", "push-location"), FileRule(CD, _set("-stackname"),
                                                                 path_opts=_PS_PATH, limit=1, ps=True)),
}

#: Commands that change nothing: besides the rules above, filters of their output and set-up steps.
READ_ONLY: frozenset[str] = frozenset(RULES) | _set(
    "find", "gfind",
    "cut", "tr", "column", "fold", "fmt", "rev", "paste", "expand", "unexpand", "jq",
    "echo", "printf", "pwd", "true", "false", "test", "popd", "sleep", "which", "type", "basename",
    "dirname", "realpath", "readlink", "file", "stat", "du", "diff", "cmp", "comm", "md5sum",
    "sha1sum", "sha256sum", "shasum", "xargs", "export", "set", "unset", "date", "whoami",
    "uname", "git status", "git log", "git diff", "git show", "git branch", "git rev-parse", "git ls-files",
    "git grep", "git blame",
    # PowerShell
    "get-location", "test-path", "get-item", "resolve-path", "split-path", "join-path", "select-object",
    "where-object", "sort-object", "measure-object", "group-object", "format-table", "format-list",
    "out-string", "out-host", "write-output", "write-host", "foreach-object", "get-unique",
    "pop-location",
)

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
#: Pattern characters: such a word names many files or none. `[` is not one: agents quote Next.js
#: style paths (`app/[id]/page.tsx`) and mean them literally.
_GLOB = frozenset("*?")


def is_operand(word: str) -> bool:
    """A word that can name one file: static, not a glob, stdin, a URL, a device or an option."""
    if type(word) is Dyn or not word or len(word) > 4096 or word == "-" or "\n" in word or "\0" in word:
        return False
    if any(c in _GLOB for c in word) or word.startswith(("/dev/", "/proc/")) or _URL.match(word):
        return False
    return not word.startswith("$")


def _option(word: str, ps: bool) -> tuple[str, str | None]:
    """(option name, glued value or None): `--glob=x`, `-Path:x`, `-n5` is left whole."""
    if ps:
        name, sep, value = word.partition(":")
        return name.lower(), (value if sep else None)
    if word.startswith("--") and "=" in word:
        name, _, value = word.partition("=")
        return name, value
    return word, None


def operands(rule: FileRule, words: Sequence[str], start: int) -> tuple[list[str], bool]:
    """(paths, writes) of the command whose arguments are `words[start:]`."""
    found: list[str] = []
    lead = rule.lead
    positional = 0
    writes = False
    n = len(words)
    j = start
    while j < n:
        word = words[j]
        if type(word) is not Dyn and word == "--" and not rule.ps:
            j += 1
            while j < n:
                if positional >= lead and len(found) < rule.limit and is_operand(words[j]):
                    found.append(words[j])
                positional += 1
                j += 1
            break
        if type(word) is not Dyn and len(word) > 1 and word[0] == "-":
            name, glued = _option(word, rule.ps)
            if name in rule.writes or (rule.writes and "-i" in rule.writes and not name.startswith("--")
                                       and "i" in name[1:] and not rule.ps):  # sed -ni, -i.bak
                writes = True
            if name in rule.no_lead:
                lead = 0
            takes = name in rule.opts or name in rule.lead_opts or name in rule.path_opts
            value = glued if glued is not None else (words[j + 1] if takes and j + 1 < n else None)
            if name in rule.lead_opts:
                lead = 0
            if name in rule.path_opts and value is not None and is_operand(value):
                found.append(value)
            j += 2 if takes and glued is None else 1
            continue
        if 0 <= rule.out_at <= positional - lead:
            writes = True
        elif positional >= lead and len(found) < rule.limit and is_operand(word):
            found.append(word)
        positional += 1
        j += 1
    return found, writes


def find_paths(words: Sequence[str], start: int) -> list[str]:
    """`find A B -name x`: the paths before the first expression word."""
    found: list[str] = []
    for word in words[start:]:
        if type(word) is not Dyn and (word[:1] in ("-", "(", "!", ")") or word in (",",)):
            if word in ("-H", "-L", "-P"):
                continue
            break
        if is_operand(word):
            found.append(word)
    return found


#: find actions that change files or run other commands.
FIND_WRITES = _set("-delete", "-fprint", "-fprint0", "-fprintf", "-fls")


#: Programs `attach` looks at (their rule, or find).
FILE_PROGRAMS: frozenset[str] = frozenset(RULES) | _set("find", "gfind")


def attach(hit: Hit, name: str, words: Sequence[str], start: int) -> None:
    """Record on `hit` (the command's own hit) what it does to files and its path operands."""
    if hit.verb is None or hit.verb.split(" ", 1)[0] != name:
        return  # the rule emitted something else first (a wrapper's inner command)
    if name in ("find", "gfind"):
        hit.touch = SEARCH
        hit.files = tuple(find_paths(words, start))
        hit.writes = any(type(w) is not Dyn and w in FIND_WRITES for w in words[start:])
        return
    rule = RULES[name]
    found, writes = operands(rule, words, start)
    hit.touch, hit.files, hit.writes = rule.touch, tuple(found), writes
