"""Structure-aware fuzzing: valid inputs of each format, mutated the way a hostile log or a broken
producer would, and the invariant every outcome must satisfy.

The budget comes from `HYPOTHESIS_PROFILE` (docs/fuzzing.md):

    ci     the default: bounded, for every run of the suite (well under a minute in all)
    long   the documented long run: up to 50,000 examples per fuzzer, within the time budget that
           tests/hardening/long_run.py gives each
    smoke  a handful of examples, to check the harness itself

Mutations (`mutate`) work on parsed records: drop a field, swap a value's type, make a string huge,
add Unicode edge cases, duplicate, drop, reorder or retype records. `mutate_bytes` then damages the
serialized bytes (truncation, splices, bit flips). `check_outcome` states what must hold whatever
the input: a result whose bytes hold no canary, or a `RedactError` whose one-line diagnostic holds
no canary; anything else (an internal error) is a bug.
"""
from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable
from typing import Any

import orjson
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from redact.errors import LeakFound, RedactError

_COMMON: dict[str, Any] = {"deadline": None, "suppress_health_check": list(HealthCheck)}
settings.register_profile("hardening-smoke", max_examples=5, **_COMMON)
settings.register_profile("hardening-ci", max_examples=100, **_COMMON)
settings.register_profile("hardening-long", max_examples=50_000, **_COMMON)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if f"hardening-{PROFILE}" not in ("hardening-smoke", "hardening-ci", "hardening-long"):
    PROFILE = "ci"
FUZZ = settings.get_profile(f"hardening-{PROFILE}")

#: Where the long run writes what it saw (scanner blocks are safe outcomes, but worth reading).
LOG = os.environ.get("HARDENING_FUZZ_LOG")

# ---- values a hostile input puts where something else belongs ---------------------------------------

TYPE_SWAPS: tuple[Any, ...] = (
    None, True, False, 0, -1, 2**31, 2**53, 2**53 + 1, 2**63 - 1, 2**64 - 1, -(2**63), 1.5, -0.0, 1e308,
    5e-324, "", "0", "-1", "true", "null", [], {}, [[]], {"": None}, "2026-13-45T99:99:99Z",
    "1970-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "NaN", "Infinity", "main", "sa-",
)
UNICODE_EDGES: tuple[str, ...] = (
    "\u0000", "\u202e", "\u2028", "\u2029", "\u0085", "\ud83d\ude00", "e\u0301", "\uff47\uff49\uff54", "\ufeff",
    "\u00ad", "\u200b", "\u200d", "\u0130", "\u00df", "\U0010ffff", "\x7f", "\x1b[2J", "\r\n", "\\", '"',
    "%s%n%x", "${jndi:ldap://x.test/a}", "../../../etc/passwd", "C:\\Users\\bob\\x", "~", "//", "\t",
    "\u0456", "\u03bf", "\ud800",  # a lone surrogate: serialized as an escape, which readers refuse
)
HUGE_FILLERS: tuple[str, ...] = ("A", "a@", "/", " ", "\u00e9", "\u200b", "a.", "-", "0", "%2F", "\\u0000")
RECORD_TYPES: tuple[str, ...] = (
    "user", "assistant", "system", "progress", "attachment", "summary", "file-history-snapshot",
    "queue-operation", "last-prompt", "permission-mode", "custom-title", "tag", "session_meta",
    "response_item", "event_msg", "turn_context", "", "Zq-unknown",
)


def _locations(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in `doc`, in a stable order."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in list(node):
                out.append((node, key))
                stack.append(node[key])
        elif isinstance(node, list):
            for i in range(len(node)):
                out.append((node, i))
                stack.append(node[i])
    return out


def _huge(draw: Callable[..., Any], base: Any) -> str:
    filler = draw(st.sampled_from(HUGE_FILLERS))
    size = draw(st.sampled_from((1_000, 20_000, 200_000)))
    keep = base if isinstance(base, str) else ""
    return draw(st.sampled_from((keep + filler * (size // len(filler)), filler * (size // len(filler)) + keep)))


MUTATIONS = ("drop", "type", "huge", "unicode", "wrap", "dup_record", "drop_record", "swap_records",
             "retype_record", "empty_container")


def mutate(data: st.DataObject, records: list[Any], *, record_level: bool = True) -> list[str]:
    """Apply 1-6 mutations to `records` in place (a list of JSON values); returns their names."""
    done: list[str] = []
    for _ in range(data.draw(st.integers(1, 6), label="mutations")):
        kind = data.draw(st.sampled_from(MUTATIONS if record_level else MUTATIONS[:5] + MUTATIONS[9:]),
                         label="mutation")
        if kind in ("dup_record", "drop_record", "swap_records", "retype_record"):
            if not records:
                continue
            i = data.draw(st.integers(0, len(records) - 1))
            if kind == "dup_record":
                records.insert(i, copy.deepcopy(records[i]))
            elif kind == "drop_record" and len(records) > 1:  # keep one record at least
                del records[i]
            elif kind == "swap_records":
                j = data.draw(st.integers(0, len(records) - 1))
                records[i], records[j] = records[j], records[i]
            elif kind == "retype_record" and isinstance(records[i], dict):
                records[i]["type"] = data.draw(st.sampled_from(RECORD_TYPES))
            done.append(kind)
            continue
        locs = _locations(records)
        if not locs:
            continue
        container, key = locs[data.draw(st.integers(0, len(locs) - 1), label="where")]
        old = container[key]
        if kind == "drop":
            if isinstance(container, dict) or len(container) > 1:
                del container[key]
        elif kind == "type":
            container[key] = copy.deepcopy(data.draw(st.sampled_from(TYPE_SWAPS)))
        elif kind == "huge":
            container[key] = _huge(data.draw, old)
        elif kind == "unicode":
            edge = data.draw(st.sampled_from(UNICODE_EDGES))
            where = data.draw(st.sampled_from(("replace", "prefix", "suffix", "inside")))
            text = old if isinstance(old, str) else ""
            container[key] = {"replace": edge, "prefix": edge + text, "suffix": text + edge,
                              "inside": text[: len(text) // 2] + edge + text[len(text) // 2:]}[where]
        elif kind == "wrap":
            container[key] = data.draw(st.sampled_from(([old], {"text": old}, {"type": "text", "text": old})))
        elif kind == "empty_container":
            container[key] = data.draw(st.sampled_from(([], {}, [{}], [None])))
        done.append(kind)
    return done


def dumps(value: Any) -> bytes:
    """orjson when it can; the standard library (which writes lone surrogates and huge ints as JSON
    escapes and digits) when it cannot, so the reader sees them."""
    try:
        return orjson.dumps(value)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, ensure_ascii=True).encode("ascii")


def mutate_bytes(data: st.DataObject, raw: bytes) -> tuple[bytes, str]:
    """One byte-level damage to `raw`."""
    if not raw:
        return raw, "none"
    kind = data.draw(st.sampled_from(("truncate", "insert", "flip", "delete", "duplicate", "nul", "crlf")),
                     label="byte mutation")
    at = data.draw(st.integers(0, len(raw) - 1), label="at")
    if kind == "truncate":
        return raw[:at], kind
    if kind == "insert":
        blob = data.draw(st.binary(min_size=1, max_size=16), label="blob")
        return raw[:at] + blob + raw[at:], kind
    if kind == "flip":
        bit = data.draw(st.integers(0, 7))
        return raw[:at] + bytes([raw[at] ^ (1 << bit)]) + raw[at + 1:], kind
    if kind == "delete":
        n = data.draw(st.integers(1, 64))
        return raw[:at] + raw[at + n:], kind
    if kind == "duplicate":
        n = data.draw(st.integers(1, 256))
        return raw[:at] + raw[at:at + n] * 2 + raw[at + n:], kind
    if kind == "nul":
        return raw[:at] + b"\x00" + raw[at:], kind
    return raw.replace(b"\n", b"\r\n"), kind


# ---- the invariant ----------------------------------------------------------------------------------

_NAMING_SECTIONS = ("droppedFields", "skippedRecords")


def _report_leaks(report: dict[str, Any], canaries: list[str]) -> list[str]:
    """Canaries in a report. A report names unknown fields and record types when their names have a
    strict, safe shape (ASCII letters, digits, `_`; at most 40): by design, so those names are let
    through, and nothing else."""
    rest = {k: v for k, v in report.items() if k not in _NAMING_SECTIONS}
    text = orjson.dumps(rest).decode()
    leaked = [c for c in canaries if c in text]
    for section in _NAMING_SECTIONS:
        for name in report.get(section) or {}:
            for part in re.split(r"[/<>:]", str(name)):
                if any(c in part for c in canaries) and not _safe_name(part):
                    leaked.append(part)
    return leaked


def _safe_name(name: str) -> bool:
    return 0 < len(name) <= 40 and name.isascii() and name.replace("_", "").replace("-", "").isalnum()


def check_outcome(run: Callable[[], Any], canaries: list[str], *, label: str) -> str:
    """Run `run()` (a redaction); it returns a Result or raises a RedactError. Anything else fails.

    On success no canary is in the output, nor in the report (but for the safe-shaped names of unknown
    fields and record types); on a refusal the diagnostic is one line and names no canary. Returns the
    outcome's name.
    """
    try:
        result = run()
    except RedactError as exc:
        diag = exc.diagnostic()
        assert "\n" not in diag and "\r" not in diag, diag
        leaked = [c for c in canaries if c in diag]
        assert not leaked, (diag, leaked)
        if isinstance(exc, LeakFound):
            report = getattr(exc, "report", None)
            if report is not None:
                leaked = _report_leaks(report.as_dict(), canaries)
                assert not leaked, ("a blocked run's report names a canary", leaked)
            _log(label, "blocked", [f.get("rule") for f in getattr(report, "findings", [])][:5])
            return "blocked"
        _log(label, "refused", [type(exc).__name__, exc.what[:80]])
        return "refused"
    out = result.data
    leaked = [c for c in canaries if c.encode("utf-8", "surrogatepass") in out]
    assert not leaked, ("canary in the output", leaked)
    orjson.loads(out)
    leaked = _report_leaks(result.report.as_dict(), canaries)
    assert not leaked, ("canary in the report", leaked)
    _log(label, "written", [])
    return "written"


def _log(label: str, outcome: str, detail: list[Any]) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"test": label, "outcome": outcome, "detail": detail}) + "\n")
