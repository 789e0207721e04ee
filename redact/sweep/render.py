"""The sweep's report: a terminal table (the default), JSON, SARIF 2.1.0 and an HTML page.

Every format says the same: each secret by class and keyed fingerprint, first and last seen, the
agents, sessions, files and lines where it sits, and what to do; the files that could not be read;
the credential files named and not opened; after a scrub, what was left alone and what was proved.
No format holds a value or any part of one: a place is a class, a fingerprint, a line and a length.

SARIF: one result per place, `artifactLocation` the file (relative to the working folder when it
is under it, else to the home folder through the `HOME` base id, else an absolute `file:` URI),
`region.startLine` its line in a line-based file; a store's cell is a logical location instead.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from html import escape
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any
from urllib.parse import quote

from redact.sweep.classes import advice, title
from redact.sweep.engine import FileResult, SweepResult
from redact.sweep.find import Place

REPORT_FORMAT = "agentplay-redact/sweep/v1"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
DOCS_URL = "https://github.com/agentplay/agentplay-redact/blob/main/docs/integration.md"
FORMATS = ("table", "json", "sarif", "html")


@dataclass
class Secret:
    cls: str
    fingerprint: str
    places: list[tuple[FileResult, Place]] = field(default_factory=list)

    @property
    def seen(self) -> list[str]:
        return sorted(p.when for _, p in self.places if p.when)

    def lines_by_file(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for f, p in self.places:
            spot = str(p.line) if p.line is not None else p.where
            if spot not in out[f.path]:
                out[f.path].append(spot)
        return dict(out)


def secrets_of(result: SweepResult) -> list[Secret]:
    """The distinct secrets found, by class then fingerprint."""
    by: dict[tuple[str, str], Secret] = {}
    for f, p in result.places:
        by.setdefault((p.cls, p.fingerprint), Secret(p.cls, p.fingerprint)).places.append((f, p))
    return [by[k] for k in sorted(by)]


def _tool_version() -> str:
    try:
        return version("agentplay-redact")
    except PackageNotFoundError:
        return "0"


def report_dict(result: SweepResult) -> dict[str, Any]:
    secrets = secrets_of(result)
    by_class: dict[str, int] = defaultdict(int)
    for s in secrets:
        by_class[s.cls] += 1
    items = []
    for s in secrets:
        seen = s.seen
        what, url = advice(s.cls)
        items.append({
            "class": s.cls, "title": title(s.cls), "fingerprint": s.fingerprint,
            "firstSeen": seen[0] if seen else None, "lastSeen": seen[-1] if seen else None,
            "agents": sorted({f.agent for f, _ in s.places}),
            "sessions": sorted({f.session for f, _ in s.places}),
            "files": [{"path": path, "lines": spots} for path, spots in sorted(s.lines_by_file().items())],
            "places": len(s.places), "action": what, "rotationUrl": url or None,
        })
    doc: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "fingerprintKey": "ephemeral (this run only)" if result.key_is_ephemeral else result.key_fingerprint,
        "summary": {"files": len(result.files), "bytes": result.bytes_read, "secrets": len(secrets),
                    "places": len(result.places), "byClass": dict(sorted(by_class.items())),
                    "blobsLeftAlone": sum(f.blobs for f in result.files),
                    "credentialEntriesNotRead": sum(f.credential_rows for f in result.files),
                    "seconds": round(result.seconds, 3)},
        "secrets": items,
        "credentialFiles": result.credentials,
        "unreadable": [{"path": p, "reason": r} for p, r in result.unreadable],
    }
    if result.vault or result.left_alone or result.caveats:
        doc["scrub"] = {"vault": result.vault, "scrubbed": result.scrubbed, "proof": result.proof,
                        "leftAlone": [{"path": p, "reason": r} for p, r in result.left_alone],
                        "caveats": list(result.caveats)}
    return doc


def render_table(result: SweepResult) -> str:
    doc = report_dict(result)
    s = doc["summary"]
    out = [f"sweep: {s['files']} file(s), {s['bytes']:,} bytes, {s['secrets']} secret(s) at {s['places']} place(s)"]
    if doc["secrets"]:
        rows = [("class", "fingerprint", "first seen", "last seen", "agents", "sessions", "files", "places")]
        for item in doc["secrets"]:
            rows.append((item["class"], item["fingerprint"], (item["firstSeen"] or "-")[:19],
                         (item["lastSeen"] or "-")[:19], ",".join(item["agents"]), str(len(item["sessions"])),
                         str(len(item["files"])), str(item["places"])))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        for n, row in enumerate(rows):
            out.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
            if n == 0:
                out.append("  ".join("-" * w for w in widths))
        out.append("")
        out.append("where, and what to do:")
        for item in doc["secrets"]:
            out.append(f"  {item['class']} {item['fingerprint']}: {item['action']}")
            for f in item["files"]:
                out.append(f"    {f['path']}: " + ", ".join(
                    (f"line {x}" if x.isdigit() else x) for x in f["lines"][:20])
                    + (f" (+{len(f['lines']) - 20} more)" if len(f["lines"]) > 20 else ""))
    for path in doc["credentialFiles"]:
        out.append(f"credential file (not opened): {path}")
    for u in doc["unreadable"]:
        out.append(f"not read: {u['path']}: {u['reason']}")
    if "scrub" in doc:
        sc = doc["scrub"]
        out.append(f"scrub: {sc['scrubbed']} file(s) rewritten; originals sealed in {sc['vault'] or '(no vault)'}")
        if sc["proof"]:
            out.append(f"proof: {sc['proof']}")
        for left in sc["leftAlone"]:
            out.append(f"left alone: {left['path']}: {left['reason']}")
        for caveat in sc["caveats"]:
            out.append(f"caveat: {caveat}")
    if result.key_is_ephemeral and doc["secrets"]:
        out.append("fingerprints are keyed by a key made for this run: give --key-file to compare runs")
    return "\n".join(out) + "\n"


def render_json(result: SweepResult) -> str:
    return json.dumps(report_dict(result), indent=2, ensure_ascii=False) + "\n"


def _artifact(path: str) -> dict[str, str]:
    absolute = Path(os.path.abspath(path))
    for base, name in ((Path.cwd(), None), (Path.home(), "HOME")):
        try:
            rel = absolute.relative_to(base)
        except ValueError:
            continue
        loc = {"uri": quote(rel.as_posix())}
        if name:
            loc["uriBaseId"] = name
        return loc
    return {"uri": absolute.as_uri()}


def render_sarif(result: SweepResult) -> str:
    secrets = secrets_of(result)
    classes = sorted({s.cls for s in secrets})
    rules = []
    for cls in classes:
        what, url = advice(cls)
        rules.append({"id": cls, "name": cls, "shortDescription": {"text": f"{title(cls)} in an agent's log"},
                      "fullDescription": {"text": f"A {title(cls)} sits in clear in a coding agent's session log."},
                      "help": {"text": what}, "helpUri": url or DOCS_URL,
                      "defaultConfiguration": {"level": "error"},
                      "properties": {"security-severity": "9.0", "tags": ["security", "secret"]}})
    index = {cls: i for i, cls in enumerate(classes)}
    results = []
    for s in secrets:
        for f, p in s.places:
            loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": _artifact(f.path)}}
            if p.line is not None:
                loc["physicalLocation"]["region"] = {"startLine": p.line}
            else:
                loc["logicalLocations"] = [{"fullyQualifiedName": p.where, "kind": "member"}]
            results.append({
                "ruleId": s.cls, "ruleIndex": index[s.cls], "level": "error",
                "message": {"text": f"{title(s.cls)} (fingerprint {s.fingerprint}, {p.length} chars) "
                                    f"in a {f.agent} log: {advice(s.cls)[0]}"},
                "locations": [loc],
                "partialFingerprints": {"agentplaySweepSecret/v1": s.fingerprint},
                "properties": {"agent": f.agent, "session": f.session, "seen": p.when},
            })
    notes = [{"level": "warning", "message": {"text": f"not read: {p}: {r}"}} for p, r in result.unreadable]
    notes += [{"level": "note", "message": {"text": f"credential file, not opened: {p}"}} for p in result.credentials]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "agentplay-redact sweep", "version": _tool_version(),
                            "informationUri": DOCS_URL, "rules": rules}},
        "originalUriBaseIds": {"HOME": {"uri": Path.home().as_uri() + "/"}},
        "invocations": [{"executionSuccessful": not result.unreadable,
                         "toolExecutionNotifications": notes}],
        "results": results,
    }
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _h(value: Any) -> str:
    return escape(str(value), quote=True)


def render_html(result: SweepResult) -> str:
    from audit.render.html import _CSP, _CSS

    doc = report_dict(result)
    s = doc["summary"]
    verdict = "findings" if doc["secrets"] else "clean"
    said = (f"{s['secrets']} secret(s) at {s['places']} place(s) in {s['files']} file(s)"
            if doc["secrets"] else f"no secret found in {s['files']} file(s)")
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f'<meta http-equiv="Content-Security-Policy" content="{_h(_CSP)}">',
             '<meta name="referrer" content="no-referrer">',
             "<title>Secrets in agents' logs</title>", f"<style>{_CSS}</style></head><body><main>",
             "<h1>Secrets in agents' logs</h1>",
             f'<div class="verdict {verdict}">{_h(said)}</div>',
             "<section id=summary><h2>Summary</h2><table><tbody>"]
    for label, value in (("files", s["files"]), ("bytes", f"{s['bytes']:,}"), ("secrets", s["secrets"]),
                         ("places", s["places"]), ("blobs left alone", s["blobsLeftAlone"]),
                         ("fingerprint key", doc["fingerprintKey"])):
        parts.append(f"<tr><th>{_h(label)}</th><td class=n>{_h(value)}</td></tr>")
    parts.append("</tbody></table></section>")
    if doc["secrets"]:
        parts.append("<section id=secrets><h2>What to rotate</h2><table><thead><tr><th>class</th>"
                     "<th>fingerprint</th><th>first seen</th><th>last seen</th><th>agents</th>"
                     "<th class=n>sessions</th><th>where</th><th>what to do</th></tr></thead><tbody>")
        for item in doc["secrets"]:
            where = "<br>".join(f'<code>{_h(f["path"])}</code>: {_h(", ".join(f["lines"][:20]))}'
                                for f in item["files"])
            action = _h(item["action"])
            if item["rotationUrl"]:
                action = f'<a href="{_h(item["rotationUrl"])}" rel="noreferrer">{action}</a>'
            parts.append(f"<tr><td>{_h(item['title'])}</td><td class=mono>{_h(item['fingerprint'])}</td>"
                         f"<td>{_h(item['firstSeen'] or '-')}</td><td>{_h(item['lastSeen'] or '-')}</td>"
                         f"<td>{_h(', '.join(item['agents']))}</td><td class=n>{len(item['sessions'])}</td>"
                         f"<td>{where}</td><td>{action}</td></tr>")
        parts.append("</tbody></table></section>")
    lists = [("Credential files (named, not opened)", [(p, "") for p in doc["credentialFiles"]]),
             ("Not read", [(u["path"], u["reason"]) for u in doc["unreadable"]])]
    if "scrub" in doc:
        lists.append(("Left alone by the scrub", [(x["path"], x["reason"]) for x in doc["scrub"]["leftAlone"]]))
        parts.append(f"<section id=scrub><h2>Scrub</h2><p>{_h(doc['scrub']['scrubbed'])} file(s) rewritten; "
                     f"originals sealed in <code>{_h(doc['scrub']['vault'])}</code>.</p>"
                     f"<p>{_h(doc['scrub']['proof'])}</p>"
                     + "".join(f"<p>Caveat: {_h(c)}</p>" for c in doc["scrub"]["caveats"]) + "</section>")
    for head, rows in lists:
        if rows:
            parts.append(f"<section><h2>{_h(head)}</h2><ul>" + "".join(
                f"<li><code>{_h(p)}</code>{(': ' + _h(r)) if r else ''}</li>" for p, r in rows) + "</ul></section>")
    parts += [f'<p class="muted">{_h(REPORT_FORMAT)}. Findings are best effort, as every secret '
              "scanner's are; a scrub's proof covers what the sweep found.</p>", "</main></body></html>", ""]
    return "\n".join(parts)


def render(result: SweepResult, fmt: str) -> str:
    return {"table": render_table, "json": render_json, "sarif": render_sarif, "html": render_html}[fmt](result)
