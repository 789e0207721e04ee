"""One value of a session map under the policy: its JSON type checked, then reduced by its field
class (numbers and enums checked, timestamps normalised, ids and paths hashed or bucketed under the
path mode, identifiers scrubbed, verbs re-extracted, free text dropped unless the policy keeps it).

`LeafRedactor` holds what that needs for one map (policy, key, modes, caches); `redact/apply/walk.py`'s
`MapRedactor` walks the map's objects and events on top of it.
"""
from __future__ import annotations

import math
import re
from datetime import datetime, timezone
from collections.abc import Callable
from typing import Any

from redact.errors import BadInput
from redact.apply.identifiers import IdentScrubber
from redact.keys.material import Key, sha256_hex
from redact.model import grammar
from redact.model.fieldclass import Kind
from redact.model.table import Leaf
from redact.tables.names import shown
from redact.apply.pathguard import guard_path
from redact.apply.paths import apply_mode, bucket, clean_relative, hashed, is_absolute
from redact.policy.load import EffectivePolicy
from redact.keys.recorder import TokenRecorder, recording_hasher
from redact.report import RedactionReport
from redact.verbs import extract, is_valid_verb, is_vcs_action

DROP = object()  # a value that is not written (counted where it was dropped)
_STRUCTURAL_IDS = frozenset({"main"})
_STRUCTURAL_ID_RE = re.compile(r"r\d+|t\d+")  # repo and task ids the map model numbers itself
_JSON_TYPES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
# Integers a JavaScript reader holds exactly (2^53 - 1): beyond it a viewer would show, and hash, a
# different number than the one scanned, and a too-large integer cannot be serialized at all.
MAX_SAFE_INT = grammar.MAX_SAFE_INT


def pointer_pattern(ptr: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in ptr.split("/"))


class LeafRedactor:
    """The leaves of one map: each value checked against its field's JSON types and reduced by its class."""

    def __init__(self, policy: EffectivePolicy, key: Key | None, report: RedactionReport,
                 *, in_mode: str, out_mode: str, where: str, recorder: TokenRecorder | None = None) -> None:
        self.policy = policy
        self.key = key
        self.report = report
        self.in_mode = in_mode
        self.out_mode = out_mode
        self.where = where
        self.recorder = recorder  # the reveal vault's (redact/keys/recorder.py); None records nothing
        self.idents = IdentScrubber(policy, key, recorder, fallbacks=report.fallbacks)
        report.idents = self.idents.report
        self._hash_ids = policy.policy.ids.action == "hash"
        self._vocab = policy.vocabulary
        self._id_cache: dict[str, str] = {}
        self._path_cache: dict[str, str] = {}
        self._hasher: Callable[[str], str] | None = key.program_digest if key and out_mode == "hashed" else None
        if self._hasher is not None and recorder is not None:
            self._hasher = recording_hasher(self._hasher, recorder)

    # ---- errors and counting -------------------------------------------------------------
    def bad(self, ptr: str, what: str) -> BadInput:
        return BadInput(what, where=f"{self.where}#{ptr or '/'}")

    def drop_value(self, ptr: str) -> object:
        self.report.dropped_values[pointer_pattern(ptr)] += 1
        return DROP

    # ---- leaves --------------------------------------------------------------------------
    def _type_check(self, leaf: Leaf, value: Any, ptr: str) -> Any:
        if isinstance(value, bool):
            if bool in leaf.py:
                return value
        elif isinstance(value, int):
            if int in leaf.py:
                if abs(value) > MAX_SAFE_INT:
                    raise self.bad(ptr, "number out of range")
                return value
        elif isinstance(value, float):
            if float in leaf.py:
                if not math.isfinite(value):
                    raise self.bad(ptr, "number out of range")
                return value
            if int in leaf.py and value.is_integer():
                if abs(value) > MAX_SAFE_INT:
                    raise self.bad(ptr, "number out of range")
                return int(value)
        elif isinstance(value, str) and str in leaf.py:
            return value
        wanted = " or ".join(sorted(_JSON_TYPES[t] for t in leaf.py))
        raise self.bad(ptr, f"expected {wanted}")

    def leaf(self, leaf: Leaf, value: Any, ptr: str) -> Any:
        if value is None:
            if leaf.nullable:
                return None
            raise self.bad(ptr, "must not be null")
        if leaf.many:
            if not isinstance(value, list):
                raise self.bad(ptr, "expected a list")
            out = []
            for i, item in enumerate(value):
                one = self.scalar(leaf, self._type_check(leaf, item, f"{ptr}/{i}"), f"{ptr}/{i}")
                if one is not DROP and one not in out:
                    out.append(one)
            return out
        if leaf.mapping:
            if not isinstance(value, dict):
                raise self.bad(ptr, "expected an object")
            mapped: dict[str, Any] = {}
            for k, v in value.items():
                if leaf.values is not None and k not in leaf.values:
                    self.report.dropped_fields[pointer_pattern(ptr) + "/<unknown key>"] += 1
                    continue
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise self.bad(f"{ptr}/{shown(k, '<key>')}", "expected a number")
                if abs(v) > MAX_SAFE_INT:
                    raise self.bad(f"{ptr}/{shown(k, '<key>')}", "number out of range")
                if isinstance(v, float) and not v.is_integer() and float not in leaf.py:
                    raise self.bad(f"{ptr}/{shown(k, '<key>')}", "expected an integer")
                mapped[k] = int(v) if isinstance(v, float) and v.is_integer() else v
            return mapped
        return self.scalar(leaf, self._type_check(leaf, value, ptr), ptr)

    def scalar(self, leaf: Leaf, value: Any, ptr: str) -> Any:
        kind = leaf.fc.kind
        if kind in (Kind.NUMBER, Kind.BOOL):
            return value
        if kind is Kind.ENUM:
            return value if leaf.values is None or value in leaf.values else self.drop_value(ptr)
        if kind is Kind.TIMESTAMP:
            return self.timestamp(value, ptr, required=leaf.required)
        if kind is Kind.ID:
            return self.opaque_id(value)
        if kind is Kind.VERSION:
            return value if grammar.VERSION_RE.fullmatch(value) else self.drop_value(ptr)
        if kind is Kind.PATH:
            return self.path(value)
        if kind is Kind.LABEL:
            return value if grammar.is_bucket_label(value) else self.label(value)
        if kind is Kind.VERB:
            if self._vocab is None:
                return value if is_valid_verb(value) else extract(value, hasher=self._hasher).verb
            return (value if self._vocab.is_valid_verb(value)
                    else extract(value, hasher=self._hasher, vocab=self._vocab).verb)
        if kind is Kind.ACTION:
            verb_ok = is_valid_verb if self._vocab is None else self._vocab.is_valid_verb
            return value if is_vcs_action(value, verb_ok) else self.drop_value(ptr)
        if kind is Kind.IDENT:
            out = self.idents.scrub(leaf.fc.category or "", value)
            return DROP if out is None else out
        if kind is Kind.TEXT:
            return self.text(value, ptr)
        if kind is Kind.HASH or kind is Kind.DIGEST:
            return DROP  # recomputed on output (a source digest: only from a raw log, with a key)
        raise AssertionError(kind)  # pragma: no cover

    def timestamp(self, value: str, ptr: str, *, required: bool) -> Any:
        try:
            dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=timezone.utc)
            dt = dt.astimezone(timezone.utc)  # OverflowError past year 1 or 9999 in UTC
        except (ValueError, OverflowError):
            if required:
                raise self.bad(ptr, "not an ISO-8601 timestamp") from None
            return self.drop_value(ptr)
        # isoformat, not strftime("%Y"): strftime writes year 1 as "1", not "0001"
        return dt.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"

    def opaque_id(self, value: str) -> str:
        cached = self._id_cache.get(value)
        if cached is not None:
            return cached
        if value in _STRUCTURAL_IDS or (grammar.is_id(value) and not self._hash_ids):
            out = value
        elif grammar.is_id(value) and (value.startswith(("h:", "id-")) or
                                      _STRUCTURAL_ID_RE.fullmatch(value)):
            out = value
        elif self.key is not None:
            out = "h:" + self.key.ident_digest("id", value)
            if self.recorder is not None:
                self.recorder.record("id", out, value)
        else:
            out = "id-" + sha256_hex(value.encode("utf-8", "surrogatepass"))[:12]
        self._id_cache[value] = out
        return out

    def label(self, value: str) -> str:
        return bucket(value) if is_absolute(value) else "outside-repo"

    def path(self, value: str) -> str:
        cached = self._path_cache.get(value)
        if cached is None:
            cached = self._path(value)
            self._path_cache[value] = cached
        return cached

    def _path(self, value: str) -> str:
        if grammar.is_bucket_label(value):
            return value
        if is_absolute(value):
            return bucket(value)
        if self.in_mode == self.out_mode and grammar.path_in_mode(value, self.out_mode):
            return guard_path(value, self.out_mode, self.key, self.report.fallbacks, self.recorder)
        if self.in_mode == "dirs_only" and self.out_mode == "hashed" and grammar.is_dirs_only_path(value):
            assert self.key is not None
            return hashed(value, self.key, self.recorder)
        if self.in_mode == "hashed" and grammar.is_hashed_path(value):
            return value
        rel = clean_relative(value)
        if rel is None:
            return "outside-repo"
        if self.out_mode == "hashed" and self.key is None:
            return "outside-repo"  # an input claiming hashed mode with a path that is not hashed
        return apply_mode(rel, self.out_mode, self.key, self.recorder, self.report.fallbacks)

    def text(self, value: str, ptr: str) -> Any:
        keep = self.policy.policy.text
        if ptr.startswith("/tasks/") and keep.keep_task_names:
            self.report.kept_text["task_names"].add(value)
            return value
        if ptr.endswith("/title") and keep.keep_artifact_titles:
            self.report.kept_text["artifact_titles"].add(value)
            return value
        return self.drop_value(ptr)
