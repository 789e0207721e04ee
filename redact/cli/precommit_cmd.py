"""`agentplay-redact precommit FILE...`: what the shipped pre-commit hook runs on the staged files.

Each file is sorted by its content, never by its name (docs/integration.md):
- a session map (JSON or gzip JSON whose `schema` is agentplay/v1) is scanned: findings block;
- a raw agent log (a transcript, a rollout, a store: what the format sniffers recognise) blocks,
  unless it is a native scrub this tool wrote: one the native leak scanner proves (nothing but
  shapes, vocabulary, hashes and declared identifiers, as `redact --to native` writes);
- anything else (other JSON, code, text) is not this hook's business and passes.
Exit 0 when every file passes, 1 when one is blocked, 2 when one cannot be read.
"""
from __future__ import annotations

from typing import Annotated, Any

import typer

from redact.cli.common import app, err



@app.command("precommit")
def precommit(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help="The staged files (pre-commit passes them).")],
) -> None:
    """Block staged session maps that are not proven clean and raw agent logs (pre-commit's entry)."""
    from redact.errors import RedactError
    from redact.io.read import display_name, read_input

    worst, blocked = 0, 0
    for path in files:
        name = display_name(path)
        try:
            data = read_input(path)
            verdict = _verdict(data, name, path)
        except RedactError as exc:
            err(f"error: {exc.diagnostic()}")
            worst = max(worst, exc.exit_code)
            continue
        if verdict is not None:
            err(f"error: {name}: {verdict}")
            worst, blocked = max(worst, 1), blocked + 1
    if blocked:
        err(f"checked {len(files)} staged file(s): {blocked} blocked (docs/integration.md, pre-commit)")
    elif not worst:
        err(f"checked {len(files)} staged file(s): clean (no unproven map, no raw agent log)")
    if worst:
        raise typer.Exit(worst)


def _verdict(data: bytes, name: str, path: str) -> str | None:
    """Why the file blocks the commit (None: it passes)."""
    from redact.formats.detect import FORMATS, looks_like

    doc = _json(data)
    if isinstance(doc, dict) and doc.get("schema") in ("agentplay/v1", "entelligence.session-map/v1"):
        return _map_verdict(doc, name)
    store = _store_agent(data, path)
    if store is not None:
        return (f"a session store of {store} (a raw agent log); commit maps instead: "
                f"`agentplay-redact {name} --out-dir maps/`")
    fmt = looks_like(data, name)
    if fmt is None or fmt == "agentplay" or fmt not in FORMATS:
        return None
    if _natively_scrubbed(data, fmt):
        return None
    what = FORMATS[fmt].split(" (", 1)[0]
    return (f"a raw agent log ({what}), not scrubbed by this tool; commit a map "
            f"(`agentplay-redact {name} -o {name}.map.json.gz`) or a native scrub "
            f"(`agentplay-redact {name} --to native -o FILE`) instead")


def _json(data: bytes) -> Any:
    import orjson

    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return None


def _map_verdict(doc: dict[str, Any], name: str) -> str | None:
    from audit.scan import check_map_shape, scan_map

    check_map_shape(doc, name)
    result = scan_map(doc)
    if result.clean:
        return None
    rules = sorted({f.rule for f in result.findings})
    return (f"a session map the leak scanner does not prove clean ({len(result.findings)} finding(s): "
            f"{', '.join(rules[:5])}); `agentplay-redact scan {name}` shows them")


def _store_agent(data: bytes, path: str) -> str | None:
    """The agent whose SQLite session store `path` is (None: not a store of a known agent)."""
    from pathlib import Path

    from redact.io.store import SQLITE_HEADER

    if not data.startswith(SQLITE_HEADER):
        return None
    from redact.formats.stores import sessions_of

    try:
        return "an agent" if sessions_of(Path(path)) else None
    except Exception:  # noqa: BLE001 - a SQLite file no store reader knows is not this hook's business
        return None


def _natively_scrubbed(data: bytes, fmt: str) -> bool:
    """Whether the native leak scanner proves `data` under some path mode: what `--to native` writes."""
    from audit.native import scan_native
    from redact.errors import BadInput
    from redact.options import MODES  # a native scrub written under any path mode, proven under one, is scrubbed

    for mode in MODES:
        try:
            if scan_native(data, fmt, path_mode=mode).clean:
                return True
        except BadInput:
            return False  # no native table for this format: never scrubbed by this tool
    return False
