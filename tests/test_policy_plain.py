"""The plain policy a run reads (redact/policy/plain.py) against the pydantic model that validates it:
for every preset (read from the disk cache, as a run on a preset reads it, and built with the cache
off) and for policy files, every field, the JSON dump and the policy hash agree."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from redact.io import cache as disk
from redact.policy import list_presets, load
from redact.policy import model as pmodel
from redact.policy import plain


@pytest.fixture(autouse=True)
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test reads the shipped policies from its own cache folder, first built, then read back."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(disk.ENV_DISABLE, raising=False)
    load._shipped.cache_clear()
    yield
    load._shipped.cache_clear()


def _agree(model: Any, obj: Any, where: str) -> None:
    """Every field of the pydantic `model` equals the same field of the plain `obj`, recursively."""
    if isinstance(model, BaseModel):
        names = list(type(model).model_fields)
        assert list(obj._fields) == names, where  # the same fields, in the same order
        for name in names:
            _agree(getattr(model, name), getattr(obj, name), f"{where}.{name}")
    elif isinstance(model, dict):
        assert isinstance(obj, dict) and list(obj) == list(model), where
        for key in model:
            _agree(model[key], obj[key], f"{where}[{key}]")
    else:
        assert type(obj) is type(model) and obj == model, where


def _validated(name_or_path: str) -> pmodel.Policy:
    raw, _ = load._resolve(name_or_path)
    return pmodel.Policy.model_validate(raw)


def _plain_in_a_fresh_cache(name: str) -> tuple[Any, Any]:
    """The preset as a run reads it: once building the cache entry, once reading it back."""
    built = load.load_policy(name)
    load._shipped.cache_clear()
    read_back = load.load_policy(name)
    return built, read_back


@pytest.mark.parametrize("name", list_presets())
def test_every_preset_read_from_the_cache_is_the_validated_model(name: str, tmp_path: Path) -> None:
    built, read_back = _plain_in_a_fresh_cache(name)
    assert list((tmp_path / "xdg").rglob("policies-*.json"))  # the second load read the entry
    model = _validated(name)
    raw, where = load._resolve(name)
    through_the_model = load._effective(load._validate(raw, where), where)  # a policy file's way
    for eff in (built, read_back):
        assert eff.allowlists == through_the_model.allowlists
        assert isinstance(eff.policy, plain.Policy)
        _agree(model, eff.policy, name)
        assert eff.as_dict() == model.model_dump(mode="json")
        assert eff.source == f"policies/{name}.toml"
    assert built.hash() == read_back.hash()
    blob = json.dumps(model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    import hashlib

    assert read_back.hash() == hashlib.sha256(blob.encode()).hexdigest()


@pytest.mark.parametrize("name", list_presets())
def test_a_preset_is_the_same_with_the_cache_off(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    warm = load.load_policy(name)
    monkeypatch.setenv(disk.ENV_DISABLE, "1")
    load._shipped.cache_clear()
    off = load.load_policy(name)
    assert off.policy == warm.policy and off.allowlists == warm.allowlists and off.hash() == warm.hash()


def test_the_shipped_allowlists_are_the_validated_ones() -> None:
    import tomllib

    data = tomllib.loads((Path(load._preset_dir()) / "allowlists.toml").read_text(encoding="utf-8"))
    lists = load.shipped_allowlists()
    assert set(lists) == set(data)
    for cat, raw in data.items():
        _agree(pmodel.Allowlist.model_validate(raw), lists[cat], cat)


def test_a_policy_file_is_validated_and_read_as_the_model_says(tmp_path: Path) -> None:
    path = tmp_path / "team.toml"
    path.write_text('name = "team"\nextends = "default"\ndescription = "ours"\n[identifiers]\nrepo = "hash"\n'
                    '[allowlists.host]\nvalues = ["ci.example.org"]\npatterns = ["^build-[0-9]+$"]\n'
                    '[verbs.extra_programs]\ndeployctl = ["push", "status"]\n[ids]\naction = "hash"\n')
    eff = load.load_policy(str(path))
    model = _validated(str(path))
    _agree(model, eff.policy, "team")
    assert eff.as_dict() == model.model_dump(mode="json")
    shipped = load.shipped_allowlists().get("host", plain.Allowlist())
    assert eff.allowlists["host"].values == shipped.values + ("ci.example.org",)
    assert eff.allowlists["host"].patterns == shipped.patterns + ("^build-[0-9]+$",)
    assert eff.policy.verbs.extra_programs == {"deployctl": ("push", "status")}


def test_an_override_of_a_preset_is_validated(tmp_path: Path) -> None:
    """A flag's override goes through the model, not the cached preset."""
    eff = load.load_policy("default", mode="hashed", link_scope="session")
    assert eff.policy.paths.mode == "hashed" and eff.policy.tokens.link_scope == "session"
    assert eff.source == "policies/default.toml"
    with pytest.raises(load.PolicyError):
        load.load_policy("default", link_scope="dataset:")
    with pytest.raises(load.PolicyError):
        load.load_policy("public", mode="relative")


def test_a_cache_entry_of_another_shape_is_built_again(tmp_path: Path) -> None:
    load.load_policy("default")
    [entry] = list((tmp_path / "xdg").rglob("policies-*.json"))
    payload = json.loads(entry.read_bytes().partition(b"\n")[2])
    payload["presets"]["default"]["paths"]["surprise"] = True  # a field the plain class does not have
    body = json.dumps(payload).encode()
    import hashlib

    entry.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    load._shipped.cache_clear()
    eff = load.load_policy("default")
    _agree(_validated("default"), eff.policy, "default")
