"""`agentplay-redact receipt keygen|sign|verify`: Ed25519 receipts for redacted, scanned maps.

`verify` exits 0 when the receipt is valid for the map and the public key, 1 when it is not (changed,
another key, another map, a failed scan), 2 on bad input or usage (a file that cannot be read, a key
that is not Ed25519, a file that is not a receipt).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from redact.cli.common import app, err, out, sub_app
from redact.errors import UsageError

receipt_app = sub_app("Signed receipts: prove a map was redacted and scanned (Ed25519).")
app.add_typer(receipt_app, name="receipt")


@receipt_app.command("keygen")
def receipt_keygen(
    private: Annotated[Path, typer.Argument(help="Where to write the private signing key (PEM, 0600).")],
    public: Annotated[Path | None, typer.Option(
        "--public", help="Where to write the public key (default: PRIVATE.pub).")] = None,
) -> None:
    """Make an Ed25519 key pair for signing receipts; refuses to overwrite either file."""
    from redact.keys.material import load_verify_key, signing_keygen

    public = public if public is not None else private.with_name(private.name + ".pub")
    key_id = signing_keygen(private, public)
    raw = load_verify_key(public).raw.hex()
    err(f"wrote signing key {private} and public key {public} (key id {key_id}; as hex, for "
        f"--pubkey: {raw})")


@receipt_app.command("sign")
def receipt_sign(
    map_file: Annotated[str, typer.Argument(metavar="MAP", help="A redacted map (.json or .json.gz).")],
    signing_key: Annotated[Path, typer.Option("--signing-key", help="Ed25519 private key (PEM, 0600).")],
    report_json: Annotated[str | None, typer.Option(
        "--report-json", help="The map's JSON audit report (`redact --report R.json`): records its "
                              "policy, key fingerprint and the redaction's scanner verdicts.")] = None,
    source: Annotated[str | None, typer.Option(
        "--source", help="The raw log the map was made from: adds the taint layer to the scan (refused "
                         "unless the map's keyed sourceDigest ties it to the map).")] = None,
    key_file: Annotated[Path | None, typer.Option(
        "--key-file", help="The key the map was made with, to check --source against its sourceDigest "
                           "(default: $AGENTPLAY_REDACT_KEY(_FILE), else the default key file).")] = None,
    untied_source: Annotated[bool, typer.Option(
        "--untied-source", help="Take --source for a map with no sourceDigest; the receipt then "
                                "records taint skipped.")] = False,
    output: Annotated[str | None, typer.Option(
        "-o", "--output", help="Receipt file (default: MAP.receipt.json).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print {wrote, receipt} as JSON on stdout.")] = False,
    unsafe_key_permissions: Annotated[bool, typer.Option(
        "--unsafe-key-permissions", help="Accept a signing key file others may read (unsafe).")] = False,
) -> None:
    """Scan MAP again and, when it is clean, write a signed receipt for it (exit 1 on findings)."""
    from redact.keys.material import load_signing_key
    from redact.share.receipt import summary, write_map_receipt

    if output is None:
        if map_file == "-":
            raise UsageError("with MAP from stdin, name the receipt with -o")
        output = map_file + ".receipt.json"
    if unsafe_key_permissions:
        err("warning: --unsafe-key-permissions: accepting a signing key file others may read")
    key = load_signing_key(signing_key, allow_unsafe_permissions=unsafe_key_permissions)
    redaction_key = None
    if source is not None:
        from redact.cli.common import key_file_or_default, load_key

        redaction_key = load_key(key_file_or_default(key_file), False)
    receipt = write_map_receipt(map_file, key, output, report_json=report_json, source=source,
                                key=redaction_key, untied_source=untied_source)
    err(f"wrote {output} ({summary(receipt)})")
    if as_json:
        import json

        sys.stdout.write(json.dumps({"wrote": output, "receipt": receipt}, indent=2, sort_keys=True) + "\n")


@receipt_app.command("verify")
def receipt_verify(
    map_file: Annotated[str, typer.Argument(metavar="MAP", help="The map (.json or .json.gz).")],
    receipt: Annotated[str, typer.Argument(metavar="RECEIPT", help="Its receipt (JSON).")],
    pubkey: Annotated[str, typer.Option("--pubkey", help="The trusted public key: its PEM file, or "
                                                    "the 64 hex characters of its raw bytes.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print {valid, reason, receipt} as JSON on "
                                          "stdout (exit codes unchanged).")] = False,
) -> None:
    """Check RECEIPT against MAP and a trusted public key: exit 0 valid, 1 invalid, 2 bad input."""
    from redact.share.receipt import verify_files

    check = verify_files(map_file, receipt, pubkey)
    if as_json:
        import json

        signed = check.receipt if check.ok else None  # only a receipt whose signature held is quoted
        sys.stdout.write(json.dumps({"valid": check.ok, "reason": check.reason, "receipt": signed},
                                    indent=2, sort_keys=True) + "\n")
        sys.stdout.flush()
    if not check.ok:
        err(f"invalid: {check.reason}")
        raise typer.Exit(1)
    if not as_json:
        out(f"valid: {check.reason}\n")
