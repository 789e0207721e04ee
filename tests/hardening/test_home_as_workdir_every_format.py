"""A session run from a home folder, in every format: the user name never becomes a repository name,
and the home folder's contents never become repository paths (issue 13 item 1).

The readers of the formats added after that fix (Gemini CLI, Copilot, Cline, opencode, Cursor, Crush,
Aider, OpenHands, Amp, Continue) took the working directory or workspace as the repository root
whatever it was; with the working directory a home folder, `~/Documents/taxes.pdf` would have left
as a repository path. Each format's generated sessions (tests/formats/table_inputs.py) are rewritten
so that their project folder is the user's home itself (`/home/<u>/src/shop/app.js` becomes
`/home/<u>/app.js`), with a user name no field holds otherwise, and redacted under every policy.
"""
from __future__ import annotations

import re

import pytest

from redact.api import redact_bytes
from redact.errors import RedactError
from redact.keys.material import Key
from tests.formats.table_inputs import GENERATED

KEY = Key(bytes(range(3, 35)), source="test")
USER = "zquserqz"
# `/home/<u>/src/<repo>`, `c:/Users/<u>/dev/<repo>`, `C:\\Users\\<u>\\src\\<repo>` (JSON-escaped or not),
# `file:///c%3A/Users/<u>/dev/<repo>`: the project folder below a home, which becomes the home
_SEP = r"(?:/|\\\\|\\)"
_PROJECT = re.compile(rf"((?:home|Users){_SEP})\w+{_SEP}(?:src|dev|code){_SEP}\w+")


def _at_home(data: bytes) -> bytes:
    return _PROJECT.sub(lambda m: m.group(1) + USER, data.decode("utf-8")).encode("utf-8")


CASES = [(fmt, path.name, data) for fmt, build in sorted(GENERATED.items()) for path, data in build()
         if _PROJECT.search(data.decode("utf-8", "replace"))]


def test_every_format_with_a_project_folder_is_covered() -> None:
    covered = {fmt for fmt, _, _ in CASES}
    assert {"gemini-cli", "copilot-cli", "copilot-vscode", "cline", "opencode", "crush", "cursor",
            "continue-dev", "claude-code", "pi", "qwen-code"} <= covered, covered


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
@pytest.mark.parametrize(("fmt", "name", "data"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_a_home_folder_is_no_repository(fmt: str, name: str, data: bytes, policy: str) -> None:
    moved = _at_home(data)
    assert USER.encode() in moved
    try:
        result = redact_bytes(moved, name=name, policy=policy, key=KEY if policy == "public" else None,
                              input_format=fmt)
    except RedactError as exc:  # refused is not leaked, but say which
        pytest.fail(f"{fmt}: {exc.diagnostic() if hasattr(exc, 'diagnostic') else exc}")
    out = result.data.decode("utf-8")
    assert USER not in out
    assert USER not in str(result.report.as_dict())
    for repo in result.session_map.get("repos", []):
        assert repo.get("name") != USER
    # the home folder is no repository: nothing under it is a repository file (each is a bucket label)
    assert not result.session_map.get("files"), [f.get("path") for f in result.session_map["files"]][:5]
