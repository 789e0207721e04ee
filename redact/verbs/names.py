"""Program-name normalisation: from the word a command starts with to a vocabulary key.

`/usr/bin/git` -> `git`, `C:\\Tools\\Git.EXE` -> `git`, `python3.12` -> `python`, `./gradlew` -> `gradle`.
Only exact ASCII spellings are ever matched: no Unicode folding, no NFKC, no stripping of invisible
characters, so a homoglyph, a zero-width character or a control character can never turn a private
name into a vocabulary word. Lower-casing happens only for ASCII names and only where the program is
known case-insensitively (a Windows spelling with an extension or a backslash path, inside a
cmd.exe / PowerShell string, or a PowerShell cmdlet's `Verb-Noun` spelling: `Get-ChildItem` run
bare, in a log that does not say its shell was PowerShell, is still the `get-childitem` of the
vocabulary's closed cmdlet list, data/plain.txt; a name outside that list stays unknown).
"""
from __future__ import annotations

import re

from redact.verbs.vocab import Vocabulary

_WIN_EXTS = (".exe", ".cmd", ".bat", ".ps1", ".com")
_VERSIONED = re.compile(r"(python|pip|pypy|pydoc|idle|ruby|gem|perl|php|node|lua|luajit|clang|gcc|g\+\+|"
                        r"clang\+\+|llvm-config|clang-format|clang-tidy|lldb|go|java|tclsh|wish)"
                        r"-?\d+(\.\d+)*")
#: a cmdlet's spelling: one of PowerShell's approved verbs, a hyphen, a noun (ASCII only)
_CMDLET = re.compile(r"(?:Add|Clear|Compare|Compress|ConvertFrom|ConvertTo|Copy|Disable|Enable|Expand|Export|"
                     r"ForEach|Format|Get|Group|Import|Install|Invoke|Join|Measure|Move|New|Out|Pop|Push|Read|"
                     r"Receive|Remove|Rename|Resolve|Restart|Select|Set|Sort|Split|Start|Stop|Tee|Test|Update|"
                     r"Wait|Where|Write)-[A-Za-z][A-Za-z0-9]{0,40}", re.IGNORECASE)


def basename(word: str) -> str:
    """The last path segment, for both `/` and `\\` separators."""
    cut = max(word.rfind("/"), word.rfind("\\"))
    return word[cut + 1:] if cut >= 0 else word


def split_windows_ext(name: str) -> tuple[str, bool]:
    """`Tool.EXE` -> (`Tool`, True); names are left alone when nothing would remain."""
    if "." in name and name.isascii():
        low = name.lower()
        for ext in _WIN_EXTS:
            if low.endswith(ext) and len(name) > len(ext):
                return name[: -len(ext)], True
    return name, False


def hash_name(word: str) -> str:
    """The normalised name an unknown program is hashed under: basename without a Windows suffix."""
    return split_windows_ext(basename(word))[0]


def lookup(name: str, vocab: Vocabulary) -> str | None:
    """The vocabulary key for an exact spelling, through aliases and version suffixes."""
    if name in vocab.programs:
        return name
    target = vocab.aliases.get(name)
    if target is not None:
        return target
    match = _VERSIONED.fullmatch(name)
    if match is not None:
        base = match.group(1)
        return base if base in vocab.programs else vocab.aliases.get(base)
    return None


def program_key(word: str, vocab: Vocabulary, windows: bool = False) -> str | None:
    """The vocabulary key of a command word, or None when the program is not in the vocabulary."""
    name, had_ext = split_windows_ext(basename(word))
    if not name:
        return None
    found = lookup(name, vocab)
    if found is not None:
        return found
    if (had_ext or windows or "\\" in word or _CMDLET.fullmatch(name)) and name.isascii():
        low = name.lower()
        if low != name:
            return lookup(low, vocab)
    return None
