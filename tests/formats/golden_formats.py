"""Golden maps of this project's own Codex, session-record, teaagent and Agent Replay fixtures
(`tests/golden/*.json`). Regenerate only on purpose, after checking the diff is intended:

    .venv/bin/python -m tests.formats.golden_formats

`session.cliVersion` is written as "<version>" so a version bump does not churn the files.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from redact.api import redact_file
from redact.keys.material import Key
from tests.formats import make_codex, make_seed_formats
from tests.formats.golden_cc import GOLDEN, render

KEY = Key(bytes(range(32)), source="golden")

CASES: dict[str, tuple[Path, str]] = {
    "codex-modern.default.json": (make_codex.MODERN, "default"),
    "codex-modern.public.json": (make_codex.MODERN, "public"),
    "codex-modern.public-global.json": (make_codex.MODERN, "public"),
    "codex-legacy.default.json": (make_codex.LEGACY, "default"),
    "codex-legacy-json.default.json": (make_codex.LEGACY_JSON, "default"),
    "session-record.default.json": (make_seed_formats.SR_MAIN, "default"),
    "session-record-summary.default.json": (make_seed_formats.SR_SUMMARY, "default"),
    "teaagent.default.json": (make_seed_formats.TEA_L3, "default"),
    "teaagent-l0.default.json": (make_seed_formats.TEA_L0, "default"),
    "agent-replay.default.json": (make_seed_formats.AR_TRACE, "default"),
    "agent-replay.public.json": (make_seed_formats.AR_TRACE, "public"),
    "agent-replay.public-global.json": (make_seed_formats.AR_TRACE, "public"),
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


def main() -> None:
    for name in CASES:
        (GOLDEN / name).write_text(render(produce(name)), encoding="utf-8")


if __name__ == "__main__":
    main()
