"""What a redaction did, for the audit report. Holds counts and pointer patterns, never input text."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass
class IdentReport:
    """What identifier scrubbing did (redact/apply/identifiers.py fills it): kept values by category,
    hashed and dropped counts."""

    kept: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    hashed: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    no_key_drops: int = 0


@dataclass
class RedactionReport:
    source: str
    input_format: str = "agentplay/v1"
    path_mode: str = "relative"
    requested_mode: str = "relative"
    key_fingerprint: str | None = None
    key_source: str | None = None  # where the key came from (Key.origin); None: no key
    link_scope: str | None = None  # how far keyed tokens link: global, session, dataset:NAME; None: no key
    policy_name: str = ""
    policy_hash: str = ""
    # the map's sourceDigest: the keyed digest of the raw log it was made from (None: a map input, no
    # key, or a source that is not one file's bytes); never an unkeyed hash, which confirms a guess
    source_digest: str | None = None
    policy_keeps: list[str] = field(default_factory=list)  # `EffectivePolicy.keeps()`: setting names
    # class ("task_names", "artifact_titles") -> the text values the policy kept on purpose: they leave
    # the machine in the map, so the report lists them with the identifiers in clear
    kept_text: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    content_hash: str = ""
    dropped_fields: Counter[str] = field(default_factory=Counter)  # pointer pattern -> count
    dropped_values: Counter[str] = field(default_factory=Counter)  # pointer pattern -> count
    dropped_events: Counter[str] = field(default_factory=Counter)  # reason -> count
    skipped_records: Counter[str] = field(default_factory=Counter)  # raw record type -> count
    idents: IdentReport = field(default_factory=IdentReport)
    events_by_kind: Counter[str] = field(default_factory=Counter)
    events_by_agent: Counter[str] = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    scanner: dict[str, str] = field(default_factory=dict)  # layer -> verdict
    findings: list[dict[str, Any]] = field(default_factory=list)
    # "<class>/<rule>" -> distinct values the redactor replaced because that scanner rule would have
    # fired on them (redact/apply/pathguard.py, redact/apply/identifiers.py); counts only, never a value
    fallbacks: Counter[str] = field(default_factory=Counter)
    # a blocked run: "public-with-key" when a trial under `public` with a key passed the scanner (the
    # report then names that command, redact/blocked.py), "nothing" when even that was flagged
    what_passes: str | None = None

    def drop_counts(self) -> tuple[int, int, int, int]:
        """(events, fields, values, records) this run dropped or skipped."""
        return (sum(self.dropped_events.values()), sum(self.dropped_fields.values()),
                sum(self.dropped_values.values()), sum(self.skipped_records.values()))

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "inputFormat": self.input_format,
            "pathMode": self.path_mode,
            "requestedMode": self.requested_mode,
            "keyFingerprint": self.key_fingerprint,
            "keySource": self.key_source or "none",
            "linkScope": self.link_scope,
            "policy": {"name": self.policy_name, "hash": self.policy_hash, "keeps": list(self.policy_keeps)},
            "contentHash": self.content_hash,
            "sourceDigest": self.source_digest,
            "eventsByKind": dict(sorted(self.events_by_kind.items())),
            "eventsByAgent": dict(sorted(self.events_by_agent.items())),
            "identifiersInClear": {k: sorted(v) for k, v in sorted(self.idents.kept.items())},
            "identifiersHashed": dict(sorted(self.idents.hashed.items())),
            "textKept": {k: sorted(v) for k, v in sorted(self.kept_text.items()) if v},
            "identifiersDropped": dict(sorted(self.idents.dropped.items())),
            "droppedFields": dict(sorted(self.dropped_fields.items())),
            "droppedValues": dict(sorted(self.dropped_values.items())),
            "droppedEvents": dict(sorted(self.dropped_events.items())),
            "skippedRecords": dict(sorted(self.skipped_records.items())),
            "fallbacks": dict(sorted(self.fallbacks.items())),
            "warnings": list(self.warnings),
            "scanner": dict(self.scanner),
            "findings": list(self.findings),
            "whatPasses": self.what_passes,
        }


def source_digest(source: bytes | str | Any) -> str:
    """SHA-256 of a raw log (its bytes, or the path of an uncompressed file read a chunk at a time):
    what `scan --report` and `receipt sign --report-json` compare a `--source` with."""
    import hashlib

    digest = hashlib.sha256()
    if isinstance(source, bytes):
        digest.update(source)
    else:
        with open(source, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
    return digest.hexdigest()


def drop_line(counts: tuple[int, int, int, int], *, where: str) -> str | None:
    """One line for stderr saying how much a run dropped or skipped (None: nothing). `where`: what
    lists them by place and reason (the audit report when one was asked for, else how to get one)."""
    events, fields, values, records = counts
    parts = [f"{n} {word}{'' if n == 1 else 's'}" for n, word in
             ((events, "event"), (fields, "field"), (values, "value")) if n]
    text = f"dropped {', '.join(parts)}" if parts else ""
    if records:
        text += ("; " if text else "") + f"skipped {records} record{'' if records == 1 else 's'}"
    return (text + f" (by place and reason: {where})") if text else None
