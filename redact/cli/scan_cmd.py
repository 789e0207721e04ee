"""`agentplay-redact scan FILE... [--source RAW] [--format text|json|sarif] [-o OUT] [--self-test]`.

Scans agentplay/v1 maps (this tool's or another producer's) for leaks. Every file is scanned; the
exit code is the worst outcome: 0 every file is clean; 1 findings (or a failed self-test: then
nothing is scanned); 2 a file that is not a readable map (the others are still scanned), or usage. The report goes
to stdout; the self-test's verdict and one closing line on findings go to stderr. Nothing printed ever holds more than four
characters of an offending value.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from redact.cli.common import app, choices, err, map_files, value
from redact.errors import BadInput, LeakFound, RedactError
from redact.io.write import check_output_path, write_atomic

FORMATS = ("text", "json", "sarif")
ScanFormat = choices("ScanFormat", FORMATS)


def _text(name: str, res: Any) -> list[str]:
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
    files: Annotated[list[str], typer.Argument(help="Session maps (.json or .json.gz), folders of maps "
                                                   "(a release folder); - for stdin.")],
    source: Annotated[str | None, typer.Option("--source", help="The raw log the maps were made "
                                                  "from (JSON or JSONL, gzip ok): adds the taint layer.")] = None,
    scan_format: Annotated[ScanFormat, typer.Option(  # type: ignore[valid-type]
        "--format", "-f", help="Report format.")] = "text",
    output: Annotated[str | None, typer.Option("-o", "--output", help="Write the report here instead "
                                                  "of stdout.")] = None,
    policy: Annotated[str | None, typer.Option("--policy", help="The policy the maps were made under "
                                               "(preset or TOML path): text it keeps on purpose, such "
                                               "as task names, and its extra programs are then not "
                                               "findings.")] = None,
    report_json: Annotated[str | None, typer.Option("--report", help="The map's JSON audit report "
                                                    "(`redact --report R.json`), for a map made before "
                                                    "maps carried a sourceDigest.")] = None,
    key_file: Annotated[Path | None, typer.Option("--key-file", help="The key the maps were made with "
                                                  "(default: $AGENTPLAY_REDACT_KEY(_FILE), else the "
                                                  "default key file): checks --source against each "
                                                  "map's keyed sourceDigest.")] = None,
    untied_source: Annotated[bool, typer.Option("--untied-source", help="Use --source for a map that "
                                                "carries no sourceDigest (nothing ties the log to it; "
                                                "said on stderr).")] = False,
    run_self_test: Annotated[bool, typer.Option("--self-test", help="First plant known leaks in a copy "
                                                "of each file and fail (exit 1) if any is missed.")] = False,
) -> None:
    """Prove a map holds no free text, secret or unsanctioned identifier (exit 1 on findings).

    Every file is scanned: one that cannot be read or is not a map is a line of the report (a tool
    execution notification in SARIF), and the exit code is the worst: 3 a bug, 2 a bad file, 1 findings.
    """
    from audit import scan as scanner
    from audit import selftest
    from redact.io.read import display_name, parse_json, read_input
    from redact.share.source_tie import map_digest

    fmt = str(value(scan_format))
    options = _policy_options(policy)
    files = map_files(files)
    if output not in (None, "-"):
        check_output_path(output, list(files) + ([source] if source else []))
    maps: list[tuple[str, dict[str, Any]]] = []
    texts: dict[str, bytes] = {}
    failures: list[tuple[str, str, int]] = []  # (file, diagnostic, exit code)
    for path in files:
        name = display_name(path)
        data = b""
        try:
            data = read_input(path)
            doc = parse_json(data, name)
            scanner.check_map_shape(doc, name)
        except RedactError as exc:
            failures.append((name, _raw_log(data, name) or exc.diagnostic(), exc.exit_code))
            continue
        maps.append((name, doc))
        texts[name] = data
    sources: dict[str, bytes] = {}
    if source is not None:
        tied = []
        key = _scan_key(key_file) if any(map_digest(doc) for _, doc in maps) else None
        for name, doc in maps:
            try:  # without the taint layer the verdicts would be weaker than asked: not scanned
                sources[name] = _checked_source(doc, name, source, report_json, key, untied_source)
            except RedactError as exc:
                failures.append((name, f"--source: {exc.diagnostic()}", exc.exit_code))
                continue
            tied.append((name, doc))
        maps = tied

    if run_self_test:
        failed = False
        for name, doc in maps:
            outcome = selftest.self_test(doc, source=sources.get(name))
            err(f"{name}: {outcome.summary()}")
            failed = failed or not outcome.ok
        if failed:
            if fmt != "text":  # a CI upload step expects a file: SARIF is never empty
                why = "the self-test failed: the scanner misses planted leaks (nothing was scanned)"
                _emit(_render(fmt, *_short_names([], texts, [(name, why, 1) for name, _ in maps] + failures,
                                                 [*files, *([source] if source else [])])), output)
            raise LeakFound("the self-test failed: this scanner misses planted leaks, so its verdicts "
                            "cannot be trusted (nothing was scanned)")

    results: list[tuple[str, Any]] = []
    for name, doc in maps:
        try:
            results.append((name, scanner.scan_map(doc, source=sources.get(name), **options)))
        except RedactError as exc:
            failures.append((name, exc.diagnostic(), exc.exit_code))
        except Exception as exc:  # noqa: BLE001 - a bug on one file must not hide the others' findings
            failures.append((name, f"internal error ({type(exc).__name__}); please report it", 3))
    _emit(_render(fmt, *_short_names(results, texts, failures, [*files, *([source] if source else [])])), output)
    for _, diagnostic, _code in failures:
        err(f"error: {diagnostic}")
    leaking = sum(1 for _, res in results if not res.clean)
    codes = [code for _, _, code in failures] + ([1] if leaking else [])
    if leaking:
        err(f"error: findings in {leaking} of {len(results)} map(s)")
    if len(files) > 1:
        err(f"scanned {len(results)} of {len(files)} map(s): {len(results) - leaking} clean, {leaking} with "
            f"findings, {len(failures)} not scanned")
    if codes:
        raise typer.Exit(max(codes))


def _raw_log(data: bytes, name: str) -> str | None:
    """For a file that is not a map: when it is a raw log of a known agent, say so and what makes a
    map of it (None: it is not one)."""
    from redact.formats.detect import FORMATS, looks_like

    fmt = looks_like(data, name) if data else None
    if fmt is None or fmt == "agentplay" or fmt not in FORMATS:
        return None
    what = FORMATS[fmt].split(" (", 1)[0]
    return (f"{name}: this is a raw log ({what}), not a session map; `agentplay-redact redact {name} "
            f"-o MAP.json` makes a map of it, then scan MAP.json")


def _scan_key(key_file: Path | None) -> Any:
    from redact.cli.common import key_file_or_default, load_key

    return load_key(key_file_or_default(key_file), False)


def _checked_source(doc: dict[str, Any], name: str, source: str, report_json: str | None, key: Any,
                    untied: bool) -> bytes:
    """The bytes of `--source` when they are the log the map was made from (its keyed sourceDigest;
    for a map made before maps carried one, the unkeyed sourceSha256 of its `--report`)."""
    from redact.io.read import display_name, parse_json, read_input
    from redact.share.receipt import check_source
    from redact.share.source_tie import map_digest, tied_source

    if map_digest(doc) is None and report_json is not None:
        where = display_name(report_json)
        report = parse_json(read_input(report_json), where)
        found = report.get("sourceSha256") if isinstance(report, dict) else None
        if not isinstance(found, str):
            raise BadInput("this report records no source (sourceSha256) for a map without a "
                           "sourceDigest", where=where)
        if isinstance(report, dict) and report.get("contentHash") != doc.get("contentHash"):
            raise BadInput("this report is about another map (its contentHash differs)", where=where)
        return check_source(source, found, where)
    data = tied_source(doc, source, key, where=name, untied=untied)
    if map_digest(doc) is None:
        err(f"warning: {name}: nothing ties --source to this map (it carries no sourceDigest); "
            "its taint verdict is against a log you chose")
    return data


def _policy_options(policy: str | None) -> dict[str, Any]:
    """The scanner's keywords for `--policy` (none: the shipped default, which keeps no text)."""
    if policy is None:
        return {}
    from redact.policy.load import load_policy

    return load_policy(policy).scan_options()


def _short_names(results: list[tuple[str, Any]], texts: dict[str, bytes], failures: list[tuple[str, str, int]],
                 paths: list[Any]) -> tuple[list[tuple[str, Any]], dict[str, bytes], list[tuple[str, str, int]]]:
    """The scan output names each input by `report_name` (no absolute path, no home folder), in
    its file field and inside every diagnostic."""
    from redact.io.read import display_name, report_name, shorten

    pairs = [(display_name(p), report_name(p)) for p in paths]
    short = dict(pairs)
    return ([(short.get(name, report_name(name)), res) for name, res in results],
            {short.get(name, report_name(name)): text for name, text in texts.items()},
            [(short.get(name, report_name(name)), shorten(diag, pairs), code) for name, diag, code in failures])


def _render(fmt: str, results: list[tuple[str, Any]], texts: dict[str, bytes],
            failures: list[tuple[str, str, int]]) -> str:
    if fmt == "json":
        body: dict[str, Any] = {"files": [{"file": name, **res.as_dict()} for name, res in results]}
        body["notScanned"] = [{"file": name, "error": diagnostic} for name, diagnostic, _ in failures]
        return json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    if fmt == "sarif":
        from audit.sarif import to_sarif

        doc = to_sarif(results, texts=texts, failures=[(name, diagnostic) for name, diagnostic, _ in failures])
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    lines = [line for name, res in results for line in _text(name, res)]
    lines += [f"{name}: not scanned: {diagnostic}" for name, diagnostic, _ in failures]
    return "".join(line + "\n" for line in lines)


def _emit(text: str, output: str | None) -> None:
    from redact.cli.common import Say

    if output in (None, "-"):
        if Say.quiet and not text.lstrip().startswith("{"):  # the text report is a summary: errors only
            return
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_atomic(output, text.encode("utf-8"))
