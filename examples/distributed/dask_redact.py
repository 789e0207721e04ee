"""Redact a folder of sessions on a Dask cluster: the engine schedules, agentplay-redact only redacts.

    python examples/distributed/dask_redact.py INPUT... OUT_DIR [--workers 2] [--policy default]
        [--mode hashed] [--key-file KEY] [--link-scope SCOPE] [--skip-bad-lines] [--scheduler ADDRESS]

It writes what `agentplay-redact INPUT... --out-dir OUT_DIR` writes, byte for byte and under the
same names, and uses only the stable library API (`redact/__init__.py`, docs/api.md):

- the driver lists the sessions with `redact.plan_batch`, which finds them as batch mode does: a
  Claude Code project folder or `~/.claude/projects` tree gives each main transcript once, and its
  subagent transcripts (`<session>/subagents/agent-*.jsonl`, or the older flat `agent-*.jsonl`)
  are read with it, never redacted on their own;
- each task is `redact_task`: `redact.redact_file(input, map)` on a worker, which reads the session's
  files (the main transcript and its subagent transcripts) and writes its map atomically after the
  leak scanner passed it, then returns one small `Done` (status, counts, a one-line diagnostic;
  never input text). Map bytes do not travel through the scheduler.

So the inputs and OUT_DIR must be on storage every worker can reach (a local disk for a local
cluster; a shared file system for a cluster of machines). Without `--scheduler` it starts a local
cluster of worker processes; with one it uses the cluster already running there, unchanged.

Keys never travel: a task carries the key file's path and the fingerprint the driver saw; each
worker loads the key itself and refuses a different one (a loaded key refuses to be pickled).
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redact
from redact.errors import KeyError_, LeakFound, RedactError

WRITTEN, LEAK, BAD, BUG = "written", "leak", "bad input", "internal error"


@dataclass(frozen=True)
class Job:
    """What every task needs besides its input and output: picklable, no key material."""

    policy: str = "default"  # a preset name or a policy TOML path every worker can read
    mode: str | None = None
    link_scope: str | None = None
    skip_bad_lines: bool = False
    key_file: str | None = None
    fingerprint: str | None = None  # the driver's key's: a worker that finds another key refuses
    unsafe_key_permissions: bool = False

    def key(self) -> Any:
        if self.key_file is None:
            return None
        key = redact.load_key_file(self.key_file, allow_unsafe_permissions=self.unsafe_key_permissions)
        if key.fingerprint() != self.fingerprint:
            raise KeyError_("the key changed while the inputs were being redacted", where=self.key_file)
        return key


@dataclass(frozen=True)
class Done:
    """One input's outcome: counts and a one-line diagnostic, never input text."""

    input: str
    output: str
    status: str  # WRITTEN | LEAK | BAD | BUG
    exit_code: int
    events: int = 0
    content_hash: str = ""
    message: str = ""


def redact_task(source: str, target: str, job: Job) -> Done:
    """Runs on a worker: the session at `source` (with its subagent transcripts) -> its map at `target`."""
    try:
        result = redact.redact_file(source, target, policy=job.policy, key=job.key(), mode=job.mode,
                                    link_scope=job.link_scope, skip_bad_lines=job.skip_bad_lines)
    except LeakFound as exc:
        return Done(source, target, LEAK, exc.exit_code, message=exc.diagnostic())
    except RedactError as exc:
        return Done(source, target, BAD, exc.exit_code, message=exc.diagnostic())
    except Exception as exc:  # noqa: BLE001 - one input's bug must not stop the others
        return Done(source, target, BUG, 3, message=f"{source}: internal error ({type(exc).__name__})")
    return Done(source, target, WRITTEN, 0, len(result.session_map.get("events") or ()),
                result.report.content_hash)


def redact_on_dask(client: Any, inputs: Sequence[str], out_dir: str | Path, job: Job) -> list[Done]:
    """Plan as `--out-dir` does, submit one task per session to `client`'s cluster (largest first,
    so the long ones start early), and return every outcome in plan order, the arguments that named
    no session first (outputs never depend on the order tasks finish in)."""
    key = job.key()
    sessions, unusable = redact.plan_batch(inputs, out_dir, policy=job.policy, key=key, link_scope=job.link_scope)
    order = sorted(range(len(sessions)), key=lambda i: (-_size(sessions[i][0]), i))
    futures = {i: client.submit(redact_task, *sessions[i], job, pure=False) for i in order}
    results = client.gather([futures[i] for i in range(len(sessions))])
    return [Done(arg, "", BAD, 2, message=message) for arg, message in unusable] + list(results)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def exit_code(done: Sequence[Done]) -> int:
    """The CLI's: 3 if any input hit a bug, else 2 a bad input, else 1 a leak blocked a map, else 0."""
    codes = {d.exit_code for d in done}
    return next((c for c in (3, 2, 1) if c in codes), 0)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("inputs", nargs="+", help="files, folders and glob patterns, as agentplay-redact takes them")
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--policy", default="default")
    ap.add_argument("--mode", choices=("relative", "dirs_only", "hashed"))
    ap.add_argument("--key-file", type=Path)
    ap.add_argument("--unsafe-key-permissions", action="store_true")
    ap.add_argument("--link-scope")
    ap.add_argument("--skip-bad-lines", action="store_true")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster)")
    args = ap.parse_args(argv)
    from distributed import Client, LocalCluster

    try:
        fingerprint = None
        if args.key_file is not None:
            fingerprint = redact.load_key_file(args.key_file, allow_unsafe_permissions=args.unsafe_key_permissions
                                               ).fingerprint()
        job = Job(args.policy, args.mode, args.link_scope, args.skip_bad_lines,
                  str(args.key_file) if args.key_file else None, fingerprint, args.unsafe_key_permissions)
        if args.scheduler:
            cluster, client = None, Client(args.scheduler)
        else:
            cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        try:
            done = redact_on_dask(client, args.inputs, args.out_dir, job)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    except RedactError as exc:
        print(f"dask_redact: error: {exc.diagnostic()}", file=sys.stderr)
        return exc.exit_code
    for d in done:
        print(f"{d.status:>14}  {d.input}" + (f"  -> {d.output}" if d.status == WRITTEN else f"  ({d.message})"))
    return exit_code(done)


if __name__ == "__main__":
    sys.exit(main())
