"""The leak scanner's engine: run every layer over one map and say whether it is proven clean.

    result = scan_map(session_map, source=raw_log_bytes,
                      kept_identifiers=report.idents.kept,
                      keep_task_names=policy.text.keep_task_names)
    result.clean        # True only when every layer that ran passed
    result.findings     # tuple[Finding]: layer, rule, JSON pointer, masked excerpt; never a value
    result.verdicts     # {"grammar": "pass", "secrets": "pass", "taint": "skipped", "language": "pass"}
    result.identifiers  # identifiers in clear, by category, for the report to list

Layers (docs/scanner.md): grammar proof (audit/grammar.py), secrets (redact/contract/secrets/) over the
strings the grammar did not prove closed or opaque, taint against the source when one is given
(audit/taint.py), natural-language shape (redact/contract/language.py). Pure and deterministic: the same map,
source and options give the same result, in the same order.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

from audit.findings import LAYERS, Finding, excerpt
from audit.grammar import TEXT, GrammarOptions, GrammarResult, check_grammar
from redact.contract.language import looks_like_text
from redact.contract.secrets import find_secrets
from audit.taint import TaintResult, taint_scan
from redact.errors import BadInput
from redact.model.values import SCHEMA_IDS

PASS, FAIL, SKIPPED = "pass", "fail", "skipped"


@dataclass(frozen=True)
class ScanResult:
    findings: tuple[Finding, ...]
    verdicts: dict[str, str]  # layer -> "pass" | "fail" | "skipped"
    identifiers: dict[str, frozenset[str]] = field(default_factory=dict)  # in clear, by category
    path_mode: str = "relative"
    kept_text: int = 0  # text values a policy keeps on purpose (task names, artifact titles)
    strings_checked: int = 0  # distinct strings the grammar left open, seen by layers 2-4
    taint_patterns: int = 0  # windows and phrases the taint automaton held (0: nothing to search)
    taint_searched: int = 0  # output strings the taint layer searched
    taint_source_strings: int = 0  # text strings read from the source

    @property
    def clean(self) -> bool:
        return not self.findings

    def by_layer(self, layer: str) -> list[Finding]:
        return [f for f in self.findings if f.layer == layer]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: verdicts, findings (masked), identifier counts. No identifier value, no text."""
        return {
            "clean": self.clean,
            "verdicts": dict(self.verdicts),
            "pathMode": self.path_mode,
            "findings": [f.as_dict() for f in self.findings],
            "identifiersInClear": {cat: len(vals) for cat, vals in sorted(self.identifiers.items())},
            "keptText": self.kept_text,
            "stringsChecked": self.strings_checked,
            "taint": {"patterns": self.taint_patterns, "searchedStrings": self.taint_searched,
                      "sourceStrings": self.taint_source_strings},
        }


def _default_verb_check() -> Callable[[str], bool]:
    from redact.verbs.vocab import default_vocabulary  # the vocabulary, not the engine

    return default_vocabulary().is_valid_verb


def check_map_shape(session_map: Any, where: str = "<map>") -> None:
    """BadInput (exit 2) unless `session_map` is an agentplay/v1 map at all."""
    if not isinstance(session_map, dict):
        raise BadInput("a session map must be a JSON object", where=f"{where}#/")
    if session_map.get("schema") not in SCHEMA_IDS:
        raise BadInput("not an agentplay/v1 map (`schema`)", where=f"{where}#/schema")


def _secrets(gram: GrammarResult) -> list[Finding]:
    values = list(gram.strings)
    out: list[Finding] = []
    for hit in find_secrets(values):
        for place in gram.strings[values[hit.index]].values():
            out.append(Finding("secrets", f"secrets.{hit.rule}", place.pointer, hit.masked, place.places,
                               detail=hit.rule))
    return out


def _language(gram: GrammarResult) -> list[Finding]:
    out: list[Finding] = []
    for value, places in gram.strings.items():
        if not looks_like_text(value):
            continue
        for place in places.values():
            if place.kind != TEXT:  # a text field kept on purpose is text by definition
                out.append(Finding("language", "language.text", place.pointer, excerpt(value), place.places))
    return out


def scan_map(session_map: dict[str, Any], *, source: bytes | PathLike[str] | None = None,
             source_format: str | None = None,
             kept_identifiers: Mapping[str, Collection[str]] | None = None,
             keep_task_names: bool = False, keep_artifact_titles: bool = False,
             verb_check: Callable[[str], bool] | None = None) -> ScanResult:
    """Scan one parsed map. BadInput when it is not an agentplay/v1 map; otherwise a ScanResult.

    `source`: the raw log the map was made from (JSON or JSONL bytes, or the path of an
    uncompressed log, searched on disk a chunk at a time); enables the taint layer.
    `kept_identifiers`: category -> values the redaction report lists as kept in clear; when given,
    an identifier in clear that is not listed is a finding. `keep_task_names`/`keep_artifact_titles`:
    the policy keeps those text fields on purpose. `verb_check`: the verb vocabulary's membership
    test (a policy with extra programs passes its extended vocabulary's `is_valid_verb`).
    """
    check_map_shape(session_map)
    keep = frozenset(name for name, on in (("task_names", keep_task_names),
                                           ("artifact_titles", keep_artifact_titles)) if on)
    gram = check_grammar(session_map, GrammarOptions(verb_check or _default_verb_check(),
                                                     kept_identifiers, keep))
    secrets = _secrets(gram)
    taint: TaintResult | None = None
    if source is not None:
        taint = taint_scan(gram.strings, source, source_format)
    language = _language(gram)
    by_layer = {"grammar": gram.findings, "secrets": secrets,
                "taint": taint.findings if taint is not None else None, "language": language}
    verdicts = {layer: SKIPPED if by_layer[layer] is None else FAIL if by_layer[layer] else PASS
                for layer in LAYERS}
    findings = tuple(f for layer in LAYERS for f in (by_layer[layer] or ()))
    return ScanResult(
        findings=findings,
        verdicts=verdicts,
        identifiers={cat: frozenset(vals) for cat, vals in sorted(gram.identifiers.items())},
        path_mode=gram.path_mode,
        kept_text=gram.kept_text,
        strings_checked=len(gram.strings),
        taint_patterns=taint.patterns if taint is not None else 0,
        taint_searched=taint.searched if taint is not None else 0,
        taint_source_strings=taint.source_strings if taint is not None else 0,
    )
