"""The public API: result shape, argv input, the keyed hasher, the cache, the closed-set check."""
from __future__ import annotations

import dataclasses

import pytest

from redact import verbs
from redact.verbs import (
    VERB_CATEGORIES,
    VerbResult,
    clear_cache,
    default_vocabulary,
    extract,
    extract_argv,
    is_valid_verb,
)


def test_result_is_frozen_and_slotted() -> None:
    result = extract("git log")
    assert isinstance(result, VerbResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.verb = "x"  # type: ignore[misc]
    assert not hasattr(result, "__dict__")


def test_categories() -> None:
    assert VERB_CATEGORIES == {"vcs", "test", "build", "package", "cloud", "http", "fs", "shell", "file",
                               "tool"}
    for command in ("git log", "pytest", "make", "npm i", "kubectl get pods", "curl x", "ls", "echo",
                    "cat f", "ollama list", "./x.sh"):
        assert extract(command).cat in VERB_CATEGORIES


def test_verify_kinds() -> None:
    assert verbs.VERIFY_KINDS == {"test", "build", "lint", "typecheck"}


def test_extract_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        extract(b"git log")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        extract_argv("git log")


@pytest.mark.parametrize(("argv", "verb", "all_verbs"), [
    (["bash", "-lc", "cd app && npm test"], "npm test", ("cd", "npm test")),
    (["bash", "-lc", "echo \"unterminated"], "<unparsed>", ()),
    (["zsh", "-c", "git status"], "git status", ("git status",)),
    (["/bin/bash", "-e", "-c", "make"], "make", ("make",)),
    (["git", "status", "--porcelain"], "git status", ("git status",)),
    (["git", "commit", "-m", "fix: secret ghp_x"], "git commit", ("git commit",)),
    (["rg", "-n", "password", "src/"], "rg", ("rg",)),
    (["./deploy-acme.sh"], "<script>", ("<script>",)),
    (["python3", "-m", "pytest"], "pytest", ("pytest",)),
    (["sudo", "apt-get", "update"], "apt-get update", ("apt-get update",)),
    (["bash", "scripts/x.sh"], "bash", ("bash",)),
    ([], "<empty>", ()),
])
def test_extract_argv(argv: list[str], verb: str, all_verbs: tuple[str, ...]) -> None:
    result = extract_argv(argv)
    assert result.verb == verb
    assert result.verbs == all_verbs


def test_extract_argv_with_non_strings_fails_closed() -> None:
    assert extract_argv(["git", 3]).verb == "<unparsed>"  # type: ignore[list-item]


def test_hasher_names_unknown_programs() -> None:
    seen: list[str] = []

    def hasher(name: str) -> str:
        seen.append(name)
        return "0123456789"

    result = extract("./scripts/Deploy-Acme.sh --prod && C:/tools/Private.exe x", hasher=hasher)
    assert result.verb == "<script:0123456789>"
    assert result.verbs == ("<script:0123456789>", "<script:0123456789>")
    assert seen == ["Deploy-Acme.sh", "Private"]  # basename, Windows suffix removed, case kept
    assert is_valid_verb(result.verb)


def test_hasher_is_not_called_for_known_programs() -> None:
    def hasher(name: str) -> str:
        raise AssertionError("called")

    assert extract("git log", hasher=hasher).verb == "git log"


@pytest.mark.parametrize("bad", ["ABCDEF0123", "0123", "0123456789a", "g123456789", 12345])
def test_hasher_output_is_checked(bad: object) -> None:
    with pytest.raises(ValueError, match="10 lower-case hex"):
        extract("./private-tool", hasher=lambda name: bad)  # type: ignore[arg-type,return-value]


def test_hasher_and_cache_do_not_mix() -> None:
    command = "./scripts/only-here.sh"
    assert extract(command).verb == "<script>"
    assert extract(command, hasher=lambda n: "aaaaaaaaaa").verb == "<script:aaaaaaaaaa>"
    assert extract(command, hasher=lambda n: "bbbbbbbbbb").verb == "<script:bbbbbbbbbb>"
    assert extract(command).verb == "<script>"


def test_vcs_dict_cannot_poison_the_cache() -> None:
    first = extract("gh pr view 42")
    assert first.vcs == {"provider": "github", "action": "pr_view", "number": 42}
    assert first.vcs is not None
    first.vcs["action"] = "tampered"
    assert extract("gh pr view 42").vcs == {"provider": "github", "action": "pr_view", "number": 42}


def test_cache_returns_equal_results() -> None:
    clear_cache()
    assert extract("npm run build") == extract("npm run build")


def test_long_commands_bypass_the_cache() -> None:
    script = "set -e\n" + "\n".join(f"echo step {k}" for k in range(2000)) + "\nmake test\n"
    result = extract(script)
    assert result.verb == "echo"
    assert len(result.verbs) == 256  # verbs per line are capped
    assert result.verify is None or result.verify == "test"


def test_deep_nesting_fails_closed() -> None:
    deep = "echo " + "$(" * 3000 + "ls" + ")" * 3000
    assert extract(deep).verb in ("<unparsed>", "echo")
    nested = "ls"
    for _ in range(12):
        nested = "bash -c " + repr(nested).replace("\\'", "'\"'\"'")
    result = extract(nested)
    assert is_valid_verb(result.verb)


@pytest.mark.parametrize("verb", [
    "git log", "git stash pop", "npm run", "pytest", "<script>", "<unparsed>", "<empty>",
    "<script:0123456789>", "mvn clean install", "mvn install clean", "gradle clean assembledebug",
    "gcloud beta run services list", "rails db migrate", "manage.py migrate", "http.server",
])
def test_is_valid_verb_accepts(verb: str) -> None:
    assert is_valid_verb(verb)


@pytest.mark.parametrize("verb", [
    "", " ", "git  log", " git log", "git log ", "GIT", "Git log", "git log --oneline", "git/log",
    "git\tlog", "<script:XYZ>", "<script:012345678>", "<script:0123456789 >", "<Script>", "<script",
    "npm run build", "mytool", "./deploy.sh", "git 42", "rails db:migrate", "pnpm run dev",
    "mvn", "mvn clean install deploy site", "mvn acme", "npm run\n", None, 42, ["git"],
])
def test_is_valid_verb_rejects(verb: object) -> None:
    if verb == "mvn":
        assert is_valid_verb(verb)  # the bare program is a verb
        return
    assert not is_valid_verb(verb)


def test_every_vocabulary_verb_is_well_formed() -> None:
    from redact.verbs.grammar import is_word

    vocab = default_vocabulary()
    assert len(vocab.verbs) > 5000
    for verb in vocab.verbs:
        words = verb.split(" ")
        assert all(is_word(word) for word in words), verb
        assert is_valid_verb(verb)
