"""The shell side: parse a command line with tree-sitter-bash and walk it into simple commands.

Each simple command becomes a list of words (quotes removed where the value is static, a `Dyn` where
it is not) and goes to the resolver, which turns words into verbs. The walk keeps the order of the
line, marks what runs inside `$(...)`, backticks and `<(...)` as substitutions, and hands a heredoc or
here-string to its command as stdin, so that `bash <<EOF` can parse its body as a script while
`cat <<EOF` and `python - <<EOF` keep theirs as data.

A line tree-sitter cannot parse (its `has_error`) is rejected as a whole: the caller emits
`<unparsed>`, never a guess.
"""
from __future__ import annotations

import re
import threading
import time

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from redact.verbs import resolve
from redact.verbs.ctx import MAX_DEPTH, MAX_PARSES, SUBST, Ctx, Dyn, dyn

LANGUAGE = Language(tree_sitter_bash.language())
_local = threading.local()


def parser() -> Parser:
    """One parser per thread (tree-sitter parsers are not shared across threads)."""
    found: Parser | None = getattr(_local, "parser", None)
    if found is None:
        found = _local.parser = Parser(LANGUAGE)
    return found


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# Same UTF-8 length as what they replace, so byte offsets stay valid against the original bytes.
_PLACEHOLDERS = {2: "\u00e9", 3: "\u4e2d", 4: "\U00010000"}


def _placeholder(match: re.Match[str]) -> str:
    return _PLACEHOLDERS[len(match.group().encode("utf-8", "surrogatepass"))]


def masked(text: str) -> bytes:
    """The bytes handed to tree-sitter: every non-ASCII character replaced by a placeholder.

    tree-sitter-bash 0.25 crashes the process (a segmentation fault, found by the hypothesis tests)
    on some characters outside the Basic Multilingual Plane, such as `{` followed by U+10E51B. Bash
    treats every non-ASCII character as an ordinary word character, so a placeholder of the same
    UTF-8 length parses the same way and keeps every byte offset; the walk reads word text from the
    original bytes, so no value changes, and no non-ASCII name can become an ASCII vocabulary word.
    """
    if text.isascii():
        return text.encode("ascii")
    return _NON_ASCII.sub(_placeholder, text).encode("utf-8")


_HEREDOC_START = re.compile(r"<<-?[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")

# tree-sitter-bash's error recovery is quadratic on some long unquoted runs (`a@a@...`, `))))`,
# `||||`): 12,000 characters take 1.5 s, 200 KB minutes, and a hostile log of such commands would
# never finish. Real commands parse fast (a 30 KB script in about 15 ms; a pipeline of 1,000 stages,
# quadratic too, in 65 ms), so a parse of a long line runs under a time budget far above that; past
# it the line is `<unparsed>`, which is also what the slow runs would have ended in (they are syntax
# errors; only a pipeline of thousands of stages is valid and cut). Short lines skip the
# budget: their worst case is milliseconds, and the callback costs a third more per parse.
BUDGETED_BYTES = 1024
PARSE_BUDGET_S = 0.5


class _OutOfTime(Exception):
    pass


def _parse(source: bytes) -> Node | None:
    """The root of `source`, or None when tree-sitter reports an error; _OutOfTime past the budget."""
    if len(source) <= BUDGETED_BYTES:
        root = parser().parse(source).root_node
    else:
        deadline = time.monotonic() + PARSE_BUDGET_S
        try:
            root = parser().parse(lambda offset, _point: source[offset:offset + 65536],
                                  progress_callback=lambda *_: time.monotonic() > deadline).root_node
        except ValueError:  # "Parsing failed": the callback cancelled it
            parser().reset()
            raise _OutOfTime from None
    return None if root.has_error else root


def parse_tree(text: str, ctx: Ctx | None = None) -> tuple[Node, bytes] | None:
    """The root node of `text` and the original bytes, or None when tree-sitter reports an error.

    Bash ends a here-document at end of input when its delimiter line is missing (with a warning);
    agents rely on it (`apply_patch <<'PATCH'` with no closing `PATCH`). tree-sitter calls that an
    error, so a line with an unterminated heredoc is parsed once more with the delimiter appended.

    A parse out of its time budget is None too, and sets `ctx.out_of_time`: the line's other nested
    scripts are then not parsed, so one line costs at most about one budget, not one per `bash -c`.
    """
    try:
        return _parse_tree(text)
    except _OutOfTime:
        if ctx is not None:
            ctx.out_of_time = True
        return None


def _parse_tree(text: str) -> tuple[Node, bytes] | None:
    shown = masked(text)
    root = _parse(shown)
    if root is not None:
        return root, (shown if text.isascii() else encode(text))
    if "<<" not in text:
        return None
    lines = {line.strip() for line in text.split("\n")}
    missing = [m.group(2) for m in _HEREDOC_START.finditer(text) if m.group(2) not in lines]
    if not missing:
        return None
    text = text + "\n" + "\n".join(reversed(missing)) + "\n"
    root = _parse(masked(text))
    return None if root is None else (root, encode(text))


def walk_tree(root: Node, source: bytes, ctx: Ctx, level: int) -> None:
    """Walk a parsed tree; word text is read from `source` (the original bytes) meanwhile."""
    previous: bytes = getattr(_local, "source", b"")
    _local.source = source
    try:
        walk(root, ctx, level)
    finally:
        _local.source = previous


def parse_script(text: str, ctx: Ctx, level: int) -> bool:
    """Parse a nested command string and walk it at `level`; False when it cannot be followed."""
    if ctx.depth >= MAX_DEPTH or ctx.parses >= MAX_PARSES or ctx.out_of_time:
        return False
    ctx.parses += 1
    parsed = parse_tree(text, ctx)
    if parsed is None:
        return False
    ctx.depth += 1
    try:
        walk_tree(parsed[0], parsed[1], ctx, level)
    finally:
        ctx.depth -= 1
    return True


# -- words --------------------------------------------------------------------------------------------
_ESC = re.compile(r"\\(\n|.)", re.DOTALL)
_DQ_ESC = re.compile(r"\\([$`\"\\\n])")
_ANSI = re.compile(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)", re.DOTALL)
_ANSI_MAP = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
             "f": "\f", "v": "\v"}


def _text(node: Node) -> str:
    source: bytes = _local.source
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _unescape(text: str) -> str:
    return _ESC.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


def _dq_unescape(text: str) -> str:
    return _DQ_ESC.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text) if "\\" in text else text


def _ansi_c(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] == "x":
            return chr(int(code[1:], 16))
        if code[0].isdigit():
            return chr(int(code, 8))
        return _ANSI_MAP.get(code, code)
    return _ANSI.sub(one, text)


_STATIC_STRING_PARTS = frozenset({'"', "string_content"})


def word_of(node: Node) -> str:
    """The shell value of one argument node: a plain `str` when static, else a `Dyn`."""
    kind = node.type
    if kind == "word" or kind == "number":
        text = _text(node)
        return _unescape(text) if "\\" in text else text
    if kind == "raw_string":
        return _text(node)[1:-1]
    if kind == "string":
        raw = _text(node)
        inner = _dq_unescape(raw[1:-1])
        for child in node.children:
            if child.type not in _STATIC_STRING_PARTS:
                return dyn(raw, inner, node)
        return inner
    if kind == "ansi_c_string":
        return _ansi_c(_text(node)[2:-1])
    if kind == "concatenation":
        parts = [word_of(child) for child in node.children]
        if any(type(part) is Dyn for part in parts):
            script = "".join(part.script if type(part) is Dyn else part for part in parts)
            return dyn(_text(node), script, node)
        return "".join(parts)
    raw = _text(node)
    return dyn(raw, raw, node)


# -- the walk -----------------------------------------------------------------------------------------
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
_DECLARATIONS = {"export": "export", "declare": "declare", "local": "local", "readonly": "readonly",
                 "typeset": "typeset"}
_SKIP = frozenset({"comment", "heredoc_start", "heredoc_end", "variable_name", "word", "string_content",
                   "raw_string", "number"})


def walk(node: Node, ctx: Ctx, level: int) -> None:
    kind = node.type
    if kind == "command":
        _command(node, ctx, level, None)
    elif kind == "redirected_statement":
        _redirected(node, ctx, level)
    elif kind in _SUBSTITUTIONS:
        for child in node.children:
            walk(child, ctx, SUBST)
    elif kind == "declaration_command" or kind == "unset_command":
        first = node.children[0].type if node.child_count else ""
        verb = "unset" if kind == "unset_command" else _DECLARATIONS.get(first, "declare")
        _builtin(verb, ctx, level)
        for child in node.children:
            walk(child, ctx, level)
    elif kind == "test_command":
        _builtin("test", ctx, level)
        for child in node.children:
            walk(child, ctx, level)
    elif kind in _SKIP:
        return
    else:
        for child in node.children:
            walk(child, ctx, level)


def _builtin(verb: str, ctx: Ctx, level: int) -> None:
    resolve.run([verb], 0, ctx, level, None)


def _command(node: Node, ctx: Ctx, level: int, stdin: str | None) -> bool:
    """Resolve one simple command; True when its stdin (heredoc, here-string) was run as a script."""
    words: list[str] = []
    later: list[tuple[Node, str | None]] = []  # parts that may hold a substitution, walked after
    source: bytes = _local.source
    for child in node.children:
        kind = child.type
        if kind == "word":  # the common case first
            text = source[child.start_byte:child.end_byte].decode("utf-8", "replace")
            words.append(_unescape(text) if "\\" in text else text)
        elif kind == "command_name":
            inner = child.child(0) or child
            word = word_of(inner)
            words.append(word)
            if type(word) is Dyn:
                later.append((inner, word))
        elif kind == "variable_assignment" or kind == "variable_assignments":
            later.append((child, None))
        elif kind in _REDIRECTS:
            if kind == "herestring_redirect":
                for part in child.children:
                    if part.is_named:
                        stdin = word_of(part)
                        later.append((child, stdin))
                        break
            else:
                later.append((child, None))
        elif kind == "comment":
            continue
        elif kind == "number" and source[child.end_byte:child.end_byte + 1] in (b"<", b">"):
            continue  # `cat 0<file`: the grammar reads the descriptor as an argument; it is none
        elif child.is_named:
            word = word_of(child)
            words.append(word)
            if type(word) is Dyn:
                later.append((child, word))
    ctx.stdin_used = False
    if words:
        resolve.run(words, 0, ctx, level, stdin)
    consumed_stdin = ctx.stdin_used
    ctx.stdin_used = False
    for part, value in later:
        if part.type == "herestring_redirect" and consumed_stdin:
            continue
        if type(value) is Dyn and value.consumed:
            continue
        walk(part, ctx, level)
    # a static word never holds a substitution, so nothing else needs a walk
    return consumed_stdin


_OUT = frozenset({">", ">>", "&>", "&>>", ">|", "<>"})


def _writes(redirect: Node) -> bool:
    """Whether a file redirect writes a file (`> out`, `>> log`; not `2>/dev/null`, `2>&1`, `< in`)."""
    writes = False
    for part in redirect.children:
        if not part.is_named:
            writes = part.type in _OUT
        elif writes and part.type != "file_descriptor":
            target = _text(part)
            return not (target.startswith("/dev/") or target.isdigit() or target == "-")
    return False


def _redirected(node: Node, ctx: Ctx, level: int) -> None:
    body: Node | None = None
    stdin: str | None = None
    redirects: list[Node] = []
    for child in node.children:
        kind = child.type
        if kind in _REDIRECTS:
            redirects.append(child)
            if kind == "file_redirect" and _writes(child):
                ctx.writes = True
            if kind == "heredoc_redirect":
                for part in child.children:
                    if part.type == "heredoc_body":
                        stdin = _text(part)
            elif kind == "herestring_redirect":
                for part in child.children:
                    if part.is_named:
                        stdin = word_of(part)
                        break
        elif body is None and child.is_named:
            body = child
    consumed = False
    if body is not None:
        if body.type == "command":
            consumed = _command(body, ctx, level, stdin)
        else:
            walk(body, ctx, level)
    for redirect in redirects:
        for part in redirect.children:
            if consumed and (part.type == "heredoc_body" or redirect.type == "herestring_redirect"):
                continue
            walk(part, ctx, level)
