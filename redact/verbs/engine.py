"""The engine: one command line in, one `VerbResult` out, with a cache for repeated commands.

The analysis (parse, resolve, classify) depends only on the command text and the vocabulary, so it is
cached under those two; the optional keyed hasher for unknown programs is applied afterwards, on
every call, so one cache serves every key and no key material is ever held in it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from redact.verbs import files as file_ops
from redact.verbs import hosts, parse, resolve, runners, shells, wrappers  # noqa: F401  (rules register)
from redact.verbs.ctx import INNER, TOP, Ctx, Hit
from redact.verbs.grammar import EMPTY, SCRIPT, UNPARSED, hashed_script
from redact.verbs.names import program_key
from redact.verbs.vocab import Vocabulary, default_vocabulary

Hasher = Callable[[str], str]

CACHE_SIZE = 65536
CACHE_MAX_CHARS = 4096  # longer commands (heredoc scripts) are analysed every time, not kept


@dataclass(frozen=True, slots=True)
class VerbResult:
    verb: str
    verbs: tuple[str, ...]
    cat: str
    verify: str | None
    vcs: dict[str, object] | None
    #: `read` or `search` when every command of the line only reads files (files.py), else None.
    #: The paths it names are not here (a result holds nothing from the command): see `operands`.
    touch: str | None = None


class Analysis:
    """A hash-free result: `None` in `verbs` stands for an unknown program named in `names`.

    Built once per distinct command and kept in the cache; treated as immutable (a plain slotted class
    rather than a frozen dataclass, because it is built on the hot path).
    """

    __slots__ = ("cat", "files", "main", "names", "plain", "special", "touch", "vcs", "verbs", "verify")

    def __init__(self, verbs: tuple[str | None, ...], names: tuple[str | None, ...], main: int, cat: str,
                 verify: str | None, vcs: tuple[str, str, int | None] | None, special: str | None,
                 plain: VerbResult, touch: str | None = None,
                 files: tuple[tuple[str, str], ...] = ()) -> None:
        self.verbs = verbs
        self.names = names
        self.main = main  # index into verbs; -1 for <empty>/<unparsed>
        self.cat = cat
        self.verify = verify
        self.vcs = vcs
        self.special = special  # UNPARSED / EMPTY
        self.plain = plain  # the result without a hasher, built once
        self.touch = touch
        self.files = files

    def result(self, hasher: Hasher | None) -> VerbResult:
        if hasher is None or None not in self.verbs:
            if self.vcs is None:
                return self.plain
            return VerbResult(self.plain.verb, self.plain.verbs, self.cat, self.verify, _vcs_dict(self.vcs),
                              self.touch)
        tokens: dict[str, str] = {}
        verbs: list[str] = []
        for verb, name in zip(self.verbs, self.names):
            if verb is None:
                assert name is not None
                token = tokens.get(name)
                if token is None:
                    token = tokens[name] = hashed_script(hasher(name))
                verbs.append(token)
            else:
                verbs.append(verb)
        return VerbResult(verbs[self.main], tuple(verbs), self.cat, self.verify,
                          _vcs_dict(self.vcs) if self.vcs is not None else None, self.touch)


def _vcs_dict(vcs: tuple[str, str, int | None]) -> dict[str, object]:
    out: dict[str, object] = {"provider": vcs[0], "action": vcs[1]}
    if vcs[2] is not None:
        out["number"] = vcs[2]
    return out


def _special(token: str) -> Analysis:
    return Analysis((), (), -1, "shell", None, None, token, VerbResult(token, (), "shell", None, None))


_UNPARSED = _special(UNPARSED)
_EMPTY = _special(EMPTY)


def _join(base: str, path: str) -> str:
    drive = len(path) > 2 and path[1] == ":" and path[2] in "/\\"
    if not base or drive or path.startswith(("/", "~", "\\")):
        return path
    return base.rstrip("/\\") + "/" + path


def file_touch(hits: Sequence[Hit], writes: bool) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """What a line does to files: `read`/`search` and the paths it names, when every command of it
    only reads (files.READ_ONLY, no write flag, no output redirect); (None, ()) otherwise. A `cd`
    of the line itself moves the base later relative operands are taken from."""
    if writes or not hits:
        return None, ()
    for hit in hits:
        if hit.verb is None or hit.writes or hit.verb not in file_ops.READ_ONLY:
            return None, ()
    touch: str | None = None
    found: list[tuple[str, str]] = []
    base = ""
    lost = False  # a `cd` to somewhere unknown (`cd`, `cd -`, `cd $X`): later operands are skipped
    for hit in hits:
        if hit.touch == file_ops.CD:
            if hit.level == TOP:
                if hit.files:
                    base = _join(base, hit.files[0])
                else:
                    lost = True
            continue
        if hit.touch is None or hit.level > INNER:
            continue
        if touch is None and hit.level == TOP and (hit.touch == file_ops.SEARCH or hit.files):
            touch = hit.touch
        if not lost:
            found.extend((hit.touch, _join(base, path)) for path in hit.files)
    if touch is None:
        return None, ()
    return touch, tuple(dict.fromkeys(found))


def summarize(hits: Sequence[Hit], writes: bool = False) -> Analysis:
    """Choose the main verb (rule 4) and classify the line from its hits."""
    if not hits:
        return _EMPTY
    main = -1
    best = 3  # the lowest set-up rank seen among commands of the line itself
    fallback = -1
    fallback_rank = 3
    verify: str | None = None
    top_vcs: tuple[str, str, int | None] | None = None
    verbs: list[str | None] = []
    names: list[str | None] = []
    shown: list[str] = []
    for k, hit in enumerate(hits):
        verb = hit.verb
        verbs.append(verb)
        if verb is None:
            names.append("".join([hit.name or ""]))  # a plain str, never a parser object
            shown.append(SCRIPT)
        else:
            names.append(None)
            shown.append(verb)
        rank = hit.setup
        if hit.level == TOP:
            if rank < best:
                best, main = rank, k
            if top_vcs is None:
                top_vcs = hit.vcs
        elif rank < fallback_rank:
            fallback_rank, fallback = rank, k
        if hit.level <= INNER and hit.verify is not None:
            verify = resolve._stronger(verify, hit.verify)
    if main < 0:
        main = max(fallback, 0)
    main_hit = hits[main]
    vcs = main_hit.vcs or top_vcs
    cat = main_hit.cat
    shown_t = tuple(shown)
    touch, touched = file_touch(hits, writes)
    plain = VerbResult(shown_t[main], shown_t, cat, verify, None, touch)
    return Analysis(tuple(verbs), tuple(names), main, cat, verify, vcs, None, plain, touch, touched)


def analyze(command: str, vocab: Vocabulary) -> Analysis:
    """Parse and resolve one command line; raises only on a bug (callers wrap it)."""
    if not command.strip():
        return _EMPTY
    parsed = parse.parse_tree(command)
    if parsed is None:
        return _UNPARSED
    ctx = Ctx(vocab)
    parse.walk_tree(parsed[0], parsed[1], ctx, TOP)
    return summarize(ctx.hits, ctx.writes)


def analyze_argv(argv: tuple[str, ...], vocab: Vocabulary) -> Analysis:
    if not argv:
        return _EMPTY
    script = shell_script(argv, vocab)
    if script is not None:
        return _cached(script, vocab) if len(script) <= CACHE_MAX_CHARS else _safe(script, vocab)
    ctx = Ctx(vocab)
    resolve.run(list(argv), 0, ctx, TOP, None)
    return summarize(ctx.hits, ctx.writes)


def shell_script(argv: Sequence[str], vocab: Vocabulary) -> str | None:
    """The script of `bash -lc SCRIPT` style argv (Codex), so it is treated like a command line."""
    if len(argv) < 3 or resolve.RULES.get(program_key(argv[0], vocab) or "") is not shells.shell:
        return None
    for k in range(1, len(argv) - 1):
        word = argv[k]
        if not word.startswith("-") or word.startswith("--"):
            return None
        if "c" in word[1:]:
            return argv[k + 1]
    return None


def _safe(command: str, vocab: Vocabulary) -> Analysis:
    try:
        return analyze(command, vocab)
    except Exception:  # noqa: BLE001  (fail closed: a bug or a pathological input is <unparsed>)
        return _UNPARSED


@lru_cache(maxsize=CACHE_SIZE)
def _cached(command: str, vocab: Vocabulary) -> Analysis:
    return _safe(command, vocab)


@lru_cache(maxsize=CACHE_SIZE // 4)
def _cached_argv(argv: tuple[str, ...], vocab: Vocabulary) -> Analysis:
    try:
        return analyze_argv(argv, vocab)
    except Exception:  # noqa: BLE001  (fail closed, as in _safe)
        return _UNPARSED


def extract(command: str, *, hasher: Hasher | None = None, vocab: Vocabulary | None = None) -> VerbResult:
    if not isinstance(command, str):
        raise TypeError("extract() takes a command string")
    voc = vocab if vocab is not None else default_vocabulary()
    found = _cached(command, voc) if len(command) <= CACHE_MAX_CHARS else _safe(command, voc)
    return found.result(hasher)


def extract_argv(argv: Sequence[str], *, hasher: Hasher | None = None,
                 vocab: Vocabulary | None = None) -> VerbResult:
    if isinstance(argv, str):
        raise TypeError("extract_argv() takes a sequence of strings; use extract() for a line")
    words = tuple(argv)
    if not all(isinstance(word, str) for word in words):
        return _UNPARSED.plain
    voc = vocab if vocab is not None else default_vocabulary()
    if sum(len(word) for word in words) <= CACHE_MAX_CHARS:
        found = _cached_argv(words, voc)
    else:
        try:
            found = analyze_argv(words, voc)
        except Exception:  # noqa: BLE001  (fail closed, as in _safe)
            found = _UNPARSED
    return found.result(hasher)


def operands(command: str | Sequence[str], *, vocab: Vocabulary | None = None
             ) -> tuple[tuple[str, str], ...]:
    """(touch, raw path) of the files a read-only line names: `read` for a file it reads, `search`
    for an operand of a search or listing (files.py). Raw paths, for path placement only (the
    builder makes them repo-relative or a bucket label); () for any other line."""
    voc = vocab if vocab is not None else default_vocabulary()
    if isinstance(command, str):
        found = _cached(command, voc) if len(command) <= CACHE_MAX_CHARS else _safe(command, voc)
    else:
        words = tuple(command)
        if not all(isinstance(word, str) for word in words):
            return ()
        if sum(len(word) for word in words) <= CACHE_MAX_CHARS:
            found = _cached_argv(words, voc)
        else:
            try:
                found = analyze_argv(words, voc)
            except Exception:  # noqa: BLE001  (fail closed, as in _safe)
                return ()
    return found.files


def unknown_programs(command: str | Sequence[str], *, vocab: Vocabulary | None = None) -> tuple[str, ...]:
    """The programs of a line that are outside the vocabulary, as the line names them (each one's
    normalised name, before it becomes `<script>`): what tells two different scripts apart, for the
    builder's retry signature only (never written). () when every program is known."""
    voc = vocab if vocab is not None else default_vocabulary()
    if isinstance(command, str):
        found = _cached(command, voc) if len(command) <= CACHE_MAX_CHARS else _safe(command, voc)
    else:
        words = tuple(command)
        if not all(isinstance(word, str) for word in words) or sum(len(w) for w in words) > CACHE_MAX_CHARS:
            return ()
        found = _cached_argv(words, voc)
    return tuple(name for verb, name in zip(found.verbs, found.names) if verb is None and name is not None)


def is_valid_verb(verb: object, *, vocab: Vocabulary | None = None) -> bool:
    return (vocab if vocab is not None else default_vocabulary()).is_valid_verb(verb)


def clear_cache() -> None:
    _cached.cache_clear()
    _cached_argv.cache_clear()
