"""Golden maps of this project's own Claude Code fixtures (`tests/golden/*.json`).

Regenerate only on purpose, after checking the change in the diff is intended:

    .venv/bin/python -m tests.formats.golden_cc

`session.cliVersion` is written as "<version>" so a version bump does not churn the files.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from redact.api import redact_file
from redact.keys.material import Key
from tests.formats import legacy_fixture, make_example

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
KEY = Key(bytes(range(32)), source="golden")

CASES: dict[str, tuple[Path, str]] = {
    "claude-code-example.default.json": (make_example.paths()[0], "default"),
    "claude-code-example.public.json": (make_example.paths()[0], "public"),
    "claude-code-example.public-global.json": (make_example.paths()[0], "public"),
    "claude-code-legacy.default.json": (legacy_fixture.DIR / f"{legacy_fixture.SESSION}.jsonl", "default"),
}


def produce(name: str) -> dict[str, Any]:
    path, policy = CASES[name]
    # `*.public-global.json`: public with `--link-scope global`, the tokens every map had before link
    # scopes (these files are byte for byte the public goldens made before them); `*.public.json`:
    # public's own scope, session
    scope = "global" if name.endswith(".public-global.json") else None
    m = redact_file(path, policy=policy, key=KEY if policy == "public" else None, link_scope=scope).session_map
    m["session"]["cliVersion"] = "<version>"
    return m


def render(m: dict[str, Any]) -> str:
    return json.dumps(m, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    for name in CASES:
        (GOLDEN / name).write_text(render(produce(name)), encoding="utf-8")


if __name__ == "__main__":
    main()
