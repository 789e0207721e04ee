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


@dataclass(frozen=True, slots=True)
class FileRule:
    touch: str  # read | search | cd
    opts: frozenset[str] = frozenset()  # options that take a value (the value is skipped)
    flags: frozenset[str] = frozenset()  # options that take none (`--color`: an `=WHEN` is glued)
    lead: int = 0  # leading positionals that are not paths (a pattern, a sed script)
    lead_opts: frozenset[str] = frozenset()  # options whose value takes the lead's place (-e PATTERN)
    path_opts: frozenset[str] = frozenset()  # options whose value is a path (-Path, -LiteralPath)
    no_lead: frozenset[str] = frozenset()  # flags after which every positional is a path (rg --files)
    writes: frozenset[str] = frozenset()  # flags that make the command write (sed -i)
    limit: int = 32  # positionals read as paths at most (Get-ChildItem's second one is a filter)
    out_at: int = -1  # the positional from which words are output files (`uniq IN OUT`): writes
    ps: bool = False  # PowerShell parameters: case-insensitive, `-Name:value`, unique prefixes
    numeric: bool = False  # `-20` is a count (head, tail, grep's context)
    plus: bool = False  # `+G`, `+/word`: a command for the pager, not a file (less, more, view)


# PowerShell's common parameters, which every cmdlet takes.
_PS_COMMON_OPTS = frozenset({
    "-erroraction", "-ea", "-warningaction", "-wa", "-informationaction", "-infa", "-errorvariable",
    "-ev", "-warningvariable", "-wv", "-informationvariable", "-iv", "-outvariable", "-ov",
    "-outbuffer", "-ob", "-pipelinevariable", "-pv", "-progressaction", "-proga"})
_PS_COMMON_FLAGS = frozenset({"-verbose", "-vb", "-debug", "-db", "-whatif", "-wi", "-confirm", "-cf"})


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


def _w(text: str) -> frozenset[str]:
    return frozenset(text.split())


_HEAD = _set("-n", "-c", "--lines", "--bytes")
_GREP = FileRule(SEARCH, _w("""-m --max-count -A -B -C -d -D --context --after-context --before-context
    --label --binary-files --devices --directories --include --exclude --exclude-dir --exclude-from
    --group-separator --ignore --ignore-dir --depth -G --file-search-regex --type --ignore-file"""),
                 _w("""-E -F -G -P -i -y -v -w -x -c -L -l -o -q -s -b -H -h -n -T -Z -z -a -I -r -R -U
    -u -S -Q -V --extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case
    --no-ignore-case --invert-match --word-regexp --line-regexp --count --color --colour
    --files-without-match --files-with-matches --only-matching --quiet --silent --no-messages
    --byte-offset --with-filename --no-filename --line-number --initial-tab --null --null-data --text
    --recursive --dereference-recursive --line-buffered --binary --no-group-separator --help --version
    --hidden --literal --smart-case --unrestricted --follow --all-types --nocolor --noheading --nogroup
    --column --no-color"""),
                 lead=1, lead_opts=_set("-e", "-f", "--regexp", "--file"), numeric=True)
_RG = FileRule(SEARCH, _w("""-m --max-count -A -B -C -g --glob --iglob -t --type -T --type-not -M
    --max-columns -j --threads --sort --sortr -r --replace --max-depth -d -E --encoding --max-filesize
    --color --colors --pre --pre-glob --path-separator --context-separator --field-match-separator
    --field-context-separator --hyperlink-format --type-add --type-clear --ignore-file --engine
    --dfa-size-limit --regex-size-limit --context --after-context --before-context --generate"""),
               _w("""-i -s -S -v -w -x -c -l -n -N -H -I -o -p -q -u -U -z -a -F -P -L -0 -b -h -V
    --hidden --no-ignore --no-ignore-vcs --no-ignore-parent --no-ignore-dot --no-ignore-global
    --no-ignore-exclude --no-ignore-files --follow --fixed-strings --ignore-case --smart-case
    --case-sensitive --invert-match --word-regexp --line-regexp --count --count-matches
    --files-with-matches --files-without-match --line-number --no-line-number --with-filename
    --no-filename --only-matching --pretty --quiet --unrestricted --multiline --multiline-dotall
    --search-zip --text --pcre2 --heading --no-heading --vimgrep --json --no-messages --stats --trim
    --column --no-column --byte-offset --null --null-data --crlf --binary --no-config --passthru
    --passthrough --sort-files --one-file-system --no-require-git --debug --trace
    --max-columns-preview --no-unicode --auto-hybrid-regex --glob-case-insensitive --include-zero
    --line-buffered --block-buffered --mmap --no-mmap --help --version --files --type-list
    --no-pcre2-unicode --unicode --no-hidden --no-follow --no-stats --no-binary"""),
               lead=1, lead_opts=_set("-e", "-f", "--regexp", "--file"),
               no_lead=_set("--files", "--type-list"), numeric=True)
_PS_PATH = _set("-path", "-literalpath", "-lp", "-pspath")
_CAT = _w("""-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --number --squeeze-blank
    --show-ends --show-tabs --show-nonprinting --help --version""")
_LESS = FileRule(READ, _w("""-p --pattern -t --tag -x --tabs -y --max-forw-scroll -z --window -b
    --buffers -h --max-back-scroll -j --jump-target -o --log-file -O --LOG-FILE -T --tag-file -k
    --lesskey-file -P --prompt -# --shift --line-num-width --status-col-width"""),
                 _w("""-N -S -R -r -i -I -F -X -K -M -m -n -E -e -f -g -G -J -q -Q -s -w -W -c -C -d
    -L -a -B -u -U -V -~ --quit-if-one-screen --no-init --RAW-CONTROL-CHARS --raw-control-chars
    --chop-long-lines --LINE-NUMBERS --line-numbers --ignore-case --IGNORE-CASE --quit-at-eof
    --QUIT-AT-EOF --squeeze-blank-lines --long-prompt --quiet --silent --mouse --help --version
    --follow-name --no-lessopen --use-color"""), plus=True)
_MORE = FileRule(READ, _w("-n --lines"), _w("""-d -l -f -p -c -s -u -e --silent --logical --no-pause
    --print-over --clean-print --squeeze --plain --exit-on-eof --help --version"""), plus=True)
_VIEW = FileRule(READ, _w("-c -S -u -U -i -T -t -q -w -W --cmd"), _w("""-R -M -m -b -l -n -N -r -L -E
    -e -s -d -y -Z -O -o -p -g -f -A -H -F -X -V -D --noplugin --clean --help --version"""), plus=True)
_BAT = FileRule(READ, _w("""-l --language -r --line-range -H --highlight-line --style --theme -m
    --map-syntax --tabs --wrap --terminal-width --color --paging --pager --decorations --file-name
    --diff-context --ignored-suffix --italic-text --squeeze-limit --strip-ansi --nonprintable-notation
    --binary --completion --set-terminal-title"""),
                _w("""-A --show-all -p --plain -n --number -u --unbuffered -f --force-colorization -P
    --no-paging -d --diff -s --squeeze-blank -S --chop-long-lines --list-languages -L --list-themes
    --no-config --no-custom-assets --help -h -V --version --acknowledgements"""))

RULES: dict[str, FileRule] = {
    **dict.fromkeys(("cat", "tac"), FileRule(READ, flags=_CAT | _w("-b -r --before --regex"),
                                           opts=_w("-s --separator"))),
    **dict.fromkeys(("less", "most"), _LESS),
    "more": _MORE,
    "view": _VIEW,
    **dict.fromkeys(("bat", "batcat"), _BAT),
    "nl": FileRule(READ, _set("-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w",
                              "--body-numbering", "--section-delimiter", "--footer-numbering",
                              "--header-numbering", "--line-increment", "--join-blank-lines",
                              "--number-format", "--number-separator", "--starting-line-number",
                              "--number-width"), _w("-p --no-renumber --help --version")),
    "head": FileRule(READ, _HEAD, _w("-q -v -z --quiet --silent --verbose --zero-terminated --help --version"),
                     numeric=True),
    "tail": FileRule(READ, _HEAD | _set("-s", "--sleep-interval", "--pid", "--max-unchanged-stats"),
                     _w("""-f -F -q -v -z -r --follow --retry --quiet --silent --verbose --zero-terminated
    --help --version"""), numeric=True),
    "wc": FileRule(READ, _set("--files0-from"), _w("""-c -m -l -L -w --bytes --chars --lines --words
    --max-line-length --total --help --version""")),
    "sort": FileRule(READ, _set("-k", "--key", "-t", "--field-separator", "-S", "--buffer-size",
                                "-T", "--temporary-directory", "--parallel", "--batch-size",
                                "--files0-from", "--compress-program", "--sort", "--random-source",
                                "-o", "--output"),
                     _w("""-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --reverse --numeric-sort
    --unique --human-numeric-sort --version-sort --ignore-case --stable --merge --check
    --zero-terminated --general-numeric-sort --month-sort --random-sort --dictionary-order
    --ignore-leading-blanks --ignore-nonprinting --debug --help --version"""),
                     writes=_set("-o", "--output")),
    "uniq": FileRule(READ, _set("-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars"),
                     _w("""-c -d -D -i -u -z --count --repeated --ignore-case --unique --zero-terminated
    --all-repeated --group --help --version"""), out_at=1),
    "sed": FileRule(READ, _set("-l", "--line-length"), _w("""-n -E -r -s -u -z --quiet --silent
    --regexp-extended --separate --unbuffered --null-data --posix --debug --sandbox --follow-symlinks
    --help --version"""), lead=1, lead_opts=_set("-e", "-f", "--expression", "--file"),
                    writes=_set("-i", "--in-place")),
    **dict.fromkeys(("grep", "egrep", "fgrep", "ugrep", "ag", "ack"), _GREP),
    "rg": _RG,
    "ls": FileRule(SEARCH, _set("-I", "--ignore", "-w", "--width", "-T", "--tabsize", "--hide",
                                "--format", "--sort", "--time", "--time-style", "--block-size",
                                "--quoting-style", "--indicator-style"),
                   _w("""-a -A -l -h -R -r -t -S -1 -d -F -G -i -n -o -g -s -X -U -v -c -u -p -Q -m -x -C
    -k -L -H -B -N -Z -e -@ -O -P -D -q -b -f -W --all --almost-all --human-readable --recursive
    --reverse --color --colour --classify --directory --group-directories-first --inode
    --numeric-uid-gid --size --dereference --full-time --si --author --escape --literal
    --hide-control-chars --show-control-chars --context --file-type --hyperlink --kibibytes
    --dereference-command-line --ignore-backups --no-group --zero --help --version""")),
    "tree": FileRule(SEARCH, _set("-L", "-P", "-I", "-o", "--filelimit", "--charset", "--timefmt",
                                  "-T", "-H", "--sort", "--hintro", "--houtro"),
                     _w("""-a -d -l -f -x -i -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -C -n -A -S -J -X
    --du --si --prune --noreport --dirsfirst --filesfirst --gitignore --matchdirs --ignore-case
    --inodes --device --nolinks --help --version""")),
    "fd": FileRule(SEARCH, _set("-e", "--extension", "-t", "--type", "-E", "--exclude", "-d",
                                "--max-depth", "--min-depth", "--exact-depth", "-x", "--exec", "-X",
                                "--exec-batch", "-j", "--threads", "-S", "--size", "--changed-within",
                                "--changed-before", "-o", "--owner", "-c", "--color", "--max-results",
                                "--base-directory", "--path-separator", "--search-path", "--ignore-file",
                                "--format", "--batch-size", "--and"),
                   _w("""-H --hidden -I --no-ignore -u --unrestricted -s --case-sensitive -i --ignore-case
    -g --glob --regex -F --fixed-strings -a --absolute-path -l --list-details -L --follow -p
    --full-path -0 --print0 --prune -1 -q --quiet --show-errors --no-ignore-vcs --no-ignore-parent
    --one-file-system --strip-cwd-prefix --help -h --version -V"""),
                   lead=1),
    **dict.fromkeys(("cd", "pushd"), FileRule(CD, flags=_w("-L -P -e -@ -n"), limit=1)),
    # PowerShell cmdlets (the PowerShell walker hands their parameters over as `-Name` words)
    "get-content": FileRule(READ, _set("-totalcount", "-head", "-first", "-tail", "-last",
                                       "-readcount", "-encoding", "-delimiter", "-filter", "-include",
                                       "-exclude", "-stream", "-credential") | _PS_COMMON_OPTS,
                            _w("-raw -wait -force -asbytestream -nonewline") | _PS_COMMON_FLAGS,
                            path_opts=_PS_PATH, ps=True),
    "select-string": FileRule(SEARCH, _set("-include", "-exclude", "-encoding", "-context", "-culture")
                              | _PS_COMMON_OPTS, _w("""-simplematch -casesensitive -quiet -list -notmatch
    -allmatches -raw -noemphasis""") | _PS_COMMON_FLAGS,
                              lead=1, lead_opts=_set("-pattern"), path_opts=_PS_PATH, ps=True),
    "get-childitem": FileRule(SEARCH, _set("-filter", "-include", "-exclude", "-depth", "-attributes")
                              | _PS_COMMON_OPTS, _w("""-recurse -r -s -force -name -directory -ad -file -af
    -hidden -h -ah -readonly -ar -system -as -followsymlink""") | _PS_COMMON_FLAGS,
                              path_opts=_PS_PATH, limit=1, ps=True),
    **dict.fromkeys(("set-location", "push-location"), FileRule(CD, _set("-stackname") | _PS_COMMON_OPTS,
                                                                 _set("-passthru") | _PS_COMMON_FLAGS,
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


def _ps_name(rule: FileRule, name: str) -> str | None:
    """A PowerShell parameter as the cmdlet binds it: its full name, or a unique prefix of one."""
    known = rule.opts | rule.flags | rule.lead_opts | rule.path_opts | rule.writes | rule.no_lead
    if name in known:
        return name
    matches = [k for k in known if k.startswith(name)]
    return matches[0] if len(matches) == 1 else None


@dataclass(slots=True)
class _Option:
    """One option word read against its command's table."""

    names: list[str]  # the options it sets (a getopt cluster sets several)
    value: str | None  # the value of the last one, when it takes one
    width: int  # words it spans (2 when its value is the next word)


def _read_option(rule: FileRule, words: Sequence[str], j: int) -> _Option | None:
    """The option at `words[j]`, or None when the table does not know it: then nothing after it can
    be told apart (its value, the pattern, a path), so the caller keeps no more operands."""
    word = words[j]
    nxt = words[j + 1] if j + 1 < len(words) else None
    takes = rule.opts | rule.lead_opts | rule.path_opts
    if rule.ps:
        raw, sep, glued = word.partition(":")
        name = _ps_name(rule, raw.lower())
        if name is None:
            return None
        if name in takes:
            return _Option([name], glued if sep else nxt, 1 if sep else 2)
        return _Option([name], None, 1)
    if word.startswith("--"):
        name, eq, glued = word.partition("=")
        if name in takes:
            return _Option([name], glued if eq else nxt, 1 if eq else 2)
        if name in rule.flags or name in rule.no_lead or name in rule.writes:
            return _Option([name], None, 1)  # `--color=auto`: an optional value, glued
        return None
    if rule.numeric and word[1:].isdigit():
        return _Option([], None, 1)  # `head -20`, `grep -3`
    names: list[str] = []
    for k in range(1, len(word)):  # a getopt cluster: -rn, -A3, -ni, -i.bak
        letter = "-" + word[k]
        if letter in takes:
            rest = word[k + 1:]
            return _Option([*names, letter], rest if rest else nxt, 1 if rest else 2)
        if letter in rule.writes:
            return _Option([*names, letter], None, 1)  # `-i.bak`: the rest is the backup suffix
        if letter not in rule.flags and letter not in rule.no_lead:
            return None
        names.append(letter)
    return _Option(names, None, 1)


def _writes_later(rule: FileRule, words: Sequence[str]) -> bool:
    """Whether any of `words` could be an option that makes the command write (read after an
    option the table does not know: the line is then not called read-only on a guess)."""
    for word in words:
        if type(word) is Dyn or len(word) < 2 or word[0] != "-":
            continue
        name = word.lower().partition(":")[0] if rule.ps else word.partition("=")[0]
        if name in rule.writes or any("-" + c in rule.writes for c in name[1:] if not name.startswith("--")):
            return True
    return False


def operands(rule: FileRule, words: Sequence[str], start: int) -> tuple[list[str], bool]:
    """(paths, writes) of the command whose arguments are `words[start:]`.

    Fail closed: after an option the rule's table does not know, no further operand is kept (its
    value would take the pattern's place and the pattern would be read as a path): a missing table
    entry costs a path, never shows a value."""
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
        if type(word) is not Dyn and rule.plus and len(word) > 1 and word[0] == "+":
            j += 1  # `less +G file`, `less +/word file`: a command for the pager
            continue
        if type(word) is not Dyn and len(word) > 1 and word[0] == "-":
            option = _read_option(rule, words, j)
            if option is None:
                return found, writes or _writes_later(rule, words[j:])
            for name in option.names:
                if name in rule.writes:
                    writes = True
                if name in rule.no_lead or name in rule.lead_opts:
                    lead = 0
            last = option.names[-1] if option.names else ""
            if last in rule.path_opts and option.value is not None and is_operand(option.value):
                found.append(option.value)
            j += option.width
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
