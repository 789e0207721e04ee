"""agentplay-redact: redact coding-agent logs into agentplay/v1 session maps, and prove nothing leaked.

The stable Python API is the four functions below (and `load_key_file` to load a key, and
`plan_batch` to list a batch's sessions and map names as `--out-dir` does). Everything
else in the package may change between releases. Errors are subclasses of
`redact.errors.RedactError`; each carries `exit_code` (1: the scanner found a leak, 2: bad input or
usage) and `diagnostic()`, one line that names a place and never a value.

    import redact

    key = redact.load_key_file("~/.config/agentplay/key")
    result = redact.redact_file("session.jsonl", "map.json.gz", policy="public", key=key)
    result.report.content_hash
    check = redact.scan("map.json.gz")
    check.clean, check.verdicts
    report, session_map = redact.audit("map.json.gz")
    sessions, unusable = redact.plan_batch(["~/.claude/projects"], "maps/", key=key)

docs/api.md is generated from these docstrings by `scripts/gen_api_docs.py`.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from audit.scan import ScanResult
    from redact.api import Result
    from redact.keys.material import Key
    from redact.policy.load import EffectivePolicy



class _OldPaths:
    """Asked last for a `redact.*` module nothing else found: an old path (before 0.3) is handed to
    redact/moved.py, loaded only then, which warns and gives the module at its new place."""

    @staticmethod
    def find_spec(fullname: str, path: Any = None, target: Any = None) -> Any:
        if not fullname.startswith("redact."):
            return None
        from redact.moved import find_spec

        return find_spec(fullname)


import sys as _sys  # noqa: E402

if not any(isinstance(f, _OldPaths) for f in _sys.meta_path):
    _sys.meta_path.append(_OldPaths())

__all__ = ["redact_file", "redact_bytes", "scan", "audit", "load_key_file", "plan_batch"]


def redact_file(path: str | Path, out: str | Path | None = None, *,
                policy: str | EffectivePolicy = "default", key: Key | None = None, mode: str | None = None,
                input_format: str | None = None, skip_bad_lines: bool = False,
                link_scope: str | None = None) -> Result:
    """Redact the file at `path` (a session map or a raw agent log; `-` reads stdin) into `out`.

    The input's format is detected from its content unless `input_format` names it (see
    `agentplay-redact formats`). `policy` is a preset name (`default`, `internal`, `public`), a
    policy TOML path, or a loaded policy; `mode` (`relative`, `dirs_only`, `hashed`) overrides its
    path mode; `key` (from `load_key_file`) makes the keyed tokens of hashed mode and hashed
    identifiers. A raw Claude Code transcript's subagent transcripts are found next to it. With
    `skip_bad_lines`, lines of a raw log that are not JSON objects are skipped (and counted in the
    report's warnings) instead of failing the input. `link_scope` (`global`, `session` or
    `dataset:NAME`) overrides the policy's: how far keyed tokens link across maps (docs/policies.md);
    the report records it (`linkScope`).

    The leak scanner checks the output before anything is written. When `out` is given the map is
    written there atomically (gzip when the name ends in `.gz`); otherwise nothing is written. A
    name the scanner would flag (a sentence-like file name, a secret-shaped repo name) is replaced
    by a token, a hash or nothing instead of kept, and counted in `report.fallbacks`.

    Returns a `Result`: `data` (the map as JSON bytes), `session_map` (the map as a dict) and
    `report` (what was kept, hashed and dropped, the scanner's verdicts, the contentHash).
    Raises `LeakFound` (exit code 1) when the scanner still finds anything (its message names the
    rules and, when one passes, the command to use instead), and `BadInput`,
    `UsageError`, `PolicyError` or `KeyError_` (exit code 2) otherwise.
    """
    from redact import api

    return api.redact_file(path, out, policy=policy, key=key, mode=mode, input_format=input_format,
                           skip_bad_lines=skip_bad_lines, link_scope=link_scope)


def redact_bytes(data: bytes, *, name: str = "<bytes>", policy: str | EffectivePolicy = "default",
                 key: Key | None = None, mode: str | None = None, input_format: str | None = None,
                 skip_bad_lines: bool = False, link_scope: str | None = None) -> Result:
    """Redact `data`, one input held in memory (uncompressed bytes); nothing is read or written.

    `name` is how errors and the report name the input. The other options (`policy`, `key`,
    `mode`, `input_format`, `skip_bad_lines`, `link_scope`) are `redact_file`'s, and so are the result and the
    errors. Pure: the same bytes, policy and key give byte-identical `Result.data`.
    """
    from redact import api

    return api.redact_bytes(data, name=name, policy=policy, key=key, mode=mode, input_format=input_format,
                            skip_bad_lines=skip_bad_lines, link_scope=link_scope)


def scan(session_map: str | Path | dict[str, Any], *, source: str | Path | bytes | None = None) -> ScanResult:
    """Run the leak scanner on `session_map`: a file path (`.json` or `.json.gz`, `-` for stdin) or a
    parsed map (a dict).

    `source` (the raw log the map was made from, as a path or bytes) adds the taint layer, which
    searches the map for any distinctive piece of the log's text. Returns a `ScanResult`: `clean`,
    `verdicts` (layer -> pass, fail or skipped), `findings` (layer, rule, JSON pointer and a masked
    excerpt, never a whole value) and `identifiers` (the identifiers still in clear, by category).
    Raises `BadInput` when the input is not an agentplay/v1 map. It does not raise on findings.
    """
    from audit.scan import check_map_shape, scan_map
    from redact.io.read import display_name, parse_json, read_input

    if isinstance(session_map, dict):
        doc = session_map
        check_map_shape(doc)
    else:
        where = display_name(session_map)
        doc = parse_json(read_input(session_map), where)
        check_map_shape(doc, where)
    raw = source if isinstance(source, bytes) or source is None else read_input(source)
    return scan_map(doc, source=raw)


def audit(path: str | Path, *, source: str | Path | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The pre-upload audit report of the map at `path` (gzip or not, `-` for stdin), and the map itself.

    The report is a JSON-ready dict: path mode, key fingerprint and policy when recorded, events by
    kind, every identifier still in clear by category, what the map carries that the format does not
    define, the scanner's verdict per layer with its masked findings, and whether the map's
    contentHash matches its content. `source` (the raw log) adds the scanner's taint layer. Render
    it with `audit.render.render(report, session_map, "md")` (or `"json"`, `"html"`).
    """
    from audit.report_of_map import audit_file

    return audit_file(path, source_log=source)


def load_key_file(path: str | Path, *, allow_unsafe_permissions: bool = False) -> Key:
    """Load the key at `path`, written by `agentplay-redact keygen` (hex text; the file must be mode 0600).

    A file group or others can read is refused unless `allow_unsafe_permissions`. The key is never
    shown: its `repr` and every report name it only by its fingerprint.
    """
    from redact.keys import material as keys

    return keys.load_key_file(Path(path).expanduser(), allow_unsafe_permissions=allow_unsafe_permissions)


def plan_batch(inputs: Sequence[str | Path], out_dir: str | Path, *, policy: str | EffectivePolicy = "default",
               key: Key | None = None, link_scope: str | None = None, skip_existing: bool = False,
               ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The sessions `agentplay-redact INPUT... --out-dir OUT_DIR` redacts, and the map each goes to.

    `inputs` are files, folders and glob patterns, as on the command line. A folder is listed as
    batch mode lists it: a home folder at every place an agent keeps sessions (docs/formats.md), any
    other folder by each format's layout and then by content; a Claude Code project folder or
    `~/.claude/projects` tree gives each main transcript once (its subagent transcripts are read with
    it by `redact_file`, not listed on their own), a Codex sessions tree each rollout, a store one
    `STORE#SESSION` per session. `out_dir` is made when missing and never searched. Map names are
    the CLI's, in the same order: a name the harness chose (a session id) kept, any other a digest
    (keyed by `key` when given, under `policy`'s link scope or `link_scope`; every name, under a
    policy that hashes ids), a name taken twice suffixed `-2`, `-3`...; a name that is an input of
    the batch or a file read with one (or a link to one) is taken too. `skip_existing`: an input
    whose map is already in `out_dir` is listed in `unusable` as skipped.

    Returns `(sessions, unusable)`: `sessions` is a list of `(input path, map path)` pairs, each to be
    made by `redact_file(input, map, ...)` with the same `policy`, `key` and `link_scope` (anywhere,
    in any order: the bytes are the CLI's); `unusable` is a list of `(argument, message)` for each
    argument or file that names no session (a folder without sessions, a pattern matching nothing,
    a file skipped or unreadable), the message one line that names it. Raises `UsageError` when `out_dir` cannot be made.
    """
    from redact.batch import plan

    return plan.plan_batch(inputs, out_dir, policy=policy, key=key, link_scope=link_scope,
                           skip_existing=skip_existing)
