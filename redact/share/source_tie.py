"""Whether a `--source` is the raw log a map was made from: its keyed `sourceDigest` (issue 27).

    data = tied_source(doc, "session.jsonl", key, where="map.json")   # the log's bytes, or UsageError

A map made from a raw log with a key carries `sourceDigest` (redact/keys/material.py). `scan`,
`audit` and `receipt sign` give the taint layer only a log whose digest under the key is the map's;
any other is refused (exit 2, saying why), so a receipt never records "taint pass" against a log that
never produced the map. A map without a digest (made without a key, from a store or one run of a log,
or by another producer) cannot be tied to any log: that is refused too unless the caller says the
log is to be used anyway (`untied=True`, the CLI's `--untied-source`), and then the caller says so.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from redact.errors import UsageError
from redact.io.read import display_name, read_input
from redact.keys.material import Key
from redact.model.grammar import SOURCE_DIGEST_RE

UNTIED_FLAG = "--untied-source"


def map_digest(doc: Any) -> str | None:
    """The map's `sourceDigest`, when it is one of its form."""
    found = doc.get("sourceDigest") if isinstance(doc, dict) else None
    return found if isinstance(found, str) and SOURCE_DIGEST_RE.fullmatch(found) else None


def tied_source(doc: Any, source: str | Path | bytes, key: Key | None, *, where: str,
                untied: bool = False, source_name: str | None = None) -> bytes:
    """The bytes of `source` (gunzipped) when they are the log the map `doc` (named `where` by the
    caller's own line) was made from.

    UsageError (exit 2, one line naming the log) when the digest differs, when the map's digest is
    keyed and no key is given, or when the map has no digest and `untied` is False."""
    data = source if isinstance(source, bytes) else read_input(source)
    name = source_name or (display_name(source) if not isinstance(source, bytes) else "<source>")
    expected = map_digest(doc)
    if expected is None:
        if untied:
            return data
        raise UsageError("the map carries no sourceDigest (made without a key, from a store or one run "
                         "of a log, or by another producer), so nothing ties this log to it; "
                         f"{UNTIED_FLAG} uses it anyway", where=name)
    if key is None:
        raise UsageError("the map's sourceDigest is keyed: give the key that made the map "
                         "(--key-file, $AGENTPLAY_REDACT_KEY, or the default key file) to check this log "
                         "against it", where=name)
    if key.source_digest(data) != expected:
        raise UsageError("this is not the raw log the map was made from (its keyed digest differs from "
                         "the map's sourceDigest), or the key is not the one that made the map; give the "
                         "map's own source and key", where=name)
    return data
