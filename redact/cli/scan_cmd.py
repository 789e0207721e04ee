"""`agentplay-redact scan FILE... [--source RAW] [--format text|json|sarif] [--self-test]`.

Scans agentplay/v1 maps (this tool's or another producer's) for leaks. Exit 0: every file is clean;
1: findings (or a failed self-test: then nothing is scanned); 2: bad input or usage. The report goes
to stdout; the self-test's verdict and one closing line on findings go to stderr. Nothing printed ever holds more than four
characters of an offending value.
"""
from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from audit import scan as scanner
from audit import selftest
from audit.sarif import to_sarif
from audit.scan import ScanResult
from redact.cli.common import app, err
from redact.errors import LeakFound, UsageError
from redact.io.read import display_name, parse_json, read_input

FORMATS = ("text", "json", "sarif")


def _text(name: str, res: ScanResult) -> list[str]:
    lines = []
    for f in res.findings:
        line = f"{name}#{f.pointer or '/'}: {f.layer} {f.rule}: {f.message} [{f.excerpt}]"
        if f.places > 1:
            line += f" (+{f.places - 1} places)"
        if f.source:
            line += f" (source field {f.source})"
        lines.append(line)
    verdicts = ", ".join(f"{layer} {verdict}" for layer, verdict in res.verdicts.items())
    state = "clean" if res.clean else f"{len(res.findings)} finding(s)"
    idents = sum(len(v) for v in res.identifiers.values())
    lines.append(f"{name}: {state} ({verdicts}; {res.path_mode} paths; {idents} identifier(s) in clear)")
    return lines


@app.command("scan")
def scan(
    files: Annotated[list[str], typer.Argument(help="Session maps (.json or .json.gz); - for stdin.")],
    source: Annotated[str | None, typer.Option("--source", help="The raw log the maps were made "
                                                  "from (JSON or JSONL, gzip ok): adds the taint layer.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json or sarif.")] = "text",
    run_self_test: Annotated[bool, typer.Option("--self-test", help="First plant known leaks in a copy "
                                                "of each file and fail (exit 1) if any is missed.")] = False,
) -> None:
    """Prove a map holds no free text, secret or unsanctioned identifier (exit 1 on findings)."""
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}")
    maps: list[tuple[str, dict[str, Any]]] = []
    for path in files:
        name = display_name(path)
        doc = parse_json(read_input(path), name)
        scanner.check_map_shape(doc, name)
        maps.append((name, doc))
    raw = read_input(source) if source is not None else None

    if run_self_test:
        failed = False
        for name, doc in maps:
            outcome = selftest.self_test(doc, source=raw)
            err(f"{name}: {outcome.summary()}")
            failed = failed or not outcome.ok
        if failed:
            raise LeakFound("the self-test failed: this scanner misses planted leaks, so its verdicts "
                            "cannot be trusted (nothing was scanned)")

    results = [(name, scanner.scan_map(doc, source=raw)) for name, doc in maps]
    if fmt == "json":
        body = {"files": [{"file": name, **res.as_dict()} for name, res in results]}
        sys.stdout.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        sys.stdout.write(json.dumps(to_sarif(results), indent=2, ensure_ascii=False) + "\n")
    else:
        for name, res in results:
            for line in _text(name, res):
                sys.stdout.write(line + "\n")
    sys.stdout.flush()
    leaking = sum(1 for _, res in results if not res.clean)
    if leaking:
        raise LeakFound(f"findings in {leaking} of {len(results)} map(s)")
