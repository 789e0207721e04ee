"""The scanner's self-test: plant known leaks into a copy of a map and check that every one is caught.

A broken scanner must not pass silently. `self_test(map)` copies the map and plants, at many places
(every field present in the first object of each kind, the first event of each kind, list items,
unknown fields at several depths, an event of an unknown kind), one of:

* a secret in a provider's token shape (GitHub, AWS, OpenAI, Slack, GitLab, npm), which the secrets
  layer must report at that place;
* a sentence, which the natural-language layer must report at that place;
* an e-mail address, which the grammar layer must report at that place;
* with a source: a distinctive token and a phrase appended to a copy of the source and planted in
  the map, which the taint layer must report at that place.

Every plant is unique and made deterministically from its index, so the self-test is reproducible.
The result lists the places (JSON pointers) of the plants that were missed, never their values.
"""
from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from audit import scan as _scan
from audit.grammar import Compiled, Spec, Sub, compiled_table
from redact.model.fieldclass import Kind

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_WORDS = ("amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "iris", "juniper",
          "kestrel", "linden", "maple", "nectar", "orchid", "pepper", "quartz", "raven", "sorrel", "tulip")


def _b62(seed: str, n: int) -> str:
    out: list[str] = []
    counter = 0
    while len(out) < n:
        digest = hashlib.sha256(f"{seed}/{counter}".encode()).digest()
        out.extend(_ALPHABET[b % 62] for b in digest)
        counter += 1
    return "".join(out[:n])


def _digits(seed: str, n: int) -> str:
    return "".join(str(b % 10) for b in hashlib.sha256(seed.encode()).digest()[:n]).replace("0", "7")


def secret_canary(i: int) -> str:
    """A token in one of several provider shapes; unique per `i`."""
    seed = f"agentplay-selftest-secret-{i}"
    shapes: list[Callable[[], str]] = [
        lambda: "ghp_" + _b62(seed, 36),
        lambda: "AKIA" + _b62(seed, 16).upper().replace("0", "Q").replace("1", "Z"),
        lambda: "sk-proj-" + _b62(seed, 48),
        lambda: "xoxb-" + _digits(seed, 10) + "-" + _digits(seed + "/2", 13) + "-" + _b62(seed, 24),
        lambda: "glpat-" + _b62(seed, 20),
        lambda: "npm_" + _b62(seed, 36),
    ]
    return shapes[i % len(shapes)]()


def text_canary(i: int) -> str:
    """A sentence; unique per `i`."""
    a, b = _WORDS[i % len(_WORDS)], _WORDS[(i // len(_WORDS)) % len(_WORDS)]
    return f"Please send the {a} {b} refund report to the customer before Friday, case {i}."


def email_canary(i: int) -> str:
    return f"selftest.{_WORDS[i % len(_WORDS)]}{i}@example-corp.com"


KINDS = ("secret", "text", "email")
EXPECTED_LAYER = {"secret": "secrets", "text": "language", "email": "grammar", "source": "taint"}
_MAKERS = {"secret": secret_canary, "text": text_canary, "email": email_canary}


@dataclass(frozen=True, slots=True)
class Plant:
    pointer: str
    kind: str  # secret | text | email | source

    @property
    def layer(self) -> str:
        return EXPECTED_LAYER[self.kind]


@dataclass(frozen=True)
class SelfTestResult:
    planted: tuple[Plant, ...]
    missed: tuple[Plant, ...]

    @property
    def ok(self) -> bool:
        return bool(self.planted) and not self.missed

    def summary(self) -> str:
        if self.ok:
            return f"self-test passed: planted {len(self.planted)} leaks, the scanner caught all of them"
        if not self.planted:
            return "self-test FAILED: no place to plant a leak"
        where = ", ".join(f"{p.kind} at {p.pointer}" for p in self.missed[:8])
        more = f" and {len(self.missed) - 8} more" if len(self.missed) > 8 else ""
        return (f"self-test FAILED: the scanner missed {len(self.missed)} of {len(self.planted)} "
                f"planted leaks ({where}{more}); its verdicts cannot be trusted")


class _Planter:
    def __init__(self, keep_text: frozenset[str]) -> None:
        self.plants: list[Plant] = []
        self.keep_text = keep_text
        self.count = 0  # plants made, including ones later taken back: every value stays unique

    def _next_kind(self, text_ok: bool = True) -> str:
        kind = KINDS[self.count % len(KINDS)]
        if kind == "text" and not text_ok:
            kind = "email"
        return kind

    def put(self, container: dict[str, Any] | list[Any], key: str | int, pointer: str,
            text_ok: bool = True) -> None:
        kind = self._next_kind(text_ok)
        container[key] = _MAKERS[kind](self.count)  # type: ignore[index]
        self.count += 1
        self.plants.append(Plant(pointer, kind))

    def node(self, node: Compiled, obj: dict[str, Any], ptr: str) -> None:
        for name, spec in node.fields.items():
            value = obj.get(name)
            if value is None:
                continue
            if isinstance(spec, Sub):
                if spec.many and isinstance(value, list) and value and isinstance(value[0], dict):
                    self.node(spec.node, value[0], f"{ptr}/{name}/0")
                elif not spec.many and isinstance(value, dict):
                    self.node(spec.node, value, f"{ptr}/{name}")
                continue
            self.leaf(spec, obj, name, value, ptr)
        self.put(obj, "selftestNote", f"{ptr}/selftestNote")

    def leaf(self, spec: Spec, obj: dict[str, Any], name: str, value: Any, ptr: str) -> None:
        if spec.mapping:
            return
        text_ok = not (spec.kind is Kind.TEXT and spec.text_key in self.keep_text)
        if spec.many:
            if isinstance(value, list) and value:
                self.put(value, 0, f"{ptr}/{name}/0", text_ok)
            return
        self.put(obj, name, f"{ptr}/{name}", text_ok)


def plant(session_map: Mapping[str, Any], keep_text: frozenset[str] = frozenset()) -> tuple[dict[str, Any], list[Plant]]:
    """A copy of `session_map` with leaks planted, and where they are."""
    doc: dict[str, Any] = copy.deepcopy(dict(session_map))
    top, event_specs = compiled_table()
    p = _Planter(keep_text)
    for name, spec in top.fields.items():
        value = doc.get(name)
        if isinstance(spec, Sub):
            if spec.many and isinstance(value, list) and value and isinstance(value[0], dict):
                p.node(spec.node, value[0], f"/{name}/0")
            elif not spec.many and isinstance(value, dict):
                p.node(spec.node, value, f"/{name}")
    p.put(doc, "selftestNote", "/selftestNote")
    events = doc.get("events")
    if not isinstance(events, list):
        events = doc["events"] = []
    seen: set[str] = set()
    for i, ev in enumerate(events):
        kind = ev.get("kind") if isinstance(ev, dict) else None
        node = event_specs.get(kind) if isinstance(kind, str) else None
        if node is None or kind in seen:
            continue
        seen.add(kind)  # type: ignore[arg-type]
        saved_kind = ev["kind"]
        p.node(node, ev, f"/events/{i}")
        ev["kind"] = saved_kind  # keep the event's kind, so its other fields are checked as that kind
        p.plants = [pl for pl in p.plants if pl.pointer != f"/events/{i}/kind"]
    n = len(events)
    events.append({"seq": n, "t": 0, "kind": "selftest_unknown_kind"})
    p.put(events[n], "note", f"/events/{n}/note")
    return doc, p.plants


def _plant_source(doc: dict[str, Any], source: bytes, plants: list[Plant]) -> bytes:
    token = "zqselftest" + _b62("agentplay-selftest-source", 16).lower()
    phrase = "the quokka ledger migrates at dawn"
    record = {"type": "user", "message": {"role": "user", "content": f"note {token}: {phrase}."}}
    doc["selftestSourceToken"] = f"x-{token}-y"
    doc["selftestSourcePhrase"] = f"[{phrase}]"
    plants.append(Plant("/selftestSourceToken", "source"))
    plants.append(Plant("/selftestSourcePhrase", "source"))
    return source.rstrip(b"\n") + b"\n" + orjson.dumps(record) + b"\n"


def self_test(session_map: dict[str, Any], *, source: bytes | None = None,
              source_format: str | None = None,
              kept_identifiers: Mapping[str, Collection[str]] | None = None,
              keep_task_names: bool = False, keep_artifact_titles: bool = False,
              verb_check: Callable[[str], bool] | None = None) -> SelfTestResult:
    """Plant leaks in a copy of `session_map` (and of `source`) and check each is caught."""
    _scan.check_map_shape(session_map)
    keep = frozenset(n for n, on in (("task_names", keep_task_names),
                                     ("artifact_titles", keep_artifact_titles)) if on)
    doc, plants = plant(session_map, keep)
    planted_source = _plant_source(doc, source, plants) if source is not None else None
    result = _scan.scan_map(doc, source=planted_source, source_format=source_format,
                      kept_identifiers=kept_identifiers, keep_task_names=keep_task_names,
                      keep_artifact_titles=keep_artifact_titles, verb_check=verb_check)
    caught: dict[str, set[str]] = {}
    for f in result.findings:
        caught.setdefault(f.pointer, set()).add(f.layer)
    missed = tuple(pl for pl in plants if pl.layer not in caught.get(pl.pointer, ()))
    return SelfTestResult(tuple(plants), missed)
