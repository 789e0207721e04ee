"""opencode, Crush, Cursor (SQLite stores), Aider (Markdown), OpenHands, Amp and Continue (JSON) ->
redacted, scanned maps: throughput.

Run: .venv/bin/python bench/bench_chat_stores.py [--runs 5] [--corpus ../shared/corpus] [--scale 200]

For each format: a generated input (the test fixture of tests/formats/storefix.py or jsonfix.py, its
session repeated --scale times into one session; an Aider history of --scale runs) and every corpus session
of the format (skipped when the corpus is absent). Each measurement is `redact_file` under the
default policy, as the CLI runs it: a store is copied with its WAL into a private folder, one
session exported, read, built, redacted and scanned (the taint layer searching the export). MB/s is
over the bytes the reader reads (the session's export, or the file); medians of --runs.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from redact.api import redact_file  # noqa: E402
from redact.formats.stores import export  # noqa: E402
from redact.io.store import split_ref  # noqa: E402
from tests.formats import jsonfix, storefix  # noqa: E402
from tests.formats.test_aider import history  # noqa: E402


def _grow(db: Path, scale: int, session_col: str, tables: tuple[str, ...]) -> None:
    """Copy every row of the session tables `scale` times under new ids, in the same session."""
    con = sqlite3.connect(db)
    for table in tables:
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})")]
        rows = con.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
        for i in range(1, scale):
            for row in rows:
                values = [f"{v}x{i:05d}" if c in ("id", "message_id") and isinstance(v, str) else v
                          for c, v in zip(cols, row, strict=True)]
                if table == "part" and "data" in cols:  # call ids stay unique
                    values[cols.index("data")] = values[cols.index("data")].replace('"callID": "', f'"callID": "{i}-')
                if table == "messages":
                    values[cols.index("parts")] = values[cols.index("parts")].replace('"id": "c', f'"id": "c{i}-') \
                        .replace('"tool_call_id": "c', f'"tool_call_id": "c{i}-')
                con.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                            values)
    con.commit()
    con.close()


def generated(tmp: Path, scale: int) -> dict[str, Path]:
    out = {}
    db = tmp / "opencode.db"
    storefix.opencode_db(db)
    _grow(db, scale, "session_id", ("message", "part"))
    out["opencode"] = db
    db = tmp / "crush.db"
    storefix.crush_db(db)
    _grow(db, scale, "session_id", ("messages",))
    out["crush"] = db
    db = tmp / "state.vscdb"
    storefix.cursor_global_db(db)
    con = sqlite3.connect(db)
    key = f"composerData:{storefix.CURSOR_CID}"
    doc = json.loads(con.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (key,)).fetchone()[0])
    heads = list(doc["fullConversationHeadersOnly"])
    for i in range(1, scale):
        for h in heads:
            bid = f"{h['bubbleId']}-{i}"
            value = con.execute("SELECT value FROM cursorDiskKV WHERE key = ?",
                                (f"bubbleId:{storefix.CURSOR_CID}:{h['bubbleId']}",)).fetchone()[0]
            con.execute("INSERT INTO cursorDiskKV VALUES (?, ?)", (f"bubbleId:{storefix.CURSOR_CID}:{bid}", value))
            doc["fullConversationHeadersOnly"].append({"bubbleId": bid, "type": h["type"]})
    con.execute("UPDATE cursorDiskKV SET value = ? WHERE key = ?", (json.dumps(doc), key))
    con.commit()
    con.close()
    out["cursor"] = db
    md = tmp / ".aider.chat.history.md"
    md.write_text(history() * scale)
    out["aider"] = md
    events = json.loads(jsonfix.openhands_events(jsonfix.plain()))
    path = tmp / "events.json"
    path.write_text(json.dumps([_renamed(e, i) for i in range(scale) for e in events]))
    out["openhands"] = path
    thread = json.loads(jsonfix.amp_thread(jsonfix.plain()))
    thread["messages"] = [_renamed(m, i) for i in range(scale) for m in thread["messages"]]
    path = tmp / f"{jsonfix.AMP_ID}.json"
    path.write_text(json.dumps(thread))
    out["amp"] = path
    session = json.loads(jsonfix.continue_session(jsonfix.plain()))
    session["history"] = [_renamed(h, i) for i in range(scale) for h in session["history"]]
    path = tmp / f"{jsonfix.CONTINUE_ID}.json"
    path.write_text(json.dumps(session))
    out["continue-dev"] = path
    return out


_IDS = ("id", "tool_call_id", "toolCallId", "toolUseID", "llm_response_id", "action_id")


def _renamed(value: Any, i: int) -> Any:
    """`value` with every id made unique to copy `i` (calls pair within a copy)."""
    if isinstance(value, dict):
        return {k: f"{v}-{i}" if k in _IDS and isinstance(v, str) else _renamed(v, i) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, i) for v in value]
    return value


def corpus(root: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    from redact.batch.inputs import in_store

    for fmt in ("opencode", "crush", "cursor", "aider", "openhands", "amp", "continue"):
        folder = root / fmt
        if not folder.is_dir():
            continue
        for p in sorted(folder.rglob("*")):
            if p.name.endswith(".aider.chat.history.md") or (p.is_file() and p.read_bytes()[:6] == b"SQLite"):
                found.setdefault(fmt, []).extend(str(u) for u in in_store(p))
            elif p.name.endswith("events.json") or "_threads_T-" in p.name or "continue_sessions_" in p.name \
                    and p.name.count("-") >= 4:
                found.setdefault(fmt, []).append(str(p))
    return found


def measure(unit: str, runs: int) -> dict[str, Any]:
    path, session = split_ref(unit)
    size = len(export(path, session, where=unit)[1]) if session is not None or path.suffix == ".db" \
        or path.name.endswith(".vscdb") else path.stat().st_size
    times, events = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        result = redact_file(unit, policy="default")
        times.append(time.perf_counter() - start)
        events = len(result.session_map["events"])
    t = statistics.median(times)
    return {"bytes": size, "events": events, "ms": round(t * 1000, 1), "MB/s": round(size / t / 1e6, 2),
            "events/s": round(events / t)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=int, default=200)
    ap.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, path in generated(Path(tmp), args.scale).items():
            print(json.dumps({"format": fmt, "input": f"generated x{args.scale}", **measure(str(path), args.runs)}))
    for fmt, units in corpus(args.corpus).items():
        total_bytes = total_ms = total_events = 0.0
        for unit in units:
            m = measure(unit, args.runs)
            total_bytes += m["bytes"]
            total_ms += m["ms"]
            total_events += m["events"]
        print(json.dumps({"format": fmt, "input": f"corpus, {len(units)} session(s)", "bytes": int(total_bytes),
                          "events": int(total_events), "ms": round(total_ms, 1),
                          "MB/s": round(total_bytes / total_ms / 1e3, 2)}))


if __name__ == "__main__":
    main()
