"""Write-time redaction: the scrub installed as an agent's session-end hook.

    install("claude-code", key_file, vault_dir)   # ~/.claude/settings.json gets a SessionEnd hook
    uninstall("claude-code")                      # and loses it again, the rest as it was

Where each agent calls a program when a session (or a turn) ends, and what it passes:

* Claude Code: `hooks.SessionEnd` in `~/.claude/settings.json`, a list of groups each with a
  `hooks` list of `{"type": "command", "command": ...}`; the hook's standard input is a JSON object
  with `transcript_path`.
* Gemini CLI (`~/.gemini/settings.json`) and Qwen Code, its fork (`~/.qwen/settings.json`): the same
  shape, entries with a `name`; standard input holds `transcript_path` too. The files read with a
  transcript (Claude Code's subagent transcripts) are scrubbed with it.
* Factory Droid: Claude Code's shape in `~/.factory/settings.json`.
* Codex: `hooks.Stop` in `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json`), Claude Code's shape;
  Codex runs it when a turn ends, with `transcript_path` (its rollout) and `session_id` on standard
  input. Codex builds before its hooks (2025) have only `notify` in `config.toml`, a program and
  its arguments, called with one JSON argument per finished turn (`thread-id`, which ends its
  rollout's name: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`): `install(...,
  notify=True)` installs that instead. Either way Codex keeps the rollout open and appends the next
  turn to it, so the hook rewrites it in place (same file, not a renamed copy that Codex would no
  longer write to).

Every other agent has no hook this installer knows (`NO_HOOK` says why and what to do instead:
a scheduled `sweep --scrub`, or the pre-commit entry); `agent()` refuses it with that sentence.

A file the hook cannot scrub because it changed while it was read (the agent still writing) is
left alone and remembered in the vault folder's `pending.json`; the next run of any hook retries it.

Editing a settings file: it must parse (JSON, or TOML for Codex), or nothing is touched; a copy is
kept beside it before the first change (`<name>.agentplay-backup`); only the hook's own entry is
added or removed, and it is recognised by `MARK`. Installing twice changes nothing. A JSON file is
written back with two-space indentation; a TOML file gets two lines at its top, which uninstall removes, so
its bytes come back exactly.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redact.errors import UsageError
from redact.io.write import write_atomic

MARK = "agentplay-redact-sweep-hook"
AGENTS = ("claude-code", "codex", "gemini-cli", "qwen-code", "factory-droid")
PENDING = "pending.json"
MAX_PENDING = 200
_THREAD_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z-]{7,63}")


@dataclass(frozen=True)
class Agent:
    name: str
    settings: str  # relative to the home
    kind: str  # "json-hooks" or "toml-notify"
    event: str = "SessionEnd"


_AGENTS = {
    "claude-code": Agent("claude-code", ".claude/settings.json", "json-hooks"),
    "gemini-cli": Agent("gemini-cli", ".gemini/settings.json", "json-hooks"),
    "codex": Agent("codex", ".codex/hooks.json", "json-hooks", event="Stop"),
    "qwen-code": Agent("qwen-code", ".qwen/settings.json", "json-hooks"),
    "factory-droid": Agent("factory-droid", ".factory/settings.json", "json-hooks"),
}
_NAMED_ENTRIES = frozenset({"gemini-cli", "qwen-code"})
#: Codex before its hooks.json: the one `notify` program of its config.toml
CODEX_NOTIFY = Agent("codex", ".codex/config.toml", "toml-notify")

_INSTEAD = ("sweep its logs on a schedule instead (cron or a systemd timer: `agentplay-redact sweep "
            "--scrub --vault ... --key-file ...`), or block commits of them with the pre-commit entry "
            "`agentplay-redact-sweep` (docs/integration.md)")
#: agents without a session-end hook or notify command this installer can use, and why
NO_HOOK = {
    "cursor": "Cursor keeps every chat in one SQLite store it writes while it runs",
    "opencode": "opencode's hooks are JavaScript plugins, not a command in a settings file",
    "crush": "Crush has no session-end hook",
    "copilot-cli": "Copilot CLI's hooks are set per repository, not for your sessions",
    "kiro": "Kiro's hooks belong to each agent's configuration, not to your sessions",
    "cline": "Cline's hooks are scripts per workspace, not a command in a settings file",
}


def agent(name: str) -> Agent:
    """The hook spec of `name`; an agent with none is refused with what to do instead."""
    if name not in _AGENTS:
        why = NO_HOOK.get(name) or (f"{name} has no session-end hook or notify command"
                                    if _is_format(name) else f"{name!r} is not an agent this tool reads")
        raise UsageError(f"no hook can be installed for {name}: {why}; {_INSTEAD}. "
                         f"Agents with a hook: {', '.join(AGENTS)}")
    return _AGENTS[name]


def _is_format(name: str) -> bool:
    from redact.formats.registry import formats

    return any(f.name == name for f in formats())


def _codex_home(home: Path | None) -> Path:
    """Codex's folder: `$CODEX_HOME` when set (and no home is given), else `~/.codex`."""
    configured = os.environ.get("CODEX_HOME") if home is None else None
    return Path(configured).expanduser() if configured else (Path.home() if home is None else home) / ".codex"


def settings_path(name: str, home: Path | None = None, *, notify: bool = False) -> Path:
    spec = CODEX_NOTIFY if notify and name == "codex" else agent(name)
    if name == "codex":
        return _codex_home(home) / Path(spec.settings).name
    return (Path.home() if home is None else home) / spec.settings


def _program() -> list[str]:
    found = shutil.which("agentplay-redact")
    return [found] if found else [sys.executable, "-m", "redact"]


def hook_argv(name: str, key_file: Path, vault_dir: Path) -> list[str]:
    return [*_program(), "hook", "run", name, "--key-file", str(key_file.expanduser().resolve()),
            "--vault-dir", str(vault_dir.expanduser().resolve())]


def _command(argv: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv) + f" # {MARK}"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the settings file ({type(exc).__name__}); nothing changed", where=str(path)) from None


def _backup(path: Path) -> Path | None:
    if not path.exists():
        return None
    backup = path.with_name(path.name + ".agentplay-backup")
    if not backup.exists():
        shutil.copy2(path, backup)
    return backup


def _parse_json(path: Path, text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"the settings file is not valid JSON (line {exc.lineno}); nothing changed",
                         where=str(path)) from None
    if not isinstance(doc, dict):
        raise UsageError("the settings file is not a JSON object; nothing changed", where=str(path))
    return doc


def _is_ours(entry: Any) -> bool:
    return isinstance(entry, dict) and MARK in str(entry.get("command", ""))


def install(name: str, key_file: Path, vault_dir: Path, *, settings: Path | None = None,
            home: Path | None = None, notify: bool = False) -> str:
    """Add the scrub hook to `name`'s settings; returns what was done, in a sentence. `notify`:
    Codex's `notify` program in config.toml rather than its hooks.json."""
    spec = agent(name)
    notify = notify or (name == "codex" and settings is not None and settings.suffix == ".toml")
    if notify:
        if name != "codex":
            raise UsageError("--notify is Codex's: its config.toml `notify` program, for builds before hooks.json")
        spec = CODEX_NOTIFY
    path = settings or settings_path(name, home, notify=notify)
    text = _read(path)
    argv = hook_argv(name, key_file, vault_dir)
    if spec.kind == "toml-notify":
        return _install_toml(path, text, argv)
    doc = _parse_json(path, text)
    hooks = doc.get("hooks", {})
    if not isinstance(hooks, dict):
        raise UsageError("`hooks` in the settings file is not an object; nothing changed", where=str(path))
    groups = hooks.get(spec.event, [])
    if not isinstance(groups, list):
        raise UsageError(f"`hooks.{spec.event}` is not a list; nothing changed", where=str(path))
    if any(isinstance(g, dict) and any(_is_ours(h) for h in g.get("hooks", []) or []) for g in groups):
        return f"already installed in {path}"
    entry: dict[str, Any] = {"type": "command", "command": _command(argv)}
    if name in _NAMED_ENTRIES:
        entry = {"name": MARK, **entry}
    doc.setdefault("hooks", {}).setdefault(spec.event, []).append({"hooks": [entry]})
    backup = _backup(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
                 mode=_mode(path))
    return f"installed a {spec.event} hook in {path}" + (f" (backup: {backup})" if backup else "")


def uninstall(name: str, *, settings: Path | None = None, home: Path | None = None) -> str:
    """Remove the scrub hook from `name`'s settings (for Codex, from hooks.json and from a
    `notify` an older install put in config.toml); returns what was done, in a sentence."""
    spec = agent(name)
    if name == "codex" and settings is None:
        said = [_uninstall_one(spec, settings_path(name, home)),
                _uninstall_one(CODEX_NOTIFY, settings_path(name, home, notify=True))]
        done = [s for s in said if s.startswith("removed")]
        return "; ".join(done) if done else said[0]
    if name == "codex" and settings is not None and settings.suffix == ".toml":
        spec = CODEX_NOTIFY
    return _uninstall_one(spec, settings or settings_path(name, home))


def _uninstall_one(spec: Agent, path: Path) -> str:
    text = _read(path)
    if text is None:
        return f"nothing to remove: {path} does not exist"
    if spec.kind == "toml-notify":
        return _uninstall_toml(path, text)
    doc = _parse_json(path, text)
    hooks = doc.get("hooks")
    groups = hooks.get(spec.event) if isinstance(hooks, dict) else None
    if not isinstance(groups, list):
        return f"nothing to remove in {path}"
    kept = []
    removed = 0
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            inner = [h for h in group["hooks"] if not _is_ours(h)]
            removed += len(group["hooks"]) - len(inner)
            if not inner:
                continue
            group = {**group, "hooks": inner}
        kept.append(group)
    if not removed:
        return f"nothing to remove in {path}"
    assert isinstance(hooks, dict)
    if kept:
        hooks[spec.event] = kept
    else:
        del hooks[spec.event]
        if not hooks:
            del doc["hooks"]
    _backup(path)
    write_atomic(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), mode=_mode(path))
    return f"removed the hook from {path}"


def _mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return 0o600


def _toml_lines(argv: list[str]) -> str:
    return f"# {MARK}: scrub finished sessions (agentplay-redact hook uninstall codex)\n" \
           f"notify = {json.dumps(argv)}\n"


def _install_toml(path: Path, text: str | None, argv: list[str]) -> str:
    body = text or ""
    try:
        doc = tomllib.loads(body)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"the config file is not valid TOML ({exc}); nothing changed", where=str(path)) from None
    if MARK in body:
        return f"already installed in {path}"
    if "notify" in doc:
        raise UsageError("the config already sets `notify` (Codex runs one program): remove it or add "
                         "`agentplay-redact hook run codex ...` to it by hand; nothing changed", where=str(path))
    new = _toml_lines(argv) + body  # first in the file: a top-level key whatever follows
    tomllib.loads(new)  # still valid, and `notify` is top-level
    backup = _backup(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, new.encode("utf-8"), mode=_mode(path))
    return f"installed `notify` in {path}" + (f" (backup: {backup})" if backup else "")


def _uninstall_toml(path: Path, text: str) -> str:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"the config file is not valid TOML ({exc}); nothing changed", where=str(path)) from None
    lines = text.splitlines(keepends=True)
    kept, skip_next, removed = [], False, False
    for line in lines:
        if skip_next:
            skip_next = False
            if line.startswith("notify = "):
                removed = True
                continue
        if line.startswith(f"# {MARK}:"):
            skip_next = True
            continue
        kept.append(line)
    if not removed:
        return f"nothing to remove in {path}"
    _backup(path)
    write_atomic(path, "".join(kept).encode("utf-8"), mode=_mode(path))
    return f"removed `notify` from {path}"


def hook_targets(name: str, payload: str | None, home: Path | None = None) -> list[str]:
    """The files the hook of `name` scrubs, from what the agent passed it: the transcript the
    payload names, or for Codex the rollout of the payload's thread (none when it names none)."""
    try:
        doc = json.loads(payload or "{}")
    except json.JSONDecodeError:
        return []
    if not isinstance(doc, dict):
        return []
    # snake case from Claude Code, Gemini CLI, Qwen Code and Codex's hooks; camel case from Droid
    transcript = next((doc[k] for k in ("transcript_path", "transcriptPath") if isinstance(doc.get(k), str)), "")
    if name == "codex":  # its hooks name the rollout; its `notify` names only the thread
        if transcript and Path(transcript).expanduser().is_file():
            return [str(Path(transcript).expanduser())]
        return [str(p) for p in codex_rollouts(doc, home)]
    if not transcript:
        return []
    path = Path(transcript).expanduser()
    return [str(path), *(str(c) for c in _companions(path))]


def _companions(path: Path) -> list[Path]:
    """The files read with a transcript (Claude Code's subagent transcripts): scrubbed with it."""
    from redact.errors import BadInput
    from redact.formats.discover import files_read

    try:
        return [c for c in files_read(path) if c.is_file()] if path.is_file() else []
    except (BadInput, OSError):
        return []


def codex_rollouts(doc: dict[str, Any], home: Path | None = None) -> list[Path]:
    """The rollout files of the Codex thread a `notify` payload names (`thread-id`; older builds:
    `session_id`), in the live sessions folder and the archived one, compressed or not."""
    thread = next((doc[k] for k in ("thread-id", "thread_id", "session_id", "session-id")
                   if isinstance(doc.get(k), str)), "")
    if not _THREAD_ID.fullmatch(thread):  # an id only: never a pattern or a path
        return []
    base = _codex_home(home)
    found: list[Path] = []
    for folder in ("sessions", "archived_sessions"):
        for suffix in (".jsonl", ".jsonl.gz"):
            found.extend(p for p in (base / folder).glob(f"**/rollout-*-{thread}{suffix}") if p.is_file())
    return sorted(found)


def pending(vault_dir: Path) -> list[str]:
    """The files an earlier hook run left alone because they changed while read (retried now)."""
    try:
        doc = json.loads((vault_dir / PENDING).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [p for p in doc if isinstance(p, str) and Path(p).is_file()] if isinstance(doc, list) else []


def remember_pending(vault_dir: Path, paths: list[str]) -> None:
    """Keep `paths` (at most MAX_PENDING, newest last) for the next hook run; none: the file goes."""
    target = vault_dir / PENDING
    if not paths:
        target.unlink(missing_ok=True)
        return
    kept = list(dict.fromkeys(paths))[-MAX_PENDING:]
    write_atomic(target, (json.dumps(kept, indent=1) + "\n").encode("utf-8"), private=True)
