"""`agentplay-redact explain IN [--field POINTER] [--json]`: which rule made each output field.

Runs the redaction as `redact` would (nothing is written) and prints, per output field (grouped by
pointer pattern, or for one `--field`), its field class, the policy key or contract rule that decided
it, and the outcome; for a raw log, the input fields its reader read (from the format's table).
Never a value. Exit 0; 1 when the scanner blocks the redaction; 2 on bad input,
or when `--field` names no field of the output and nothing was dropped there.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from redact.cli.common import InputFormat, Mode, app, input_format_of, load_key, value
from redact.errors import UsageError

if TYPE_CHECKING:
    from redact.share.explain import Explanation


def _text(exp: Explanation, pointer: str | None) -> list[str]:
    fp = exp.key_fingerprint or "none"
    scope = f", tokens link {exp.link_scope}" if exp.link_scope else ""
    lines = [(f"policy {exp.policy_name} ({exp.policy_source}, hash {exp.policy_hash[:16]}); "
              f"{exp.path_mode} paths; key fingerprint {fp}{scope}")]
    if pointer is not None:
        for f in exp.select(pointer):
            lines.append(f"{f.pointer}  [{f.field_class}]  {f.rule}  ->  {f.outcome}")
        for d in exp.dropped_at(pointer):
            lines.append(f"{d.pattern}  dropped x{d.count}  {d.rule}")
        return lines
    for f, n in exp.grouped():
        lines.append(f"{f.pointer}  [{f.field_class}]  x{n}  {f.rule}  ->  {f.outcome}")
    if exp.dropped:
        lines.append("not in the output:")
        for d in exp.dropped:
            lines.append(f"  {d.pattern}  dropped x{d.count}  {d.rule}")
    if exp.input_fields:
        lines.append(f"read from the {exp.input_format} input (its table, as in docs/formats.md):")
        for i in exp.input_fields:
            lines.append(f"  {i.location}  [{i.field_class}]  {i.use}")
    return lines


@app.command("explain")
def explain(
    input: Annotated[str, typer.Argument(metavar="IN", help="What you would redact (a map or a raw log).")],
    pointer: Annotated[str | None, typer.Option(
        "--field", help="One output field (JSON pointer, e.g. /events/3/verb; * matches any index).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
    mode: Annotated[Mode | None, typer.Option("--mode", help="As for redact.")] = None,  # type: ignore[valid-type]
    key_file: Annotated[Path | None, typer.Option("--key-file", help="As for redact.")] = None,
    policy: Annotated[str, typer.Option("--policy", help="As for redact.")] = "default",
    input_format: Annotated[InputFormat | None, typer.Option(  # type: ignore[valid-type]
        "--input-format", help="As for redact.")] = None,
    old_format: Annotated[InputFormat | None, typer.Option(  # type: ignore[valid-type]
        "--format", hidden=True, help="Deprecated spelling of --input-format.")] = None,
    link_scope: Annotated[str | None, typer.Option("--link-scope", help="As for redact.")] = None,
    unsafe_key_permissions: Annotated[bool, typer.Option(
        "--unsafe-key-permissions", help="Accept a key file readable by others (unsafe).")] = False,
) -> None:
    """Say, for each output field, which rule of which policy produced it (never a value)."""
    from redact.share.explain import explain_file

    fmt = input_format_of(input_format, old_format)
    key = load_key(key_file, unsafe_key_permissions)
    exp = explain_file(input, policy=policy, mode=value(mode), key=key, input_format=fmt,
                       link_scope=link_scope)
    if pointer is not None and not exp.select(pointer) and not exp.dropped_at(pointer):
        raise UsageError("no field of the output is at this pointer, and nothing was dropped there",
                         where=pointer)
    if as_json:
        fields = exp.select(pointer) if pointer is not None else exp.fields
        dropped = exp.dropped_at(pointer) if pointer is not None else exp.dropped
        body = {**exp.header(), "fields": [f.as_dict() for f in fields],
                "dropped": [d.as_dict() for d in dropped]}
        if pointer is None and exp.input_fields:
            body["inputFields"] = [i.as_dict() for i in exp.input_fields]
        sys.stdout.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
        return
    for line in _text(exp, pointer):
        sys.stdout.write(line + "\n")
