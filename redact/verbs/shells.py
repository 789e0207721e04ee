"""Programs whose argument is a command line: shells, `eval`, `cmd /c`, PowerShell.

`bash -c STRING` (also `-lc`, `-euxo pipefail -c`) and a heredoc or here-string fed to a shell are
parsed as scripts at the shell's own level, so `bash -lc 'cd app && npm test'` is `npm test`.
`bash FILE` runs a project file: its verb is the shell. A string that cannot be followed (dynamic,
unparsable, nested too deep) leaves the program's own verb.
"""
from __future__ import annotations

from collections.abc import Sequence

from redact.verbs import parse, powershell as ps
from redact.verbs.ctx import Ctx, Dyn, script_text
from redact.verbs.resolve import RULES, program_hit


def _set(*names: str) -> frozenset[str]:
    return frozenset(names)


def _emit(name: str, ctx: Ctx, level: int) -> None:
    ctx.add(program_hit(name, ctx, level))


_SHELL_VALUE_LONG = _set("--rcfile", "--init-file")


def shell(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    """bash/sh/zsh: `-c STRING` and a heredoc on stdin are scripts; `bash file.sh` is the shell."""
    n = len(words)
    j = i
    has_c = False
    while j < n:
        word = words[j]
        if type(word) is Dyn:
            break
        if word == "--" or word == "-":
            j += 1
            break
        if len(word) > 1 and word[0] in "-+":
            if word.startswith("--"):
                j += 2 if word in _SHELL_VALUE_LONG else 1
                continue
            letters = word[1:]
            if word[0] == "-" and "c" in letters:
                has_c = True
            j += 1 + letters.count("o") + letters.count("O")
            continue
        break
    if has_c:
        if j < n and parse.parse_script(script_text(words[j]), ctx, level):
            return
    elif j >= n and stdin is not None:
        ctx.stdin_used = True
        if parse.parse_script(script_text(stdin), ctx, level):
            return
    _emit(name, ctx, level)


def eval_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
              name: str) -> None:
    """eval STRING...: a static string is parsed; a dynamic one (eval "$(ssh-agent -s)") is `eval`."""
    if any(type(w) is Dyn for w in words[i:]):
        _emit(name, ctx, level)
        return
    text = " ".join(words[i:])
    if not text.strip() or not parse.parse_script(text, ctx, level):
        _emit(name, ctx, level)


def _windows_script(text: str, ctx: Ctx, level: int) -> bool:
    before = ctx.windows
    ctx.windows = True
    try:
        return parse.parse_script(text, ctx, level)
    finally:
        ctx.windows = before


def cmd_rule(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None, name: str) -> None:
    """cmd /c "npm run build" (Git Bash writes //c): the rest is a command line."""
    for j in range(i, len(words)):
        word = words[j]
        if word.lower() in ("/c", "//c", "/k", "//k", "-c"):
            text = " ".join(script_text(w) for w in words[j + 1:]).strip()
            if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
                text = text[1:-1]
            if text and _windows_script(text, ctx, level):
                return
            break
        if not word.startswith("/"):
            break
    _emit(name, ctx, level)


_PS_VALUE = ("-executionpolicy", "-ep", "-ex", "-windowstyle", "-w", "-workingdirectory", "-wd",
             "-outputformat", "-of", "-inputformat", "-if", "-configurationname", "-version", "-v",
             "-psconsolefile", "-settingsfile", "-custompipename")


def powershell(words: Sequence[str], i: int, ctx: Ctx, level: int, stdin: str | None,
               name: str) -> None:
    """powershell -NoProfile -Command "Get-ChildItem | Select-Object Name": the text is parsed with
    the PowerShell grammar (powershell.py), else as a cmd-like line."""
    n = len(words)
    j = i
    while j < n:
        word = words[j]
        low = word.lower()
        if not low.startswith("-") or type(word) is Dyn:
            break
        if low in ("-command", "-c", "-com", "-comm", "-comma", "-comman", "-cmd"):
            j += 1
            break
        if low.startswith(("-e", "-f")) and not low.startswith(("-ex", "-ep")):
            _emit(name, ctx, level)  # -EncodedCommand (opaque) or -File script.ps1 (a value)
            return
        j += 2 if low in _PS_VALUE else 1
    else:
        _emit(name, ctx, level)
        return
    text = " ".join(script_text(w) for w in words[j:]).strip()
    if not text:
        _emit(name, ctx, level)
    elif not ps.parse_script(text, ctx, level) and not _windows_script(text, ctx, level):
        _emit(name, ctx, level)


for _name in ("bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "tcsh", "csh"):
    RULES[_name] = shell
RULES["eval"] = eval_rule
RULES["cmd"] = cmd_rule
RULES["powershell"] = powershell
RULES["pwsh"] = powershell
