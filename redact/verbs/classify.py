"""Classification that reads values without emitting them: script names and VCS actions.

`npm run test:unit` is emitted as `npm run`, but the script name says it is a test run. The name is
split into lower-case tokens and matched against a short table; only the resulting kind
(`test`, `build`, `lint`, `typecheck`) leaves this module. For git, gh and glab the `vcs` object is
built from vocabulary words alone, plus a number only when the word right after `gh pr view` is
pure ASCII digits.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_TOKEN = re.compile(r"[a-z0-9]+")

_TYPECHECK = frozenset({"type", "types", "typecheck", "typing", "typings", "tsc", "mypy", "pyright",
                        "typescript", "dialyzer", "flow", "pyre", "pytype"})
_SCRIPT_WORDS: dict[str, str] = {
    **dict.fromkeys(("test", "tests", "spec", "specs", "e2e", "unit", "integration", "coverage",
                     "cov", "jest", "vitest", "mocha", "pytest", "playwright", "cypress", "ava",
                     "karma", "tap", "rspec", "phpunit", "unittest", "nextest"), "test"),
    **dict.fromkeys(("lint", "lints", "linter", "eslint", "format", "fmt", "prettier", "stylelint",
                     "ruff", "clippy", "vet", "style", "flake8", "pylint", "biome", "oxlint",
                     "check", "validate", "credo", "rubocop", "shellcheck", "markdownlint"), "lint"),
    **dict.fromkeys(("build", "compile", "dist", "bundle", "webpack", "rollup", "esbuild"), "build"),
}
#: Task runners where `check` conventionally runs the test suite (GNU `make check`).
_CHECK_IS_TEST = frozenset({"make", "gmake", "just", "task", "tox", "nox", "mise run", "gradle"})


def classify_script(name: str, verb: str = "") -> str | None:
    """The verification kind a project script or target name suggests, or None."""
    if not name or len(name) > 200:
        return None
    tokens = _TOKEN.findall(name.lower())
    kind: str | None = None
    for token in tokens:
        if token in _TYPECHECK:
            return "typecheck"
        if kind is None:
            found = _SCRIPT_WORDS.get(token)
            if found is not None:
                kind = "test" if token == "check" and verb in _CHECK_IS_TEST else found
    return kind


_PROVIDERS = {"git": "git", "gh": "github", "glab": "gitlab"}
_ACTION_WORD = re.compile(r"[a-z][a-z0-9-]*")
_CREATE_NOUNS = frozenset({"pr", "mr"})


def is_vcs_action(action: object, verb_ok: Callable[[str], bool]) -> bool:
    """Whether `action` is one `vcs_action` can make from a verb `verb_ok` accepts (`commit` from
    `git commit`, `pr_create_attempt` from `gh pr create`): a map's `vcs.action` is then a closed
    vocabulary, not any lower-case words (`acme_payroll_merger` passed the shape alone). The seed's
    `pr_create_failed` (an attempt that errored, redact/build/events.py) is one too."""
    if not isinstance(action, str) or not action or len(action) > 100:
        return False
    words = action.split("_")
    if words[-1] in ("attempt", "failed"):
        words = words[:-1]
        if not (len(words) == 2 and words[0] in _CREATE_NOUNS and words[1] == "create"):
            return False
    if not all(_ACTION_WORD.fullmatch(w) for w in words):
        return False
    if len(words) == 1 and verb_ok(f"git {words[0]}"):
        return True
    return any(verb_ok(f"{program} {' '.join(words)}") for program in ("gh", "glab"))


def vcs_action(program: str, verb: str, words: Sequence[str], after: int
               ) -> tuple[str, str, int | None] | None:
    """(provider, action, number) for git/gh/glab verbs; None for anything else."""
    provider = _PROVIDERS.get(program)
    if provider is None:
        return None
    parts = verb.split(" ")[1:]
    if not parts:
        return None
    if provider == "git":
        parts = parts[:1]
    for part in parts:
        if _ACTION_WORD.fullmatch(part) is None:
            return None
    action = "_".join(parts)
    number: int | None = None
    if provider != "git":
        if len(parts) == 2 and parts[0] in _CREATE_NOUNS and parts[1] == "create":
            action += "_attempt"
        if len(parts) == 2 and after < len(words):
            word = words[after]
            if type(word) is str and word.isascii() and word.isdigit() and len(word) <= 12:
                number = int(word)
    return provider, action, number
