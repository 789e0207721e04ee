"""The one view every renderer draws: the report dict made safe to show, in a fixed order.

`build_view(report, session_map)` takes a `RedactionReport.as_dict()` or a `report_of_map()` dict and
returns a new dict with the same keys (and a few derived ones: `verdict`, `maskedIdentifiers`,
`timeline`), every value from the data passed through `safety`. Renderers format this view and
nothing else, so the no-echo rule is applied in one place for every format. Deterministic: sorted
keys and lists, nothing about the time or machine of rendering.
"""
from __future__ import annotations

from pathlib import PurePath
from typing import Any

from audit.findings import RULES
from audit.render.safety import (
    ident_mask_reason,
    mask,
    show_counts,
    show_excerpt,
    show_hex,
    show_ident,
    show_name,
    show_pointer,
    show_sentences,
    show_source_field,
)
from audit.render.timeline import build_timeline
from redact.model.grammar import is_link_scope

REPORT_FORMAT = "agentplay-redact.audit/1"
CLEAN_VERDICTS = frozenset({"clean", "pass", "passed", "ok"})
SKIPPED_VERDICTS = frozenset({"skipped", "skip", "not run"})
FAIL_VERDICTS = frozenset({"findings", "fail", "failed", "leak", "leaks", "error"})
LAYER_ORDER = ("grammar", "secrets", "taint", "language")  # audit.findings.LAYERS


def _source(value: Any) -> str:
    text = str(value or "<unknown>")
    if text.startswith("<") and text.endswith(">"):
        return show_name(text) if len(text) <= 40 else mask(text)
    name = PurePath(text.replace("\\", "/")).name or text  # `C:\\Users\\u\\x.jsonl` read anywhere
    return name if len(name) <= 120 and name.isprintable() else mask(name)


def _what_passes(report: dict[str, Any]) -> str | None:
    """For a blocked run: the command that passes the scanner, named by the input's file name only
    (a report may be attached to a bug report: never the folders of its path), or what to do instead."""
    from redact.blocked import passing_command

    found = report.get("whatPasses")
    if found == "public-with-key":
        return "This passes the scanner: " + passing_command(_source(report.get("source")))
    if found == "nothing":
        return ("The public policy with a key is flagged too: a redactor bug or a taint hit; please "
                "report it with this report (it holds no value).")
    return None


def _identifiers(report: dict[str, Any]) -> tuple[dict[str, list[str]], list[dict[str, str]]]:
    shown: dict[str, set[str]] = {}
    masked: dict[tuple[str, str], str] = {}
    for category, values in (report.get("identifiersInClear") or {}).items():
        cat = show_name(category)
        bucket = shown.setdefault(cat, set())
        for value in values if isinstance(values, (list, tuple, set, frozenset)) else [values]:
            text, reason = show_ident(value)
            bucket.add(text)
            if reason:
                masked[(cat, text)] = reason
    idents = {cat: sorted(vals) for cat, vals in sorted(shown.items())}
    masked_list = [{"category": c, "value": v, "reason": r} for (c, v), r in sorted(masked.items())]
    return idents, masked_list


def _leaving(report: dict[str, Any], session_map: dict[str, Any] | None) -> dict[str, list[str]] | None:
    """Every other string that leaves, by class (audit/leaving.py), each value shown as an identifier
    is (masked when it could be secret). None when there is no map to read it from (a blocked run, a
    native scrub)."""
    from audit.leaving import CLASSES, strings_leaving

    found = strings_leaving(session_map) if isinstance(session_map, dict) else report.get("stringsLeaving")
    if not isinstance(found, dict):
        return None
    out: dict[str, list[str]] = {}
    for cls in CLASSES:
        values = found.get(cls)
        if isinstance(values, list) and values:
            out[cls] = sorted({_show_leaving(cls, v) for v in values if isinstance(v, (str, int, float))})
    return out


_TEXT_CLASSES = ("task_names", "artifact_titles")


def _text_kept(report: dict[str, Any]) -> dict[str, list[str]]:
    """The text values a policy kept on purpose, by class: they leave in the map as written, so the
    report shows them (masked only when one could be secret or holds invisible characters)."""
    from audit.render.safety import show_sentences

    raw = report.get("textKept")
    found = raw if isinstance(raw, dict) else {}
    return {cls: show_sentences(sorted(v for v in found[cls] if isinstance(v, str)))
            for cls in _TEXT_CLASSES if isinstance(found.get(cls), list) and found[cls]}


def _fits(cls: str, text: str) -> bool:
    """Whether `text` has the shape its class allows (a map under audit may hold anything)."""
    from redact.model import grammar

    if cls == "path":
        return grammar.is_bucket_label(text) or grammar.is_relative_path(text)
    if cls == "label":
        return grammar.is_bucket_label(text)
    if cls == "verb":
        from redact.verbs import is_valid_verb

        return is_valid_verb(text)
    if cls == "action":
        return grammar.ACTION_RE.fullmatch(text) is not None
    if cls == "version":
        return grammar.VERSION_RE.fullmatch(text) is not None
    if cls == "id":
        return grammar.is_id(text)
    if cls == "timestamp":
        return grammar.is_timestamp(text)
    return show_name(text) == text  # enum values: names


def _show_leaving(cls: str, value: Any) -> str:
    """A value shown in clear when it has its class's shape and none of the reasons to mask an
    identifier (single spaces aside: `gh pr create`, `~ (home)`); masked otherwise."""
    text = value if isinstance(value, str) else str(value)
    if _fits(cls, text) and not ident_mask_reason(text.replace(" ", "_")):
        return text
    return mask(text)


LEAVING_TITLES = {"path": "Paths", "label": "Path bucket labels", "verb": "Verbs",
                  "action": "Version-control actions", "version": "Versions", "id": "Ids (opaque)",
                  "timestamp": "Timestamps", "enum": "Enum values (the format's closed sets)"}
PATH_TITLES = {"relative": "Paths (relative)",
               "dirs_only": "Paths (dirs_only: folders as they are, each file name an unkeyed hash)",
               "hashed": "Paths (hashed: every folder and file name a keyed token)",
               None: "Paths (the map declares no path mode: readers take them as relative)"}


def _paths_mode(report: dict[str, Any], session_map: dict[str, Any] | None) -> str | None:
    """The mode the listed paths were written in: the map's own `session.pathMode` when there is a
    map (the paths listed are read from it), else the report's; None when the map declares none."""
    from redact.model.grammar import PATH_MODES

    if isinstance(session_map, dict):
        session = session_map.get("session")
        declared = session.get("pathMode") if isinstance(session, dict) else None
        return declared if declared in PATH_MODES else None
    mode = report.get("pathMode")
    return mode if mode in PATH_MODES else None


def leaving_groups(view: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """(class, title, values) for each class of strings that leave besides identifiers; the paths'
    title names the mode they were written in."""
    found = view.get("stringsLeaving") or {}
    titles = {**LEAVING_TITLES, "path": PATH_TITLES[view.get("pathsMode")]}
    return [(cls, titles.get(cls, cls), values) for cls, values in found.items()]


def _message(rule: str, layer: str) -> str | None:
    """The rule's fixed message from the scanner's table, never a message carried by the data."""
    found = RULES.get(rule)
    if found is None and rule.startswith(f"{layer}."):
        found = RULES.get(f"{layer}.secret")  # `secrets.<detector>` rules
    return found.message if found else None


def _findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for finding in report.get("findings") or []:
        if not isinstance(finding, dict):
            continue
        one: dict[str, Any] = {"layer": show_name(finding.get("layer") or "?"),
                               "rule": show_name(finding.get("rule") or "?"),
                               "pointer": show_pointer(finding.get("pointer") or "/")}
        excerpt = finding.get("excerpt", finding.get("masked"))
        if excerpt is not None:
            one["excerpt"] = show_excerpt(excerpt)
        source_field = finding.get("sourceField")
        if source_field is not None:
            one["sourceField"] = show_source_field(source_field)
        places = finding.get("places")
        if isinstance(places, int) and not isinstance(places, bool) and places > 1:
            one["places"] = places
        message = _message(one["rule"], one["layer"])
        if message:
            one["message"] = message
        out.append(one)
    return sorted(out, key=lambda f: (_layer_key(f["layer"]), f["rule"], f["pointer"], f.get("excerpt", "")))


def _layer_key(name: str) -> tuple[int, str]:
    return (LAYER_ORDER.index(name) if name in LAYER_ORDER else len(LAYER_ORDER), name)


def _scanner(report: dict[str, Any]) -> dict[str, str]:
    raw = report.get("scanner") or {}
    shown = {show_name(k): show_name(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
    return {k: shown[k] for k in sorted(shown, key=_layer_key)}


def verdict(scanner: dict[str, str], findings: list[dict[str, Any]]) -> dict[str, Any]:
    """The one-line answer at the top of every format: findings, clean, not scanned or incomplete."""
    verdicts = {layer: v.lower() for layer, v in scanner.items()}
    skipped = sorted(layer for layer, v in verdicts.items() if v in SKIPPED_VERDICTS)
    ran = {layer: v for layer, v in verdicts.items() if v not in SKIPPED_VERDICTS}
    if findings or set(ran.values()) & FAIL_VERDICTS:
        status = "findings"
        text = (f"The scanner found {len(findings)} problem{'s' if len(findings) != 1 else ''}. "
                "Do not upload this map.")
    elif not scanner:
        status = "not scanned"
        text = "No scanner verdicts are recorded: the leak scanner did not check this map."
    elif ran and set(ran.values()) <= CLEAN_VERDICTS:
        status = "clean"
        text = f"No findings: {', '.join(ran)} passed"
        if skipped:
            text += f"; skipped: {', '.join(skipped)}" + (" (it needs the source log)"
                                                           if skipped == ["taint"] else "")
        text += (". Read the strings listed below (identifiers, paths, verbs, ...) before uploading: "
                 "they leave the machine as shown.")
    else:
        status = "incomplete"
        text = "Some scanner layers did not pass or did not run; see the verdicts below."
    return {"status": status, "findings": len(findings), "summary": text}


def build_view(report: dict[str, Any], session_map: dict[str, Any] | None = None) -> dict[str, Any]:
    raw_policy = report.get("policy")
    policy: dict[str, Any] = raw_policy if isinstance(raw_policy, dict) else {}
    by_kind = show_counts(report.get("eventsByKind"))
    idents, masked = _identifiers(report)
    scanner = _scanner(report)
    findings = _findings(report)
    stored = report.get("contentHashStored")
    view: dict[str, Any] = {
        "reportFormat": REPORT_FORMAT,
        "auditOf": "map" if report.get("auditOf") == "map" else "redaction",
        "source": _source(report.get("source")),
        "inputFormat": show_name(report.get("inputFormat") or "agentplay/v1"),
        "pathMode": show_name(report.get("pathMode") or "relative"),
        "requestedMode": show_name(report.get("requestedMode") or report.get("pathMode") or "relative"),
        "pathModeDeclared": report.get("pathModeDeclared") if isinstance(report.get("pathModeDeclared"),
                                                                          bool) else None,
        "keyFingerprint": show_hex(report.get("keyFingerprint")),
        "keySource": report.get("keySource") if report.get("keySource") in KEY_SOURCES else None,
        "linkScope": report.get("linkScope") if is_link_scope(report.get("linkScope")) else None,
        "policy": {"name": show_name(policy["name"]) if policy.get("name") else None,
                   "hash": show_hex(policy.get("hash")),
                   **({"keeps": [show_name(k) for k in policy["keeps"] if isinstance(k, str)]}
                      if isinstance(policy.get("keeps"), list) else {})},
        "textKept": _text_kept(report),
        "contentHash": show_hex(report.get("contentHash")),
        "sourceDigest": _source_digest(report.get("sourceDigest")),
        "contentHashStored": show_hex(stored) if stored is not None else None,
        "contentHashMatches": report.get("contentHashMatches")
        if isinstance(report.get("contentHashMatches"), bool) else None,
        "eventCount": int(report["eventCount"]) if isinstance(report.get("eventCount"), int)
        else sum(by_kind.values()),
        "eventsByKind": by_kind,
        "eventsByAgent": show_counts(report.get("eventsByAgent")),
        "identifiersInClear": idents,
        "maskedIdentifiers": masked,
        "stringsLeaving": _leaving(report, session_map),
        "pathsMode": _paths_mode(report, session_map),
        "identifiersHashed": show_counts(report.get("identifiersHashed")),
        "identifiersDropped": show_counts(report.get("identifiersDropped")),
        "droppedFields": show_counts(report.get("droppedFields"), pointer=True),
        "droppedValues": show_counts(report.get("droppedValues"), pointer=True),
        "droppedEvents": show_counts(report.get("droppedEvents"), reason=True),
        "skippedRecords": show_counts(report.get("skippedRecords")),
        "fallbacks": show_counts(report.get("fallbacks")),
        "unknownFields": show_counts(report.get("unknownFields"), pointer=True),
        "unknownEvents": show_counts(report.get("unknownEvents"), reason=True),
        "textFields": show_counts(report.get("textFields"), pointer=True),
        "warnings": show_sentences(report.get("warnings") or []),
        "scanner": scanner,
        "findings": findings,
        "verdict": verdict(scanner, findings),
        "whatPasses": _what_passes(report),
        "timeline": build_timeline(session_map).summary() if isinstance(session_map, dict) else None,
    }
    return view


#: Where a run's key came from, as its report says it (redact/cli/common.py key_origin, Key.origin):
#: a closed set, so a report file edited to hold anything else shows nothing.
KEY_SOURCES = frozenset({"--key-file", "$AGENTPLAY_REDACT_KEY", "$AGENTPLAY_REDACT_KEY_FILE",
                         "~/.config/agentplay/key", "$XDG_CONFIG_HOME/agentplay/key", "the caller", "none"})


def _fingerprint_text(view: dict[str, Any]) -> str:
    if view["keyFingerprint"]:
        return str(view["keyFingerprint"])
    if view["auditOf"] == "map":
        return "not recorded in the map"
    return "none (no key was used)"


_SCOPE_TEXT = {"global": "global (the same token in every map made with this key)",
               "session": "session (no token in common with any other map)"}


def _scope_text(view: dict[str, Any]) -> str:
    scope = view["linkScope"]
    if scope is None:
        return "not recorded in the map" if view["auditOf"] == "map" else "no keyed tokens (no key)"
    return _SCOPE_TEXT.get(scope, f"{scope} (only the maps of this release)")


def _hash_text(view: dict[str, Any]) -> str:
    shown = view["contentHash"] or "(could not be computed)"
    match = view["contentHashMatches"]
    if view["auditOf"] != "map":
        return shown
    if match is True:
        return f"{shown} (matches the map's own)"
    if match is False:
        stored = view["contentHashStored"] or "(none)"
        return f"{shown} (recomputed; the map says {stored}: it does NOT match)"
    return f"{shown} (computed here; the map has none)"


def facts(view: dict[str, Any]) -> list[tuple[str, str]]:
    """The summary rows every format shows, as (label, value) text."""
    policy = view["policy"]
    if policy["name"] or policy["hash"]:
        policy_text = f"{policy['name'] or '(unnamed)'} (hash {policy['hash'] or 'unknown'})"
        if policy.get("keeps"):
            policy_text += f"; keeps {', '.join(policy['keeps'])}"
    else:
        policy_text = "not recorded in the map" if view["auditOf"] == "map" else "unknown"
    mode = view["pathMode"]
    if view["auditOf"] == "map" and view["pathModeDeclared"] is False:
        mode += " (not declared; the format's default)"
    elif view["requestedMode"] != view["pathMode"]:
        mode += f" (asked for {view['requestedMode']})"
    lanes = view["timeline"]["lanes"] if view["timeline"] else None
    events = f"{view['eventCount']}" + (f" in {len(lanes)} agent lane{'s' if len(lanes) != 1 else ''}"
                                        if lanes is not None else "")
    return [
        ("Source", view["source"]),
        ("Format", view["inputFormat"]),
        ("Path mode", mode),
        ("Key fingerprint", _fingerprint_text(view)),
        *([("Key from", "no key" if view["keySource"] == "none" else str(view["keySource"]))]
          if view.get("keySource") else []),
        ("Tokens link", _scope_text(view)),
        ("Policy", policy_text),
        ("contentHash", _hash_text(view)),
        ("Events", events),
        *([("Duration", str(view["timeline"]["duration"]))] if view["timeline"] else []),
    ]


DROPPED_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("droppedFields", "Unknown fields dropped", "pointer"),
    ("droppedValues", "Values dropped (not of their field's class)", "pointer"),
    ("droppedEvents", "Events dropped", "reason"),
    ("skippedRecords", "Source records skipped", "record type"),
    ("fallbacks", "Names replaced instead of refused (a token, a hash or a drop)", "class/scanner rule"),
    ("unknownFields", "Fields the format does not define, present in the map", "pointer"),
    ("unknownEvents", "Events the format does not define, present in the map", "reason"),
    ("textFields", "Text fields present (values not shown)", "pointer"),
)


def dropped_groups(view: dict[str, Any]) -> list[tuple[str, str, dict[str, int]]]:
    """(title, column name, counts) for each non-empty dropped-or-unknown group."""
    return [(title, column, view[key]) for key, title, column in DROPPED_GROUPS if view[key]]


def masked_reasons(view: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(m["category"], m["value"]): m["reason"] for m in view["maskedIdentifiers"]}


def _source_digest(value: Any) -> str | None:
    """The keyed digest of the map's raw log: shown when it is of its form, masked otherwise."""
    from redact.model.grammar import SOURCE_DIGEST_RE

    if not isinstance(value, str):
        return None
    return value if SOURCE_DIGEST_RE.fullmatch(value) else show_hex(value)
