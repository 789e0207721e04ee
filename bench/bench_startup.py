"""Start-up time of the command line next to a bare `python -c pass`, measured in the same run.

Run: .venv/bin/python bench/bench_startup.py [--runs 21] [--check]

Every command runs in a fresh interpreter (`python -m redact ...` from this checkout), round-robin
with the bare interpreter so that both meet the same machine load; each is run once first, with
bytecode written to a temporary cache (PYTHONPYCACHEPREFIX), so the timed runs read compiled
modules as an installed package does. Figures are medians over --runs runs of the wall time and of
the CPU time (user + sys of the child, from `os.wait4`: the steadier figure on a shared machine).

The main job (`--mode hashed --key-file K session.jsonl -o map.json`) runs on a small generated
Claude Code session (a prompt and a few shell commands: reading it is a few milliseconds, so its
time is start-up and first use), with the disk cache of shipped tables in a temporary folder that
the warm-up run fills ("warm", as every run after the first finds it), and with the cache disabled.
Targets (issue 29): the main job at most bare + 0.25 s, `--help` and `verb` at most bare + 0.1 s
(`--check` exits 1 when one is over, in CPU time).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "--version": ["-m", "redact", "--version"],
    "--help": ["-m", "redact", "--help"],
    "verb 'ls'": ["-m", "redact", "verb", "ls"],
    "redact --help": ["-m", "redact", "redact", "--help"],
    "scan --help": ["-m", "redact", "scan", "--help"],
}
MAIN_JOB = ["-m", "redact", "--mode", "hashed", "--key-file", "{tmp}/key", "{tmp}/session.jsonl",
            "-o", "{tmp}/map.json"]
# command -> its target beyond the bare interpreter, in seconds
TARGETS = {"--help": 0.1, "verb 'ls'": 0.1, "main job, warm cache": 0.25, "main job, no cache": 0.25}


def _session(tmp: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.formats.ccfix import Transcript, tool_use

    t = Transcript("5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77", "/home/dev/shop", seed=5)
    t.user("run the tests and show me the status")
    t.assistant([tool_use("t1", "Bash", {"command": "pytest -q tests/"})])
    t.assistant([tool_use("t2", "Bash", {"command": "git status --short"})])
    t.assistant([tool_use("t3", "Read", {"file_path": "/home/dev/shop/src/app.py"})])
    (tmp / "session.jsonl").write_bytes(t.bytes())
    (tmp / "key").write_text("5d" * 32)
    (tmp / "key").chmod(0o600)


def _once(args: list[str], env: dict[str, str], tmp: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + sys of the child) of one run."""
    (tmp / "map.json").unlink(missing_ok=True)
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, *(a.format(tmp=tmp) for a in args)], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"{args} failed ({child.returncode})")
    return wall, usage.ru_utime + usage.ru_stime


def measure(runs: int) -> dict[str, tuple[float, float]]:
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp_name:
        tmp = Path(tmp_name)
        _session(tmp)
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "AGENTPLAY_REDACT_NO_CACHE")}
        base.update(PYTHONPYCACHEPREFIX=str(tmp / "pyc"), PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp / "xdg"))
        envs = {name: base for name in COMMANDS}
        commands = dict(COMMANDS)
        commands["main job, warm cache"] = MAIN_JOB
        envs["main job, warm cache"] = base
        commands["main job, no cache"] = MAIN_JOB
        envs["main job, no cache"] = {**base, "AGENTPLAY_REDACT_NO_CACHE": "1"}
        shutil.rmtree(tmp / "xdg", ignore_errors=True)
        for name, args in commands.items():  # compile once: the timed runs read bytecode (and the cache)
            _once(args, envs[name], tmp)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, args in commands.items():
                times[name].append(_once(args, envs[name], tmp))
    return {name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for name, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--check", action="store_true", help="exit 1 when a targeted command is over (CPU)")
    opts = parser.parse_args()
    load = os.getloadavg()[0]
    medians = measure(opts.runs)
    bare_wall, bare_cpu = medians["python -c pass"]
    print(f"medians of {opts.runs} runs, load average {load:.1f} -> {os.getloadavg()[0]:.1f}; "
          f"bare python: {bare_wall:.3f} s wall, {bare_cpu:.3f} s CPU")
    print(f"{'command':<22} {'wall s':>7} {'CPU s':>7} {'CPU x bare':>10} {'CPU - bare':>10}  target")
    over = []
    for name, (wall, cpu) in medians.items():
        mark = ""
        if name in TARGETS:
            ok = cpu - bare_cpu <= TARGETS[name]
            mark = f"  bare + {TARGETS[name]:.2f} s: {'ok' if ok else 'OVER'}"
            if not ok:
                over.append(name)
        print(f"{name:<22} {wall:7.3f} {cpu:7.3f} {cpu / bare_cpu:10.1f} {cpu - bare_cpu:10.3f}{mark}")
    return 1 if opts.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
