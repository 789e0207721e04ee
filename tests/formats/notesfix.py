"""A generated notes-style repository as a Claude Code transcript (issue 14).

Obsidian-like vaults name folders and files with sentences, in the writer's language, with dates
and emoji. The scanner rightly flags such names (language, taint phrases), so the redactor must
replace them; this fixture holds such names in English, German, French, Japanese and Spanish, read,
edited, written, listed and searched the way a real session does.
"""
from __future__ import annotations

from tests.formats.ccfix import Transcript, text, tool_use

CWD = "/Users/dana/vault"

FOLDERS = (
    "Meetings with the product team",
    "Besprechungen mit dem Vertrieb",
    "Réunions avec les clients du projet",
    "会議の議事録と決定事項のまとめ",
    "Reuniones con el equipo de ventas",
    "🚀 Launch plan for the spring release",
)
FILES = (
    "2025-03-04 Call with Dana about the budget.md",
    "2025-02-11 Planung für das nächste Quartal.md",
    "Compte rendu de la réunion du lundi matin.md",
    "今日は新しいプロジェクトについて話しました.md",
    "Notas de la reunión con el cliente nuevo.md",
    "✅ Todo list for the week ahead.md",
)
NOTES = tuple(f"{folder}/{name}" for folder, name in zip(FOLDERS, FILES)) + (
    "Inbox/Ideas I had on the train home today.md",
    "Daily/2025-03-05 Wednesday notes and random thoughts.md",
    "README.md",
)


def names() -> list[str]:
    """Every sentence-like folder and file name the fixture uses (what must never survive)."""
    out = list(FOLDERS) + list(FILES)
    out += [seg for path in NOTES for seg in path.split("/") if " " in seg and seg not in out]
    return out


def words() -> set[str]:
    """The distinctive words of those names: 5 letters or more (shorter ones can be structure)."""
    found: set[str] = set()
    for name in names():
        for chunk in name.replace(".md", " ").split():
            w = chunk.strip("✅🚀.,")
            if len(w) >= 5 and not w[:4].isdigit():
                found.add(w)
    return found


def transcript(paths: tuple[str, ...] = NOTES, *, seed: int = 11) -> bytes:
    t = Transcript("6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0", CWD, seed=seed)
    t.user("Please tidy up my notes.")
    for i, rel in enumerate(paths):
        absolute = f"{CWD}/{rel}"
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": absolute})])
        t.tick(300).result(tid, "# heading\nsome lines of the note")
        tid = t.tool_id()
        if i % 3 == 0:
            t.assistant([tool_use(tid, "Edit", {"file_path": absolute, "old_string": "x", "new_string": "y"})])
        elif i % 3 == 1:
            t.assistant([tool_use(tid, "Write", {"file_path": absolute, "content": "new body"})])
        else:
            folder = absolute.rsplit("/", 1)[0]
            t.assistant([tool_use(tid, "Bash", {"command": f"ls '{folder}'", "description": "List"})])
        t.tick(500).result(tid, "ok")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Glob", {"pattern": "**/*.md", "path": f"{CWD}/{FOLDERS[0]}"})])
    t.tick(200).result(tid, "\n".join(f"{CWD}/{p}" for p in paths))
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Grep", {"pattern": "budget", "path": f"{CWD}/{FOLDERS[2]}"})])
    t.tick(200).result(tid, "no matches")
    t.assistant([text("Done: the notes are tidy.")], stop="end_turn")
    return t.bytes()
