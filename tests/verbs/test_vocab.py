"""The shipped vocabulary and its extension hook (a policy's `[verbs] extra_programs`)."""
from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

from redact.verbs import (
    Vocabulary,
    VocabularyError,
    default_vocabulary,
    extend_vocabulary,
    extract,
    is_valid_verb,
)
from redact.verbs.resolve import GUARDS, HOOKS, RULES, SETUP
from tests.conftest import SHARED

PACKAGE = Path(__file__).resolve().parents[2] / "redact" / "verbs"


def test_rules_and_hooks_name_vocabulary_verbs() -> None:
    vocab = default_vocabulary()
    assert [name for name in RULES if name not in vocab.programs] == []
    assert [verb for verb in HOOKS if verb not in vocab.verbs] == []
    assert [name for name in SETUP | GUARDS if name not in vocab.programs] == []


def test_runtime_never_reads_shared() -> None:
    """The installed tool works without ../shared: no module names that folder."""
    for module in PACKAGE.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert '"shared"' not in text and "../shared" not in text and "corpus" not in text, module.name


def test_data_files_are_package_data() -> None:
    data = PACKAGE / "data"
    names = {path.name for path in data.iterdir()}
    assert {"plain.txt", "packages.toml", "subcommands.tsv"} <= names
    assert any(name.startswith("programs-") for name in names)
    pyproject = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = pyproject["tool"]["setuptools"]["package-data"]["*"]
    assert {"*.toml", "*.tsv", "*.txt"} <= set(shipped)


def test_subcommands_tsv_matches_its_generator() -> None:
    source = SHARED / "verbs" / "tldr_subcommands.tsv"
    if not source.is_file():
        pytest.skip("../shared/verbs is not present")
    path = PACKAGE.parents[1] / "bench" / "gen_verbs_vocab.py"
    spec = importlib.util.spec_from_file_location("gen_verbs_vocab", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows, _ = module.checked_rows(source)
    shipped = [line for line in (PACKAGE / "data" / "subcommands.tsv").read_text(encoding="utf-8")
               .splitlines() if line and not line.startswith("#")]
    assert shipped == rows


def test_aliases_and_normalisation() -> None:
    vocab = default_vocabulary()
    for alias in ("python3", "pip3", "gradlew", "mvnw", "py.test", "bazelisk", "VBoxManage"):
        assert alias in vocab.aliases
    assert extract("VBoxManage list vms").verb == "vboxmanage list"
    assert extract("vboxmanage list vms").verb == "vboxmanage list"


def test_extend_adds_private_programs() -> None:
    extra = extend_vocabulary({"mytool": ["deploy", "status", "db migrate"]})
    assert extract("mytool deploy --env prod", vocab=extra).verb == "mytool deploy"
    assert extract("mytool db migrate", vocab=extra).verb == "mytool db migrate"
    assert extract("mytool unknown-sub", vocab=extra).verb == "mytool"
    assert extract("./bin/mytool status", vocab=extra).verb == "mytool status"
    assert extra.is_valid_verb("mytool deploy")
    assert is_valid_verb("mytool deploy", vocab=extra)
    # the default vocabulary is untouched
    assert extract("mytool deploy").verb == "<script>"
    assert not is_valid_verb("mytool deploy")
    assert "mytool" not in default_vocabulary().programs


def test_extend_adds_subcommands_to_known_programs() -> None:
    extra = default_vocabulary().extend({"git": ["acme-sync"], "make": ["deploy"]})
    assert extract("git acme-sync --all", vocab=extra).verb == "git acme-sync"
    assert extract("git log", vocab=extra).verb == "git log"
    assert extract("make deploy", vocab=extra).verb == "make deploy"
    assert extract("git acme-sync").verb == "git"


def test_policy_toml_shape() -> None:
    policy = tomllib.loads('[verbs]\nextra_programs = {"mytool" = ["deploy", "status"]}\n')
    extra = extend_vocabulary(policy["verbs"]["extra_programs"])
    assert isinstance(extra, Vocabulary)
    assert extract("mytool status", vocab=extra).verb == "mytool status"


@pytest.mark.parametrize("programs", [
    {"My Tool": ["x"]},
    {"MyTool": ["x"]},
    {"a/b": ["x"]},
    {"x=y": []},
    {"@corp/tool": []},
    {"tool": ["Deploy"]},
    {"tool": ["a:b"]},
    {"tool": [""]},
    {"tool": "deploy"},
    {"tool": [3]},
    {"-tool": []},
    {"<script>": []},
    {"tool": ["--flag"]},
])
def test_extend_refuses_names_outside_the_grammar(programs: dict[str, object]) -> None:
    with pytest.raises(VocabularyError):
        extend_vocabulary(programs)  # type: ignore[arg-type]


def test_extension_cache_is_separate() -> None:
    extra = extend_vocabulary({"acmectl": ["up"]})
    assert extract("acmectl up", vocab=extra).verb == "acmectl up"
    assert extract("acmectl up").verb == "<script>"
    assert extract("acmectl up", vocab=extra).verb == "acmectl up"
