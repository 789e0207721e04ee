"""Read-only file commands (redact/verbs/files.py): which lines read or search files, and which of
their words are paths. A pattern, a sed script or an option value is never an operand."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from redact.verbs import extract, extract_argv, is_valid_verb, operands


@pytest.mark.parametrize("line, touch, files", [
    ("sed -n '1,80p' src/app.py", "read", [("read", "src/app.py")]),
    ("nl -ba src/main.rs | sed -n '40,120p'", "read", [("read", "src/main.rs")]),
    ("cat a.py b.md | head -5", "read", [("read", "a.py"), ("read", "b.md")]),
    ("head -n 40 README.md", "read", [("read", "README.md")]),
    ("tail -20 logs/app.log 2>/dev/null", "read", [("read", "logs/app.log")]),
    ("wc -l src/a.ts src/b.ts", "read", [("read", "src/a.ts"), ("read", "src/b.ts")]),
    ("cd web && sed -n 1,40p src/page.tsx", "read", [("read", "web/src/page.tsx")]),
    ("sed -n '1,220p' 'app/api/trips/[id]/route.ts'", "read", [("read", "app/api/trips/[id]/route.ts")]),
    ("rg -n 'deprecated|unsafe' src/lib.rs docs", "search", [("search", "src/lib.rs"), ("search", "docs")]),
    ("rg -e needle -g '*.py' -- src", "search", [("search", "src")]),
    ("rg --files src", "search", [("search", "src")]),
    ("grep -rn --include=*.py needle app tests", "search", [("search", "app"), ("search", "tests")]),
    ("rg needle", "search", []),
    ("ls -la src", "search", [("search", "src")]),
    ("find src tests -name '*.py' -type f", "search", [("search", "src"), ("search", "tests")]),
    ("bash -lc \"sed -n '1,20p' a.rs\"", "read", [("read", "a.rs")]),
    ("sort -k2 data.csv | uniq -c", "read", [("read", "data.csv")]),
    ("rg -n x src | sort | uniq -c", "search", [("search", "src")]),
])
def test_read_only_lines(line: str, touch: str, files: list[tuple[str, str]]) -> None:
    assert extract(line).touch == touch
    assert list(operands(line)) == files


@pytest.mark.parametrize("line", [
    "cat a.py > b.py",  # an output redirect writes
    "cat >> notes.md <<'EOF'\nx\nEOF",
    "sed -i 's/a/b/' x.py",  # in place
    "sed -i.bak 's/a/b/' x.py",
    "sed -ni 'p' x.py",
    "sort -o sorted.txt data.txt",
    "uniq in.txt out.txt",  # uniq's second operand is its output
    "source env.sh; cat a.txt",  # a sourced script runs anything
    "find . -name '*.pyc' -delete",
    "find . -name x -exec rm {} +",
    "cat x.txt && rm y.txt",
    "cat x | tee y",
    "python - <<'EOF'\nprint(1)\nEOF",
    "npm test",
    "cat",  # stdin only: nothing read from a file
])
def test_lines_that_write_or_run_are_not_reads(line: str) -> None:
    assert extract(line).touch is None
    assert operands(line) == ()


def test_patterns_and_scripts_are_never_operands() -> None:
    assert operands("rg 'acme payroll' src/pay.py") == (("search", "src/pay.py"),)
    assert operands("grep -e 'acme payroll' -f pats.txt main.c") == (("search", "main.c"),)
    assert operands("sed -n '/acme payroll/p' notes.txt") == (("read", "notes.txt"),)
    assert operands("sed -e 's/x/y/' -e 's/a/b/' in.txt") == (("read", "in.txt"),)


def test_dynamic_globbed_and_device_words_are_skipped() -> None:
    assert operands("cat $FILE *.md /dev/null - https://x.io/a.txt real.txt") == (("read", "real.txt"),)
    assert extract("cd - && cat a.txt").touch == "read"
    assert operands("cd - && cat a.txt") == ()  # the base is unknown after `cd -`


def test_argv_arrays_too() -> None:
    assert extract_argv(["bash", "-lc", "cat src/x.go"]).touch == "read"
    assert operands(("bash", "-lc", "cat src/x.go")) == (("read", "src/x.go"),)
    assert operands(("sed", "-n", "1,5p", "a.txt")) == (("read", "a.txt"),)


_WORD = st.text(alphabet=st.characters(codec="ascii", exclude_characters="\0"), min_size=1, max_size=12)


@given(st.sampled_from(["cat", "rg", "grep", "sed -n", "head -n 3", "ls", "find", "nl -ba"]),
       st.lists(_WORD, max_size=5))
def test_operands_are_words_of_the_line_and_the_verb_stays_closed(prog: str, words: list[str]) -> None:
    import shlex

    line = prog + " " + " ".join(shlex.quote(w) for w in words)
    result = extract(line)
    assert is_valid_verb(result.verb)
    for _, path in operands(line):
        assert path in words  # an operand is one word of the line as written, never a made-up path
