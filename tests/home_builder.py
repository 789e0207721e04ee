"""A home folder built from the shared corpus, each agent's files where that agent writes them
(../shared/corpus/README.md says where), for the home-wide discovery tests.

    units = build_home(corpus, home)   # [Unit(agent, main, companions)], one per session file placed

Each `Unit` is one file a user could give on its own (a Claude Code main transcript, a store, a
Gemini CLI chat), with the files placed beside it that are read with it (its subagent
transcripts); what the home-wide run must produce is what these files give one by one. Files that
are not sessions (checkpoints, prompt logs, Aider's input history, Continue's index) are placed
too, where the agent writes them: discovery must pass over them. The corpus is never copied into
the repository; the home lives in a test's temporary folder.
"""
from __future__ import annotations

import re
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_CC_MAIN = re.compile(rf"(?P<proj>.*?)_(?P<sid>{_UUID})\.jsonl")
_CC_SUB = re.compile(rf"(?P<proj>.*?)_(?P<sid>{_UUID})_subagents_(?P<agent>agent-[^.]+)\.jsonl")
_CC_FLAT = re.compile(r"(?P<proj>.*?)_(?P<agent>agent-[0-9a-f]+)\.jsonl")
_CC_OTHER = re.compile(r"(?P<proj>.*)_(?P<name>[^_]+)\.jsonl")


@dataclass
class Unit:
    """One session file placed in the home, and the files read with it."""

    agent: str
    main: Path
    companions: list[Path] = field(default_factory=list)
    #: the sessions the file holds, counted here from the file itself (a store holds several)
    sessions: int = 1


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9-]+", "-", text).strip("-")[:60] or "project"


def _put(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return dst


def _claude(corpus: Path, home: Path, units: list[Unit]) -> None:
    root = home / ".claude" / "projects"
    files = sorted((corpus / "claude-code").glob("*.jsonl"))
    mains: dict[str, Unit] = {}
    subs: list[tuple[re.Match[str], Path]] = []
    for f in files:
        if m := _CC_SUB.fullmatch(f.name):
            subs.append((m, f))
        elif m := _CC_MAIN.fullmatch(f.name):
            unit = Unit("claude-code", _put(f, root / _safe(m["proj"]) / f"{m['sid']}.jsonl"))
            mains[m["sid"]] = unit
            units.append(unit)
        elif m := _CC_FLAT.fullmatch(f.name):
            # a flat subagent transcript: beside its main (it names the session it belongs to)
            units.append(Unit("claude-code", _put(f, root / _safe(m["proj"]) / f"{m['agent']}.jsonl")))
        elif m := _CC_OTHER.fullmatch(f.name):
            units.append(Unit("claude-code", _put(f, root / _safe(m["proj"]) / f"{_safe(m['name'])}.jsonl")))
    for m, f in subs:
        main = mains.get(m["sid"])
        if main is None:  # its main is not in the corpus: a transcript of its own
            units.append(Unit("claude-code", _put(f, root / _safe(m["proj"]) / f"{m['agent']}.jsonl")))
            continue
        main.companions.append(_put(f, main.main.parent / m["sid"] / "subagents" / f"{m['agent']}.jsonl"))


def _codex(corpus: Path, home: Path, units: list[Unit]) -> None:
    for i, f in enumerate(sorted((corpus / "codex").glob("*rollout-*"))):
        name = f.name[f.name.index("rollout-"):]
        date = re.search(r"_sessions_(\d{4})_(\d{2})_(\d{2})_rollout-", f.name)
        base = home / ".codex" / ("archived_sessions" if i % 5 == 4 else "sessions")
        where = base.joinpath(*date.groups()) if date else base
        units.append(Unit("codex", _put(f, where / name)))


def _tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, dirs_exist_ok=True)


def _gemini(corpus: Path, home: Path, units: list[Unit]) -> None:
    tmp = home / ".gemini" / "tmp"
    for slug in sorted(p for p in (corpus / "gemini-cli").iterdir() if p.is_dir()):
        for project in sorted(p for p in slug.iterdir() if p.is_dir()):
            _tree(project, tmp / project.name)
    for chat in sorted(tmp.glob("*/chats/session-*.json*")):
        units.append(Unit("gemini-cli", chat))


def _copilot_cli(corpus: Path, home: Path, units: list[Unit]) -> None:
    for slug in sorted(p for p in (corpus / "copilot-cli").iterdir() if p.is_dir()):
        for item in sorted(slug.iterdir()):
            if item.is_dir():
                _tree(item, home / ".copilot" / "session-state" / item.name)
                log = home / ".copilot" / "session-state" / item.name / "events.jsonl"
                workspace = log.parent / "workspace.yaml"
                units.append(Unit("copilot-cli", log, [workspace] if workspace.is_file() else []))
            elif item.suffix == ".jsonl":
                units.append(Unit("copilot-cli", _put(item, home / ".copilot" / "history-session-state" / item.name)))


def _vscode(corpus: Path, home: Path, units: list[Unit]) -> None:
    for i, f in enumerate(sorted((corpus / "copilot-vscode").glob("*.json"))):
        stem = re.search(_UUID, f.name)
        name = stem.group() if stem else f"{i:08x}-0000-4000-8000-{i:012x}"
        app = ("Code", "Code - Insiders", "VSCodium")[i % 3]
        units.append(Unit("copilot-vscode", _put(f, home / ".config" / app / "User" / "workspaceStorage" /
                                                 f"{i:032x}" / "chatSessions" / f"{name}.json")))


def _cline(corpus: Path, home: Path, units: list[Unit]) -> None:
    bases = (home / ".config" / "Code" / "User" / "globalStorage" / "saoudrizwan.claude-dev",
             home / "Library" / "Application Support" / "Code" / "User" / "globalStorage" / "rooveterinaryinc.roo-cline",
             home / "AppData" / "Roaming" / "VSCodium" / "User" / "globalStorage" / "kilocode.kilo-code")
    for i, f in enumerate(sorted((corpus / "cline").glob("*ui_messages.json"))):
        units.append(Unit("cline", _put(f, bases[i % 3] / "tasks" / f"{1700000000000 + i}" / "ui_messages.json")))


def _cursor(corpus: Path, home: Path, units: list[Unit]) -> None:
    for f in sorted((corpus / "cursor").glob("*.vscdb")):
        if "globalStorage" in f.name:
            dst = home / ".config" / "Cursor" / "User" / "globalStorage" / "state.vscdb"
        else:
            dst = home / "Library" / "Application Support" / "Cursor" / "User" / "workspaceStorage" / \
                f.name.split("workspaceStorage_")[1].split("_")[0] / "state.vscdb"
        units.append(Unit("cursor", _put(f, dst)))


def _opencode(corpus: Path, home: Path, units: list[Unit]) -> None:
    for slug in sorted(p for p in (corpus / "opencode").iterdir() if p.is_dir()):
        data = home / ".local" / "share" / "opencode"
        units.append(Unit("opencode", _put(slug / "opencode.db", data / "opencode.db")))
        if (slug / "log" / "opencode.log").is_file():
            _put(slug / "log" / "opencode.log", data / "log" / "opencode.log")
        if (slug / "state" / "prompt-history.jsonl").is_file():
            _put(slug / "state" / "prompt-history.jsonl", home / ".local" / "state" / "opencode" / "prompt-history.jsonl")


def _projects(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Aider and Crush keep their files in the project: `~/code/<project>/...`, `~/src/github.com/...`."""
    for i, f in enumerate(sorted((corpus / "aider").iterdir())):
        project = home / ("code" if i % 2 else "src/github.com/someone") / _safe(f.name.split("__.aider")[0])
        name = ".aider" + f.name.split("__.aider", 1)[1]
        placed = _put(f, project / name)
        if name == ".aider.chat.history.md":
            units.append(Unit("aider", placed))
    for f in sorted((corpus / "crush").glob("*crush.db")):
        project = home / "work" / _safe(f.name.split("__.crush")[0])
        units.append(Unit("crush", _put(f, project / ".crush" / "crush.db")))


def _json_homes(corpus: Path, home: Path, units: list[Unit]) -> None:
    for f in sorted((corpus / "amp").glob("*threads_T-*.json")):
        units.append(Unit("amp", _put(f, home / ".local" / "share" / "amp" / "threads" / f.name.split("threads_")[1])))
    for f in sorted((corpus / "continue").glob("*.json*")):
        tail = f.name.split("__.continue_", 1)[1]
        if tail.startswith("sessions_"):
            dst = _put(f, home / ".continue" / "sessions" / tail[len("sessions_"):])
            if re.fullmatch(rf"{_UUID}\.json", dst.name):
                units.append(Unit("continue-dev", dst))
        elif tail.startswith("dev_data_"):
            _put(f, home / ".continue" / "dev_data" / "0.2.0" / tail.rsplit("_", 1)[1])
    for f in sorted((corpus / "openhands").glob("*_events.json")):
        conversation = f.name.rsplit("_events.json", 1)[0].rsplit("_", 1)[1]
        units.append(Unit("openhands", _put(f, home / ".openhands" / "conversations" / conversation / "events.json")))


def _rows(db: Path, query: str) -> int:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute(query).fetchone()[0])
    finally:
        con.close()


def _kiro(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Kiro CLI's store (`~/.kiro/sessions/cli/<uuid>.json` + `.jsonl` + `.lock`): one session per
    uuid. The `/save` ConversationState files have no fixed place (the user names the file), and the
    v1 engine's `data.sqlite3` in the corpus holds no conversation: neither is placed."""
    store = home / ".kiro" / "sessions" / "cli"
    for slug in sorted(p for p in (corpus / "kiro").iterdir() if p.is_dir()):
        for f in sorted((slug / ".kiro" / "sessions" / "cli").iterdir()):
            placed = _put(f, store / f.name)
            if f.suffix == ".json":
                log = store / (f.stem + ".jsonl")
                units.append(Unit("kiro", placed, [log] if (slug / ".kiro" / "sessions" / "cli" / log.name).is_file()
                                  else []))


def _pi(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Pi: `~/.pi/agent/sessions/<cwd slug>/<time>_<id>.jsonl`; the corpus's fixtures of Pi's own
    repository go under a slug of their own."""
    root = home / ".pi" / "agent" / "sessions"
    for f in sorted((corpus / "pi").glob("*.jsonl")):
        if "_sessions_" in f.name:
            slug, name = f.name.split("_sessions_", 1)[1].split("--_", 1)
            dst = root / (slug + "--") / name
        else:
            dst = root / "--home-dev-pi-mono--" / f"2026-01-01T00-00-00-000Z_{_safe(f.stem)}.jsonl"
        units.append(Unit("pi", _put(f, dst)))


def _hermes(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Hermes Agent: `~/.hermes/sessions/<file>` and the store `~/.hermes/state.db` (with its -wal)."""
    for f in sorted((corpus / "hermes").glob("*.hermes_sessions_*")):
        units.append(Unit("hermes", _put(f, home / ".hermes" / "sessions" / f.name.split(".hermes_sessions_", 1)[1])))
    for db in sorted((corpus / "hermes").glob("*/.hermes/state.db")):
        for part in sorted(db.parent.glob("state.db*")):
            _put(part, home / ".hermes" / part.name)
        copy = home / ".hermes" / "state.db"
        units.append(Unit("hermes", copy, sessions=_rows(copy, "SELECT count(*) FROM sessions")))


def _qwen(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Qwen Code: `~/.qwen/projects/<slug>/chats/<id>.jsonl`, and `~/.qwen/tmp/<hash>/` (chats,
    checkpoints, `logs.json`: only the chats are sessions)."""
    for f in sorted((corpus / "qwen-code").iterdir()):
        if ".qwen_projects_" in f.name:
            slug, name = f.name.split(".qwen_projects_", 1)[1].split("_chats_", 1)
            units.append(Unit("qwen-code", _put(f, home / ".qwen" / "projects" / slug / "chats" / name)))
        elif ".qwen_tmp_" in f.name:
            digest, rest = f.name.split(".qwen_tmp_", 1)[1].split("_", 1)
            if rest.startswith("chats_"):
                units.append(Unit("qwen-code", _put(f, home / ".qwen" / "tmp" / digest / "chats" / rest[len("chats_"):])))
            else:
                _put(f, home / ".qwen" / "tmp" / digest / rest)


def _kimi(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Kimi CLI: `~/.kimi/sessions/<md5 of the work dir>/<uuid>/` (wire.jsonl, context*.jsonl,
    state.json) and `~/.kimi/kimi.json`; the wire log is the session."""
    for slug in sorted(p for p in (corpus / "kimi").iterdir() if p.is_dir()):
        _tree(slug / ".kimi", home / ".kimi")
    kimi_json = home / ".kimi" / "kimi.json"
    for wire in sorted((home / ".kimi" / "sessions").glob("*/*/wire.jsonl")):
        units.append(Unit("kimi", wire, [kimi_json] if kimi_json.is_file() else []))


def _zed_goose_droid(corpus: Path, home: Path, units: list[Unit]) -> None:
    """Zed's `threads.db` (`~/.local/share/zed/threads/`), Goose's `sessions.db` (its 2025 place;
    the corpus's JSON Lines fragments are cut excerpts, not placed), Factory Droid's
    `~/.factory/sessions/<slug>/<uuid>.jsonl` + `.settings.json`."""
    for f in sorted((corpus / "zed").glob("*threads.db")):
        copy = _put(f, home / ".local" / "share" / "zed" / "threads" / "threads.db")
        units.append(Unit("zed", copy, sessions=_rows(copy, "SELECT count(*) FROM threads")))
    for f in sorted((corpus / "goose").glob("*sessions.db")):
        copy = _put(f, home / ".local" / "share" / "goose" / "sessions" / "sessions.db")
        units.append(Unit("goose", copy, sessions=_rows(copy, "SELECT count(*) FROM sessions")))
    for f in sorted((corpus / "goose").glob("*projects.json")):
        _put(f, home / ".local" / "share" / "goose" / "projects.json")
    for slug in sorted(p for p in (corpus / "factory-droid").iterdir() if p.is_dir()):
        _tree(slug / ".factory", home / ".factory")
    for log in sorted((home / ".factory" / "sessions").glob("*/*.jsonl")):
        settings = log.with_suffix(".settings.json")
        units.append(Unit("factory-droid", log, [settings] if settings.is_file() else []))


#: The agents of 2026 (issue 26), each in its own real layout.
NEW_AGENTS = ("kiro", "pi", "hermes", "qwen-code", "kimi", "zed", "goose", "factory-droid")
BUILDERS = (_claude, _codex, _gemini, _copilot_cli, _vscode, _cline, _cursor, _opencode, _projects, _json_homes,
            _kiro, _pi, _hermes, _qwen, _kimi, _zed_goose_droid)


def build_home(corpus: Path, home: Path) -> list[Unit]:
    """Lay the corpus out under `home` as the agents do; the session files placed, one unit each."""
    units: list[Unit] = []
    for build in BUILDERS:
        build(corpus, home, units)
    # the noise of a real home, which discovery must not enter or take for sessions
    _put(corpus / "README.md", home / "code" / "node_modules" / "pkg" / ".aider.chat.history.md")
    (home / "code" / "app" / ".git").mkdir(parents=True, exist_ok=True)
    return units
