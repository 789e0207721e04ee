"""Aider: the Markdown chat history's structured lines into a map; its text never kept; the input
and LLM histories (and credential files) skipped by name, never read."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from redact.api import redact_bytes, redact_file
from redact.cli import main
from redact.formats.detect import detect
from redact.errors import BadInput
from tests.formats.canary import KEY

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _words(slot: str) -> str:
    return f"words about {slot}"


def history(text: Callable[[str], str] = _words) -> str:
    """Two runs: 2 prompts (one of two lines, one sent by /ask), a /run and an accepted shell
    command, two applied edits (one in a whole-file reply), a commit, files added, 2 token lines."""
    t = text
    return f"""
# aider chat started at 2025-05-04 17:02:36

> /Users/dana/.pyenv/versions/3.12.7/bin/aider --model gpt-4o
> Aider v0.82.2  
> Main model: gpt-4o with diff edit format  
> Git repo: .git with 13 files  
> Added src/app.py to the chat.  

#### {t("prompt one line one")}  

#### {t("prompt one line two")}  

{t("reply prose")}

src/app.py
```python
<<<<<<< SEARCH
{t("search body")}
=======
{t("replace body")}
>>>>>>> REPLACE
```

> Tokens: 9.9k sent, 682 received. Cost: $0.02 message, $0.16 session.  
> Applied edit to src/app.py  
> Commit 1a2b3c4 {t("commit message")}  

#### /run pytest -q tests/{t("run arg").split()[0]}  
> {t("run output")}  
> Add command output to the chat? (Y)es/(N)o [Yes]: n  

# aider chat started at 2025-05-05 09:00:00

> Aider v0.83.1  
> Model: claude-3-5-sonnet-20240620 with diff edit format  

#### /ask {t("asked question")}  

#### {t("asked question")}  

{t("answer prose")}

> Tokens: 1,200 sent, 1,000 cache write, 300 cache hit, 45 received.  
> Applied edit to If you're using **npm** run this  
> npm install {t("npm arg").split()[0]}
> Run shell command? [Y/n] y  
> Running npm install  
"""


WANT = {"user": 2, "llm": 2, "edits": 1, "shell": 3, "read": 1, "in": 9900 + 1200, "out": 682 + 45}


def test_the_structured_lines_become_a_map(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(history())
    assert detect(path.read_bytes(), "x") == "aider"
    result = redact_file(path)
    m = result.session_map
    kinds = Counter(e["kind"] for e in m["events"])
    assert m["session"]["agentTool"] == "aider"
    assert set(m["session"]["models"]) == {"gpt-4o", "claude-3-5-sonnet-20240620"}
    assert kinds["user"] == WANT["user"] and kinds["llm"] == WANT["llm"]
    assert kinds["edit"] == WANT["edits"]  # the sentence after "Applied edit to" is no file
    shells = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert sorted(e["verb"] for e in shells) == ["git commit", "npm install", "pytest"]
    assert len(shells) == WANT["shell"] and not any(e.get("err") for e in shells)
    assert kinds["read"] == WANT["read"]
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e.get("in", 0) for e in llm) == WANT["in"] and sum(e.get("out", 0) for e in llm) == WANT["out"]
    assert llm[0].get("toolCalls") == 1  # one SEARCH/REPLACE block
    assert [e["sha"] for e in m["events"] if e["kind"] == "commit"] == ["1a2b3c4"]
    assert sorted(f["path"] for f in m["files"]) == ["src/app.py"]  # under the folder holding it


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(policy: str) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        value = f"zqcanary{len(seen)}qz more words"
        seen.append(value.split()[0])
        return value

    result = redact_bytes(history(text).encode(), name="h.md", policy=policy,
                          key=KEY if policy == "public" else None)
    out = result.data.decode() + str(result.report.as_dict())
    assert not [c for c in seen if c in out]


@pytest.mark.parametrize("name", [".aider.input.history", ".aider.llm.history", "auth.json",
                                  "mcp-auth.json", "oauth_creds.json", "secrets.json"])
def test_auxiliary_and_credential_files_are_never_read(tmp_path: Path, name: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text('{"token": "sk-planted"}\n')
    path.chmod(0)  # not even opened: a read would fail with permission denied
    with pytest.raises(BadInput, match="never read"):
        redact_file(path)
    (tmp_path / ".aider.chat.history.md").write_text(history())
    out = tmp_path / "out"
    assert main([str(tmp_path), "--out-dir", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{name}: skipped" in err and "sk-planted" not in err
    assert len(list(out.glob("*.json.gz"))) == 1
    path.chmod(0o600)


def test_reader_matches_only_the_grammars_of_its_table() -> None:
    """Aider's one table is its line table (`table.LINES`): every pattern or prefix the reader matches
    is the grammar of a row (or a sub-grammar a row names), so no line kind is read that the docs'
    table, rendered from the rows, does not show; and the reader compiles no grammar of its own."""
    import ast
    import re

    from redact.formats.aider import reader, table

    source = Path(reader.__file__).read_text(encoding="utf-8")
    used = {node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "T"}
    grammars = {id(line.grammar) for line in table.LINES} | {id(p) for line in table.LINES for p in line.parts}
    for name in used - {"HISTORY"}:  # the history file's name, not a line
        value = getattr(table, name)
        if isinstance(value, re.Pattern | str):
            assert id(value) in grammars, f"the reader matches table.{name}, which no row of LINES holds"
    assert "re.compile" not in source and "import re" not in source
    assert table.FIELDS == tuple((line.shown, line.cls, line.use) for line in table.LINES)
