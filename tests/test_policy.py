from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from redact.errors import PolicyError
from redact.policy import list_presets, load_policy


def test_presets_are_shipped() -> None:
    assert {"default", "public", "internal"} <= set(list_presets())


def test_public_requires_hashed_and_hashes_identifiers() -> None:
    pol = load_policy("public").policy
    assert pol.paths.mode == "hashed" and pol.paths.require_hashed
    assert pol.identifiers.repo == "hash" and not pol.text.keep_task_names


def test_unknown_key_is_an_error_naming_key_and_file(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('name = "x"\n[paths]\nmode = "relative"\nmdoe = "hashed"\n')
    with pytest.raises(PolicyError) as info:
        load_policy(str(path))
    assert "paths.mdoe" in info.value.diagnostic() and str(path) in info.value.diagnostic()


def test_extends_merges_and_child_wins(tmp_path: Path) -> None:
    path = tmp_path / "team.toml"
    path.write_text('name = "team"\nextends = "default"\n[identifiers]\nrepo = "hash"\n')
    pol = load_policy(str(path)).policy
    assert pol.identifiers.repo == "hash" and pol.identifiers.model == "keep"


def test_extending_public_cannot_keep_text(tmp_path: Path) -> None:
    path = tmp_path / "leaky.toml"
    path.write_text('name = "leaky"\nextends = "public"\n[text]\nkeep_task_names = true\n')
    with pytest.raises(PolicyError, match="never keeps text"):
        load_policy(str(path))


def test_cli_mode_override_cannot_loosen_public() -> None:
    with pytest.raises(PolicyError):
        load_policy("public", mode="relative")
    assert load_policy("default", mode="hashed").policy.paths.mode == "hashed"


def test_circular_extends(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('name = "a"\nextends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('name = "b"\nextends = "a.toml"\n')
    with pytest.raises(PolicyError, match="circular"):
        load_policy(str(tmp_path / "a.toml"))


def test_policy_hash_changes_with_content() -> None:
    assert load_policy("default").hash() != load_policy("internal").hash()
    assert load_policy("default").hash() == load_policy("default").hash()


def test_policies_found_from_another_folder(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", "from redact.policy import list_presets; print(list_presets())"],
                         cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "public" in out.stdout


def test_public_allowlist_patterns_keep_no_free_words() -> None:
    """Under `public`, allowlisted identifiers stay in clear. The MCP tool list was once a pattern
    (`get_` + any words) and hook matchers any letters: `get_acme_payroll_layoffs` and
    `PreToolUse:AcmeGlobexMerger` were kept in clear. Both are now closed lists."""
    from redact.apply.identifiers import _Matcher
    from redact.policy.load import shipped_allowlists

    lists = shipped_allowlists()
    assert not lists["mcp_tool"].patterns
    mcp_tool, hook = _Matcher(lists["mcp_tool"]), _Matcher(lists["hook"])
    for name in ("get_acme_payroll_layoffs_for_bob", "search-acme-globex-merger", "browser_acme_plans"):
        assert not mcp_tool(name), name
    assert mcp_tool("browser_navigate") and mcp_tool("resolve-library-id")
    for name in ("PreToolUse:AcmeGlobexMerger", "PostToolUse:Bashful", "Stop:x"):
        assert not hook(name), name
    for name in ("PreToolUse:Bash", "PostToolUse:Edit", "SessionStart:startup", "Stop"):
        assert hook(name), name


def test_hook_matchers_are_tools_of_the_tool_list() -> None:
    import re

    from redact.policy.load import shipped_allowlists

    lists = shipped_allowlists()
    (pattern,) = lists["hook"].patterns
    matchers = set(re.search(r"\(\?::\(\?:([^)]*)\)\)", pattern).group(1).split("|"))  # type: ignore[union-attr]
    sources = {"startup", "resume", "clear", "compact", "manual", "auto"}
    assert matchers - sources <= set(lists["tool"].values)
