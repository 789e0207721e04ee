"""Loading policies: presets shipped in the `policies` package, files, `extends`, CLI overrides.

A policy is validated by the pydantic models of redact/policy/model.py, and a run reads it as plain
frozen objects (redact/policy/plain.py). The shipped presets and allowlists are validated once and
kept in the disk cache of shipped tables, so a run on a preset imports neither pydantic nor the
models (start-up: docs/performance.md); a policy file, or a preset with a flag's override, is
validated each time.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from redact.errors import PolicyError
from redact.policy.plain import Allowlist, Policy

_MAX_EXTENDS = 8


@cache
def _preset_dir() -> Any:
    import policies

    origin = Path(policies.__file__).parent
    if origin.is_dir():  # an installed or checked-out package: its folder (importlib.resources is
        return origin    # the slower way to the same files)
    from importlib import resources

    return resources.files("policies")


def list_presets() -> list[str]:
    return sorted(p.name[:-5] for p in _preset_dir().iterdir()
                  if p.name.endswith(".toml") and p.name != "allowlists.toml")


def _read_toml(name_or_path: str) -> tuple[dict[str, Any], str]:
    if name_or_path in list_presets():
        where = f"policies/{name_or_path}.toml"
        text = (_preset_dir() / f"{name_or_path}.toml").read_text(encoding="utf-8")
    else:
        path = Path(name_or_path)
        where = str(path)
        if not path.is_file():
            raise PolicyError(f"no such policy (presets: {', '.join(list_presets())})", where=where)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PolicyError(f"cannot read policy ({type(exc).__name__})", where=where) from None
    import tomllib

    try:
        return tomllib.loads(text), where
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"not valid TOML ({exc})", where=where) from None


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _resolve(name_or_path: str, depth: int = 0) -> tuple[dict[str, Any], str]:
    if depth > _MAX_EXTENDS:
        raise PolicyError("`extends` chain too long or circular", where=name_or_path)
    raw, where = _read_toml(name_or_path)
    parent = raw.get("extends")
    if parent is None:
        return raw, where
    if not isinstance(parent, str):
        raise PolicyError("`extends` must be a policy name or path", where=where)
    if not Path(parent).is_absolute() and parent not in list_presets() and where.endswith(".toml"):
        sibling = Path(where).parent / parent
        if sibling.is_file():
            parent = str(sibling)
    base, _ = _resolve(parent, depth + 1)
    merged = _merge(base, raw)
    if raw.get("publish") is False and base.get("publish"):  # never ignored: a publish policy stays one
        raise PolicyError(f"`publish = false` cannot loosen the publish policy it extends ({parent}); extend "
                          "`default` or `internal` instead, or drop the line", where=where)
    merged["publish"] = raw.get("publish", False) or base.get("publish", False)
    return merged, where


def _validate(raw: dict[str, Any], where: str) -> Policy:
    """`raw` checked by the policy model, as the plain policy a run reads."""
    from pydantic import ValidationError

    from redact.policy import model
    from redact.policy.plain import policy

    try:
        return policy(model.Policy.model_validate(raw).model_dump(mode="json"))
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "(top)"
        if err["type"] == "extra_forbidden":
            raise PolicyError(f"unknown key `{loc}`", where=where) from None
        raise PolicyError(f"`{loc}`: {err['msg']}", where=where) from None


def shipped_allowlists() -> dict[str, Allowlist]:
    """The shipped allowlists by category (a new dict each call: `load_policy` adds a policy's own)."""
    return dict(_shipped_allowlists())


def _shipped_allowlists() -> dict[str, Allowlist]:
    # shipped data, the same for every run of the process (a batch worker's sessions, a library
    # caller's inputs): read once; the Allowlists are frozen
    return _shipped()[1]


def _build_shipped() -> dict[str, Any]:
    """Every preset and the shipped allowlists, validated by the policy models, as their JSON dumps
    (the disk cache's entry: shipped source only, no argument)."""
    import tomllib

    from redact.policy import model

    presets = {}
    for name in list_presets():
        raw, where = _resolve(name)
        try:
            presets[name] = model.Policy.model_validate(raw).model_dump(mode="json")
        except ValueError:  # a shipped preset that does not validate: named when it is asked for
            continue
    data = tomllib.loads((_preset_dir() / "allowlists.toml").read_text(encoding="utf-8"))
    lists = {cat: model.Allowlist.model_validate(v).model_dump(mode="json") for cat, v in data.items()}
    return {"presets": presets, "allowlists": lists}


def _decode_shipped(data: dict[str, Any]) -> tuple[dict[str, Policy], dict[str, Allowlist]]:
    from redact.policy.plain import allowlist, policy

    presets = {str(name): policy(dump) for name, dump in data["presets"].items()}
    return presets, {str(cat): allowlist(dump) for cat, dump in data["allowlists"].items()}


@cache
def _shipped() -> tuple[dict[str, Policy], dict[str, Allowlist]]:
    from redact.io.cache import cached

    folder = _preset_dir()
    if not isinstance(folder, Path):  # presets that are no files on disk: nothing to key an entry by
        return _decode_shipped(_build_shipped())
    here = Path(__file__).resolve().parent
    sources = [here / "load.py", here / "model.py", here / "plain.py",
               *sorted(p for p in folder.iterdir() if p.name.endswith(".toml")),
               *(here.parent / "model" / name for name in ("fieldclass.py", "grammar.py", "values.py"))]
    return cached("policies", sources, _build_shipped, _decode_shipped)


@dataclass(frozen=True)
class EffectivePolicy:
    """A validated policy after `extends` and CLI overrides, with its shipped allowlists merged."""

    policy: Policy
    source: str
    allowlists: dict[str, Allowlist]

    @property
    def name(self) -> str:
        return self.policy.name

    def as_dict(self) -> dict[str, Any]:
        return self.policy.as_json()

    @cached_property
    def vocabulary(self) -> Any:
        """The verb vocabulary with the policy's extra programs, or None for the shipped one."""
        extra = self.policy.verbs.extra_programs
        if not extra:
            return None
        from redact.verbs import extend_vocabulary

        return extend_vocabulary(extra)

    def with_link_scope(self, link_scope: str | None) -> "EffectivePolicy":
        """This policy with `tokens.link_scope` set (None: unchanged); PolicyError on a bad scope."""
        if link_scope is None or link_scope == self.policy.tokens.link_scope:
            return self
        raw = _merge(self.as_dict(), {"tokens": {"link_scope": link_scope}})
        return EffectivePolicy(_validate(raw, "--link-scope"), self.source, self.allowlists)

    def keeps(self) -> list[str]:
        """What this policy lets leave in clear beyond the shipped default: kept text fields, identifier
        categories kept in clear, extra programs (names of settings, never a value)."""
        text = self.policy.text
        kept = [f"text.{name}" for name, on in (("keep_task_names", text.keep_task_names),
                                                ("keep_artifact_titles", text.keep_artifact_titles)) if on]
        from redact.model.fieldclass import IDENT_CATEGORIES

        kept += [f"identifiers.{cat}" for cat in IDENT_CATEGORIES if getattr(self.policy.identifiers, cat, None) == "keep"]
        if self.policy.verbs.extra_programs:
            kept.append("verbs.extra_programs")
        return kept

    def scan_options(self) -> dict[str, Any]:
        """The leak scanner's keywords matching this policy (`audit.scan.scan_map`): the text it keeps
        on purpose and its verb vocabulary."""
        vocab = self.vocabulary
        return {"keep_task_names": self.policy.text.keep_task_names,
                "keep_artifact_titles": self.policy.text.keep_artifact_titles,
                "verb_check": None if vocab is None else vocab.is_valid_verb}

    def hash(self) -> str:
        blob = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def load_policy(name_or_path: str = "default", *, mode: str | None = None,
                link_scope: str | None = None) -> EffectivePolicy:
    """The policy `name_or_path` (a preset or a TOML file) after `extends`, with the CLI's overrides:
    `mode` (paths.mode) and `link_scope` (tokens.link_scope)."""
    preset = None
    if mode is None and link_scope is None and name_or_path in list_presets():
        # validated when the cache entry was built; one that did not validate is not there, and is
        # validated below, its fault named as any policy's
        preset = _shipped()[0].get(name_or_path)
    if preset is not None:
        return _effective(preset, f"policies/{name_or_path}.toml")
    raw, where = _resolve(name_or_path)
    policy = _validate(raw, where)  # the policy's own faults name its file; a flag's, the flag
    if mode is not None:
        raw = _merge(raw, {"paths": {"mode": mode}})
        policy = _validate(raw, "--mode")
    if link_scope is not None:
        raw = _merge(raw, {"tokens": {"link_scope": link_scope}})
        policy = _validate(raw, "--link-scope")
    return _effective(policy, where)


def _effective(policy: Policy, where: str) -> EffectivePolicy:
    """`policy` with the shipped allowlists, its own added to them."""
    lists = shipped_allowlists()
    for category, extra in policy.allowlists.items():
        base = lists.get(category, Allowlist())
        lists[category] = Allowlist(values=base.values + extra.values,
                                    patterns=base.patterns + extra.patterns)
    return EffectivePolicy(policy, where, lists)
