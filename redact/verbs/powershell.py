"""The PowerShell side: parse a script with tree-sitter-powershell and walk it into commands.

Windows Codex sessions run PowerShell through `shell_command`, and any shell can call
`powershell -Command "..."`. Cmdlets are programs of the vocabulary (`get-content`, `select-string`,
... in data/plain.txt), matched case-insensitively; the standard aliases (`gc`, `sls`, `gci`, `ls`,
`cat`, `%`, ...) name their cmdlet through `ALIASES`, so the verb language stays closed. Parameters
(`-Path`, `-Raw`) are options, dropped as for any command; `$var = <pipeline>` and `@(...)` run their
commands like a statement; what runs inside `$(...)` is a substitution, inside a script block
(`ForEach-Object { ... }`) an inner command. A redirect to a file (`> out.txt`) writes.

A script tree-sitter cannot parse is rejected as a whole (the caller falls back), never guessed.
Without the grammar installed (`tree-sitter-powershell`), `available()` is False and callers keep
their older behaviour.
"""
from __future__ import annotations

import re
import threading
import time
from typing import Any

from redact.verbs import resolve
from redact.verbs.ctx import INNER, MAX_DEPTH, MAX_PARSES, SUBST, Ctx, dyn

_local = threading.local()
_LANGUAGE: Any = None
_MISSING = False

#: Standard PowerShell aliases -> the cmdlet (a vocabulary program) they run. Inside PowerShell,
#: `ls`, `cat`, `cd` are these cmdlets, not the Unix programs of the same name.
ALIASES: dict[str, str] = {
    **dict.fromkeys(("gc", "cat", "type"), "get-content"),
    **dict.fromkeys(("gci", "ls", "dir"), "get-childitem"),
    **dict.fromkeys(("cd", "sl", "chdir"), "set-location"),
    "pushd": "push-location", "popd": "pop-location",
    **dict.fromkeys(("pwd", "gl"), "get-location"),
    "sls": "select-string",
    **dict.fromkeys(("echo", "write"), "write-output"),
    **dict.fromkeys(("rm", "del", "ri", "rmdir", "rd", "erase"), "remove-item"),
    **dict.fromkeys(("cp", "copy", "cpi"), "copy-item"),
    **dict.fromkeys(("mv", "move", "mi"), "move-item"),
    **dict.fromkeys(("ren", "rni"), "rename-item"),
    "ni": "new-item", "gi": "get-item", "gp": "get-itemproperty", "sp": "set-itemproperty",
    "iwr": "invoke-webrequest", "irm": "invoke-restmethod", "iex": "invoke-expression",
    "icm": "invoke-command",
    **dict.fromkeys(("select",), "select-object"),
    **dict.fromkeys(("where", "?"), "where-object"),
    **dict.fromkeys(("foreach", "%"), "foreach-object"),
    "sort": "sort-object", "measure": "measure-object", "group": "group-object",
    "tee": "tee-object", "ft": "format-table", "fl": "format-list", "gm": "get-member",
    **dict.fromkeys(("ps", "gps"), "get-process"),
    **dict.fromkeys(("kill", "spps"), "stop-process"),
    **dict.fromkeys(("start", "saps"), "start-process"),
    "sleep": "start-sleep",
    **dict.fromkeys(("cls", "clear"), "clear-host"),
    "gcm": "get-command",
    **dict.fromkeys(("h", "history", "ghy"), "get-history"),
    "rvpa": "resolve-path", "sc": "set-content", "ac": "add-content", "gal": "get-alias",
    "sal": "set-alias", "nal": "new-alias", "gsv": "get-service", "gv": "get-variable",
    "sv": "set-variable", "gmo": "get-module", "ipmo": "import-module", "gjb": "get-job",
    "sajb": "start-job", "rcjb": "receive-job", "ogv": "out-host", "oh": "out-host",
    "diff": "compare-object", "compare": "compare-object", "epcsv": "export-csv", "ipcsv": "import-csv",
}


def available() -> bool:
    """Whether the PowerShell grammar is installed."""
    global _LANGUAGE, _MISSING
    if _LANGUAGE is None and not _MISSING:
        try:
            import tree_sitter_powershell
            from tree_sitter import Language
        except ImportError:
            _MISSING = True
            return False
        _LANGUAGE = Language(tree_sitter_powershell.language())
    return _LANGUAGE is not None


def _parser() -> Any:
    found = getattr(_local, "parser", None)
    if found is None:
        from tree_sitter import Parser

        found = _local.parser = Parser(_LANGUAGE)
    return found


BUDGETED_BYTES = 1024
PARSE_BUDGET_S = 0.5


def _root(source: bytes) -> Any:
    """The root node, or None on a syntax error or past the time budget (as parse.py does)."""
    parser = _parser()
    if len(source) <= BUDGETED_BYTES:
        root = parser.parse(source).root_node
    else:
        deadline = time.monotonic() + PARSE_BUDGET_S
        try:
            root = parser.parse(lambda offset, _point: source[offset:offset + 65536],
                                progress_callback=lambda *_: time.monotonic() > deadline).root_node
        except ValueError:
            parser.reset()
            return None
    return None if root.has_error else root


def parse_script(text: str, ctx: Ctx, level: int) -> bool:
    """Parse a PowerShell script and walk it at `level`; False when it cannot be followed."""
    if not available() or ctx.depth >= MAX_DEPTH or ctx.parses >= MAX_PARSES or ctx.out_of_time:
        return False
    from redact.verbs.parse import encode, masked

    ctx.parses += 1
    root = _root(masked(text))
    if root is None:
        return False
    before = ctx.windows
    previous = getattr(_local, "source", b"")
    _local.source = encode(text)
    ctx.windows = True
    ctx.depth += 1
    try:
        _walk(root, ctx, level)
    finally:
        ctx.depth -= 1
        ctx.windows = before
        _local.source = previous
    return True


# -- the walk -----------------------------------------------------------------------------------------
def _text(node: Any) -> str:
    source: bytes = _local.source
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace")


_NESTED = {"sub_expression": SUBST, "array_expression": SUBST, "parenthesized_expression": SUBST,
           "script_block_expression": INNER, "script_block": INNER}
_SKIP = frozenset({"comment", "variable", "generic_token", "command_parameter", "string_literal",
                   "verbatim_string_characters", "integer_literal", "real_literal"})


def _walk(node: Any, ctx: Ctx, level: int) -> None:
    kind = node.type
    if kind == "command":
        _command(node, ctx, level)
    elif kind in _SKIP:
        return
    else:
        for child in node.children:
            _walk(child, ctx, level)


_REDIRECT_TOKEN = re.compile(r"^(?:\d|\*)?>>?(.*)$")
_NULL = frozenset({"$null", "nul", "/dev/null", "&1", "&2"})


def _redirect_writes(target: str) -> bool:
    target = target.strip().strip("'\"")
    return bool(target) and target.lower() not in _NULL and not target.startswith("&")


def _word(node: Any, ctx: Ctx, level: int, later: list[tuple[Any, int]]) -> str | None:
    """The value of one command element (None when it is not a word: a separator, a redirect).
    Commands nested in it (`$(...)`, a script block) go to `later`, walked after the command."""
    kind = node.type
    if kind == "command_argument_sep" or not node.is_named:
        return None
    if kind == "redirection":
        name = next((c for c in node.children if c.type == "redirected_file_name"), None)
        if name is not None and _redirect_writes(_text(name)):
            ctx.writes = True
        return None
    if kind == "command_parameter":
        return _text(node).rstrip(":")
    if kind == "generic_token":
        raw = _text(node)
        m = _REDIRECT_TOKEN.match(raw)
        if m is not None and (raw[0] == ">" or raw[1] in ">"):  # `2>$null`, `>out.txt` as one token
            if _redirect_writes(m.group(1)):
                ctx.writes = True
            return None
        return dyn(raw, raw, node) if "$" in raw or "`" in raw else raw
    inner = node
    while inner.type in ("array_literal_expression", "unary_expression") and inner.named_child_count == 1:
        inner = inner.named_children[0]
    if inner.type == "string_literal" and inner.named_child_count == 1:
        part = inner.named_children[0]
        raw = _text(part)
        if part.type == "verbatim_string_characters" and len(raw) >= 2:
            return raw[1:-1].replace("''", "'")
        if part.type == "expandable_string_literal" and len(raw) >= 2 and "$" not in raw and "`" not in raw:
            return raw[1:-1]
    if inner.type in ("integer_literal", "decimal_integer_literal"):
        return _text(inner)
    nested = _NESTED.get(inner.type)
    for child in (inner,) if nested is not None else inner.children:
        later.append((child, max(level, _NESTED.get(child.type, SUBST))))
    raw = _text(node)
    return dyn(raw, raw, node)


def _command(node: Any, ctx: Ctx, level: int) -> None:
    words: list[str] = []
    later: list[tuple[Any, int]] = []
    for child in node.children:
        kind = child.type
        if kind == "command_name":
            name = _text(child)
            words.append(ALIASES.get(name.lower(), name) if name.isascii() else name)
        elif kind == "command_name_expr":  # & 'C:\tools\x.exe' or & $tool
            value = _word(child, ctx, level, later)
            words.append(value if value is not None else dyn(_text(child), _text(child), child))
        elif kind == "command_elements":
            for element in child.children:
                value = _word(element, ctx, level, later)
                if value is not None:
                    words.append(value)
        elif kind == "command_invokation_operator":
            continue
    if words:
        resolve.run(words, 0, ctx, level, None)
    for part, part_level in later:
        _walk(part, ctx, part_level)
