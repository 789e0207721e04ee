"""PowerShell (issue 15 item 9): cmdlets and their aliases are verbs of the closed vocabulary,
parameters are dropped, `$var = ...` and `@(...)` run their commands, reads and searches are
classified as for Unix commands. The grammar is tree-sitter-powershell (a project dependency)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from redact.verbs import default_vocabulary, extract, extract_argv, is_valid_verb, operands
from redact.verbs import powershell

assert powershell.available(), "tree-sitter-powershell is a dependency (pyproject.toml)"


def ps(script: str) -> tuple[str, ...]:
    return ("powershell", "-Command", script)


@pytest.mark.parametrize("script, verb, verbs", [
    ("Get-Content README.md", "get-content", ("get-content",)),
    ("gc .\\src\\app.ps1 -TotalCount 20", "get-content", ("get-content",)),
    ("GET-CHILDITEM -Recurse -Filter *.py src", "get-childitem", ("get-childitem",)),
    ("$files = Get-ChildItem src", "get-childitem", ("get-childitem",)),
    ("$f = @(gci); sls deprecated a.txt", "get-childitem", ("get-childitem", "select-string")),
    ("Set-Location C:\\repo; npm run build", "npm run", ("set-location", "npm run")),
    ("cd web; pytest -q", "pytest", ("set-location", "pytest")),
    ("if (Test-Path a.txt) { Remove-Item a.txt }", "remove-item", ("test-path", "remove-item")),
    ("New-Item -ItemType Directory -Force out | Out-Null", "new-item", ("new-item", "out-null")),
    ("Copy-Item a.txt b.txt; Move-Item b.txt c.txt", "copy-item", ("copy-item", "move-item")),
    ("echo done", "write-output", ("write-output",)),
    ("iwr https://example.com/x.zip -OutFile x.zip", "invoke-webrequest", ("invoke-webrequest",)),
    ("Write-Output $(git rev-parse HEAD)", "write-output", ("write-output", "git rev-parse")),
    ("& 'C:\\tools\\acme-deploy.exe' -Prod", "<script>", ("<script>",)),
])
def test_powershell_verbs(script: str, verb: str, verbs: tuple[str, ...]) -> None:
    result = extract_argv(ps(script))
    assert (result.verb, result.verbs) == (verb, verbs)


def test_powershell_inside_a_shell_line() -> None:
    assert extract('powershell -NoProfile -Command "Get-Content -Raw a.txt | Select-String deprecated"').verbs == \
        ("get-content", "select-string")
    assert extract("pwsh -c 'gci src'").verb == "get-childitem"


@pytest.mark.parametrize("script, touch, files", [
    ("Get-Content -Raw src\\app.ps1", "read", [("read", "src\\app.ps1")]),
    ("Get-Content -Path:src\\a.ps1 -Tail 5", "read", [("read", "src\\a.ps1")]),
    ("Get-Content -LiteralPath 'it''s.txt' | Select-Object -First 5", "read", [("read", "it's.txt")]),
    ("Set-Location src; cat main.ps1", "read", [("read", "src/main.ps1")]),
    ("Select-String -Pattern 'zebra payroll' -Path notes.md", "search", [("search", "notes.md")]),
    ("sls 'zebra payroll' notes.md", "search", [("search", "notes.md")]),
    ("Get-ChildItem -Recurse src *.ps1", "search", [("search", "src")]),
    ("if (Test-Path a.txt) { Get-Content a.txt }", "read", [("read", "a.txt")]),
    ("Get-Content a.txt 2>$null", "read", [("read", "a.txt")]),
])
def test_powershell_reads_and_searches(script: str, touch: str, files: list[tuple[str, str]]) -> None:
    assert extract_argv(ps(script)).touch == touch
    assert list(operands(ps(script))) == files


@pytest.mark.parametrize("script", [
    "Get-Content a.txt > b.txt",
    "Get-Content a.txt | Set-Content b.txt",
    "Get-Content a.txt | Out-File b.txt",
    "Get-Content $path",  # dynamic: read, but no operand
    "Remove-Item a.txt",
])
def test_powershell_writes_or_dynamic_operands(script: str) -> None:
    found = operands(ps(script))
    assert found == ()


def test_every_alias_names_a_vocabulary_cmdlet() -> None:
    vocab = default_vocabulary()
    for alias, cmdlet in powershell.ALIASES.items():
        assert cmdlet in vocab.programs, (alias, cmdlet)
        assert is_valid_verb(cmdlet)


# -- the grammar stays closed -------------------------------------------------------------------------
CANARY = "Zq9canaryXy"
_NAMES = sorted(set(powershell.ALIASES) | set(powershell.ALIASES.values()) | {"npm", "git", "python"})
_ARG = st.one_of(
    st.sampled_from(["-Path", "-Raw", "-Recurse", "-Filter", "-Pattern", "-Force", "-First"]),
    st.sampled_from([f"{CANARY}.txt", f"'{CANARY} x'", f'"{CANARY}"', f"${CANARY}", f"@({CANARY})",
                     f"$({CANARY} run)", f"{{ {CANARY} }}", "src\\a.ps1", "42", f"-{CANARY}"]),
)
_CMD = st.builds(lambda name, args: " ".join([name, *args]),
                 st.one_of(st.sampled_from(_NAMES), st.just(CANARY), st.just(f"./{CANARY}.ps1")),
                 st.lists(_ARG, max_size=4))
_STATEMENT = st.one_of(_CMD, st.builds(lambda c: f"${CANARY} = {c}", _CMD),
                       st.builds(lambda c: f"$x = @({c})", _CMD),
                       st.builds(lambda a, b: f"{a} | {b}", _CMD, _CMD),
                       st.builds(lambda a, b: f"if (Test-Path x) {{ {a} }} else {{ {b} }}", _CMD, _CMD))


@given(st.lists(_STATEMENT, min_size=1, max_size=4), st.sampled_from(["; ", "\n"]))
def test_powershell_verbs_stay_inside_the_grammar(statements: list[str], sep: str) -> None:
    script = sep.join(statements)
    result = extract_argv(ps(script))
    for verb in (result.verb, *result.verbs):
        assert is_valid_verb(verb), verb
        assert CANARY.lower() not in verb.lower()
    words = script.replace("'", " ").replace('"', " ").split()
    for _, path in operands(ps(script)):
        assert any(path in w for w in words) or path in script  # a path of the script, never made up
