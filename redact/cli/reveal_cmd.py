"""`agentplay-redact reveal MAP --vault PATH --key-file K [-o OUT]`: the map with your names back.

For the map's owner, locally: it prints (or writes, mode 0600) the map with every token the vault
holds replaced by its original. Exit 2, with one line, on a wrong key or a changed vault.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from redact.cli.common import app, err, load_key
from redact.errors import UsageError
from redact.io.write import check_output_path, write_atomic


@app.command("reveal")
def reveal(
    map_file: Annotated[str, typer.Argument(metavar="MAP", help="A map made with --vault (or - for stdin).")],
    vault: Annotated[Path, typer.Option("--vault", help="The vault written next to it.")],
    key_file: Annotated[Path | None, typer.Option(
        "--key-file", help="The key the map was made with (also $AGENTPLAY_REDACT_KEY_FILE).")] = None,
    output: Annotated[str | None, typer.Option(
        "-o", "--output", help="Write the revealed map here (mode 0600) instead of stdout.")] = None,
    unsafe_key_permissions: Annotated[bool, typer.Option(
        "--unsafe-key-permissions", help="Accept a key file readable by others (unsafe).")] = False,
) -> None:
    """Show the map with your own names back, from the encrypted vault (never upload the result)."""
    from redact.io.read import display_name, parse_json, read_input
    from redact.share.reveal import reveal_map
    from redact.keys.vault import read_vault

    if output not in (None, "-"):
        check_output_path(output, [map_file, vault], private=True)
    key = load_key(key_file, unsafe_key_permissions)
    if key is None:
        raise UsageError("reveal needs the key the map was made with (--key-file)")
    opened = read_vault(vault, key)
    where = display_name(map_file)
    doc = parse_json(read_input(map_file), where)
    if not isinstance(doc, dict):
        raise UsageError("MAP is not a session map", where=where)
    if opened.content_hash and doc.get("contentHash") != opened.content_hash:
        err("warning: this vault was written for another map; tokens made with the same key are "
            "revealed all the same")
    result = reveal_map(doc, opened)
    text = (json.dumps(result.session_map, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    missing = sum(result.unknown.values())
    note = f"revealed {sum(result.replaced.values())} token(s)" + (
        f"; {missing} token(s) are not in this vault" if missing else "")
    if output in (None, "-"):
        sys.stdout.buffer.write(text)
        sys.stdout.buffer.flush()
    else:
        write_atomic(output, text, private=True, inputs=[map_file, vault])
        note += f"; wrote {output} (mode 0600: it holds your names)"
    err(note)
