"""One run with its side outputs: the map, its audit report (written when the scanner blocks the
map too, so the user can see why), the local reveal vault and a signed receipt.

    done = redact_with_outputs("s.jsonl", "map.json.gz", Outputs(report="r.html", vault="m.vault"),
                               policy="public", key=key)
    done.result, done.vault_tokens, done.wrote   # what was written, in order

Everything a side output needs is checked and loaded before the input is read (an unsupported
report extension, a signing key that does not load, a vault path that would replace a file), so a
bad option fails with nothing written. No side output lands on a file the run reads. The CLI only
prints what this returns.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redact.errors import LeakFound
from redact.io.write import check_output_path


@dataclass(frozen=True)
class Outputs:
    """The side outputs asked for (None: not asked)."""

    report: Path | None = None
    receipt: Path | None = None
    signing_key: Path | None = None
    vault: Path | None = None
    unsafe_key_permissions: bool = False  # for the signing key


@dataclass
class Done:
    result: Any
    wrote: list[tuple[str, Path]] = field(default_factory=list)  # (what, where), in the order written
    vault_tokens: int = 0


def read_with(input: str | Path) -> list[str | Path]:
    """The input and every file read with it (a store's -wal, a subagent transcript, a workspace
    file, a storage tree's messages and parts): no side output may replace one."""
    if str(input) == "-":
        return [input]
    from redact.formats.discover import files_read
    from redact.io.store import store_of_side

    store = store_of_side(str(input)) or Path(input)
    if not store.is_file():  # a FIFO, a device, a folder: never opened here (reading refuses it, by name)
        return [input, store]
    return [input, store, *files_read(store)]


def redact_with_outputs(input: str | Path, output: str | Path, outputs: Outputs, **settings: Any) -> Done:
    """`redact.api.redact_file(input, output, **settings)` with the side outputs `outputs` asks for.

    On LeakFound the report (when asked for) is written with the findings before the error goes on
    up; nothing else is written then."""
    from redact import api

    reads: list[str | Path] = [*read_with(input), output]
    if outputs.report is not None:  # the renderers load only when a report is asked for
        from audit.render import format_for_path

        format_for_path(outputs.report)  # an unsupported extension fails now, before anything is written
        check_output_path(outputs.report, reads)
    signer = None
    if outputs.signing_key is not None:
        from redact.keys.material import load_signing_key

        if outputs.receipt is None:
            raise ValueError("a signing key without a receipt path")  # RunOptions refuses it first
        check_output_path(outputs.receipt, reads)
        signer = load_signing_key(outputs.signing_key, allow_unsafe_permissions=outputs.unsafe_key_permissions)
    recorder = None
    if outputs.vault is not None:
        from redact.keys.recorder import TokenLog
        from redact.keys.vault import check_vault_path

        check_output_path(outputs.vault, reads)
        check_vault_path(outputs.vault, reads)
        recorder = TokenLog()
    done = Done(None)
    try:
        done.result = api.redact_file(input, output, recorder=recorder, **settings)
    except LeakFound as exc:
        if outputs.report is not None and exc.report is not None:
            _write_report(exc.report, exc.session_map, outputs.report)
        raise
    result = done.result
    if outputs.report is not None:
        _write_report(result.report, result.session_map, outputs.report)
        done.wrote.append(("report", outputs.report))
    key = settings.get("key")
    if recorder is not None and outputs.vault is not None and key is not None:
        from redact.keys.vault import write_vault

        done.vault_tokens = write_vault(recorder, key, outputs.vault, content_hash=result.report.content_hash)
        done.wrote.append(("vault", outputs.vault))
    if signer is not None and outputs.receipt is not None:
        from redact.share.receipt import write_receipt

        write_receipt(result, signer, outputs.receipt)
        done.wrote.append(("receipt", outputs.receipt))
    return done


def _write_report(report: Any, session_map: Any, path: Path) -> None:
    from audit.render import write_report

    write_report(report, session_map, path)
