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


# -- issue 23, item 2: an option value is never read as a path, and an unknown option fails closed ----
@pytest.mark.parametrize("line, files", [
    ("grep -rn --exclude-dir node_modules process.env.STRIPE_KEY .", [("search", ".")]),
    ("grep -rn --include '*.py' process.env.STRIPE_KEY src", [("search", "src")]),
    ("grep --exclude '*.min.js' zqsecret src", [("search", "src")]),
    ("grep --exclude-from skip.txt zqsecret src", [("search", "src")]),
    ("grep --group-separator zqsep zqsecret src", [("search", "src")]),
    ("rg --color never zqsecret src", [("search", "src")]),
    ("rg --hyperlink-format vscode zqsecret src", [("search", "src")]),
    ("rg --field-context-separator zqsep zqsecret src", [("search", "src")]),
    ("less -p zqsecret notes.txt", [("read", "notes.txt")]),
    ("less +/zqsecret notes.txt", [("read", "notes.txt")]),
    ("bat --file-name zqsecret.txt notes.txt", [("read", "notes.txt")]),
    ("tree -T zqtitle -H zqbase src", [("search", "src")]),
    ("cat 0<zqinput.txt", []),
    ("find src -name '*.py' -exec cat {} \\;", [("search", "src")]),
    ("find src -exec grep -l zqsecret {} +", [("search", "src")]),
    ("head -20 a.txt", [("read", "a.txt")]),
    ("grep -rnA3 zqsecret src", [("search", "src")]),
])
def test_an_option_value_is_never_a_path(line: str, files: list[tuple[str, str]]) -> None:
    assert list(operands(line)) == files


@pytest.mark.parametrize("line", [
    "grep --zq-unknown zqvalue zqsecret src",
    "grep -rnQ9 zqvalue zqsecret src",  # an unknown letter in a cluster
    "rg --zq-unknown zqvalue zqsecret src",
    "cat --zq-unknown zqvalue",
    "ls --zq-unknown zqvalue",
    "sed --zq-unknown zqvalue 's/a/b/' zqfile",
])
def test_after_an_unknown_option_no_operand_is_kept(line: str) -> None:
    """Fail closed: the table cannot say whether the unknown option takes a value, so nothing after
    it is a path (a missing entry costs fidelity, never a leak)."""
    assert not [p for _, p in operands(line) if p.startswith("zq")]


def test_an_unknown_powershell_parameter_fails_closed() -> None:
    assert operands(("powershell", "-Command", "Get-Content -ZqUnknown zqsecret a.txt")) == ()
    assert operands(("powershell", "-Command", "Select-String -ZqUnknown zqv zqsecret a.txt")) == ()
    # a unique prefix is the parameter PowerShell binds
    assert operands(("powershell", "-Command", "Get-Content -Tot 5 a.txt")) == (("read", "a.txt"),)


def test_an_unknown_option_after_a_path_keeps_the_path_before_it() -> None:
    assert operands("cat a.txt --zq-unknown zqvalue") == (("read", "a.txt"),)


def test_writes_after_an_unknown_option_still_count() -> None:
    assert extract("sed --zq-unknown x -i 's/a/b/' f.txt").touch is None


_OPTION = st.from_regex(r"--?[a-zA-Z][a-zA-Z-]{0,10}", fullmatch=True)


@given(st.sampled_from(["cat", "rg", "grep", "sed -n 1p", "head", "tail", "ls", "less", "bat", "tree", "wc",
                        "sort", "nl", "fd", "uniq"]),
       _OPTION, st.lists(st.from_regex(r"zq[a-z]{3,8}", fullmatch=True), min_size=1, max_size=4))
def test_no_word_after_an_option_is_a_path_unless_the_table_knows_the_option(
        prog: str, option: str, words: list[str]) -> None:
    """The property behind item 2: a word after an option is kept as a path only when the table says
    what that option is (a flag, or an option whose value is the next word)."""
    from redact.verbs.files import RULES, _read_option

    line = f"{prog} {option} {' '.join(words)}"
    rule = RULES[prog.split()[0]]
    kept = [p for _, p in operands(line)]
    if _read_option(rule, [option, *words], 0) is None:
        assert not [p for p in kept if p in words]
    else:
        assert all(p in words for p in kept)


def test_a_search_pattern_never_becomes_a_map_file() -> None:
    """End to end: the map is written, and the pattern after `--exclude-dir VALUE` is no file."""
    from redact.api import redact_bytes
    from tests.formats.ccfix import Transcript, text, tool_use

    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "/home/zqdev/code/shop", branch="main")
    t.user("where is the key read")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Bash", {"command": "grep -rn --exclude-dir node_modules "
                                                   "process.env.ZQSTRIPE_KEY ."})])
    t.result(tid, "src/pay.ts:3: x")
    t.assistant([text("done")], stop="end_turn")
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    assert result.session_map["events"]
    assert b"ZQSTRIPE" not in result.data
