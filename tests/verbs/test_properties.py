"""Hypothesis-generated command lines: random programs, flags, quoted secrets, nesting, heredocs.

Properties: the engine never raises, every verb is in the closed vocabulary, a canary planted in any
value never reaches the result (also under a keyed hasher), and the same input gives the same result.
"""
from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from redact.verbs import clear_cache, default_vocabulary, extract, extract_argv, is_valid_verb
from redact.verbs.engine import analyze, analyze_argv

CANARY = "Zq9canaryXy"
BUDGET = settings(max_examples=200, deadline=None)

KNOWN = ["git", "gh", "npm", "pnpm", "yarn", "npx", "python", "python3", "pip", "uv", "cargo", "go", "make",
         "docker", "kubectl", "aws", "terraform", "pytest", "node", "ls", "cat", "grep", "sed", "curl",
         "mvn", "./gradlew", "dotnet", "rails", "mix", "bundle", "poetry", "bash", "sh", "sudo", "env",
         "timeout", "xargs", "find", "ssh", "watch", "eval", "cmd", "powershell", "cd", "export", "source",
         "time", "nice", "nohup", "exec", "command", "gcloud", "az", "helm", "brew", "apt-get"]
SUBWORDS = ["log", "status", "run", "test", "build", "install", "exec", "get", "pr", "view", "create",
            "compose", "up", "s3", "ls", "plan", "-m", "-c", "-lc", "--", "-C", "-n", "run-script",
            "stash", "pop", "mod", "tidy", "db:migrate", "clean"]

word_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                    min_size=1, max_size=12)
secretish = st.sampled_from([f"{CANARY}", f"sk-live-{CANARY}", f"https://u:{CANARY}@host.example/x",
                             f"/Users/{CANARY}/proj", f"--token={CANARY}", f"{CANARY}.sh",
                             f"./{CANARY}", f"@{CANARY}/pkg", f"{CANARY}@1.0", f"{CANARY}:{CANARY}"])
programs = st.one_of(st.sampled_from(KNOWN), secretish,
                     st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,10}", fullmatch=True))


def quoted(value: str) -> str:
    return shlex.quote(value)


arguments = st.one_of(
    st.sampled_from(SUBWORDS),
    secretish,
    secretish.map(quoted),
    secretish.map(lambda s: f'"{s} $HOME"'),
    word_text.map(quoted),
    st.from_regex(r"-{1,2}[a-z][a-z-]{0,8}(=[a-z0-9]{1,6})?", fullmatch=True),
)


@st.composite
def simple_command(draw: st.DrawFn) -> str:
    parts: list[str] = []
    if draw(st.booleans()):
        parts.append(f"{CANARY}_VAR={draw(secretish.map(quoted))}")
    parts.append(draw(programs))
    parts.extend(draw(st.lists(arguments, max_size=5)))
    return " ".join(parts)


@st.composite
def command_line(draw: st.DrawFn, depth: int = 0) -> str:
    pieces = [draw(simple_command())]
    for _ in range(draw(st.integers(0, 3))):
        operator = draw(st.sampled_from([" && ", " || ", "; ", " | ", "\n", " & "]))
        pieces.append(operator)
        pieces.append(draw(simple_command()))
    line = "".join(pieces)
    if depth < 2:
        inner = draw(command_line(depth=depth + 1))
        shape = draw(st.integers(0, 9))
        if shape == 0:
            line = f"bash -c {quoted(inner)} && {line}"
        elif shape == 1:
            line = f"{line} $({inner})"
        elif shape == 2:
            line = f"( {inner} ) ; {line}"
        elif shape == 3:
            line = f"{{ {inner}; }} | {line}"
        elif shape == 4:
            line = f"cat <<'EOF'\n{inner}\n{CANARY}\nEOF\n{line}"
        elif shape == 5:
            line = f"bash <<'EOF'\n{inner}\nEOF"
        elif shape == 6:
            line = f"sudo -u {CANARY} env {CANARY}=1 timeout 5 {line}"
        elif shape == 7:
            line = f"if {inner}; then {line}; fi"
        elif shape == 8:
            line = f"eval {quoted(inner)}"
    return line


def _check(result: object) -> None:
    assert CANARY.lower() not in repr(result).lower()


@BUDGET
@given(command_line())
def test_generated_lines_stay_closed(line: str) -> None:
    vocab = default_vocabulary()
    found = analyze(line, vocab)  # strict: raises on a bug
    assert vocab.is_valid_verb(found.plain.verb)
    assert all(vocab.is_valid_verb(verb) for verb in found.plain.verbs)
    _check(found.plain)
    hashed = extract(line, hasher=lambda name: "abcdef0123")
    _check(hashed)
    assert is_valid_verb(hashed.verb)
    assert all(is_valid_verb(verb) for verb in hashed.verbs)


@BUDGET
@given(command_line())
def test_deterministic(line: str) -> None:
    first = extract(line)
    second = extract(line)
    clear_cache()
    third = extract(line)
    assert first == second == third


@BUDGET
@given(st.lists(st.one_of(st.sampled_from(KNOWN), st.sampled_from(SUBWORDS), secretish, word_text),
                max_size=8))
def test_generated_argv(argv: list[str]) -> None:
    vocab = default_vocabulary()
    found = analyze_argv(tuple(argv), vocab)
    assert vocab.is_valid_verb(found.plain.verb)
    assert all(vocab.is_valid_verb(verb) for verb in found.plain.verbs)
    _check(extract_argv(argv))


@BUDGET
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    result = extract(text)
    assert is_valid_verb(result.verb)
    assert all(is_valid_verb(verb) for verb in result.verbs)


@BUDGET
@given(st.text(min_size=1, max_size=40))
def test_is_valid_verb_rejects_text_outside_the_vocabulary(text: str) -> None:
    vocab = default_vocabulary()
    if is_valid_verb(text):
        assert text in vocab.verbs or text.startswith(("<", "mvn ", "gradle ", "sbt ")), text
