"""Redact sessions on a Dask cluster: the engine schedules, agentplay-redact only redacts.

    python examples/distributed/dask_redact.py INPUTS... OUT_DIR [--workers 2] [--policy default]
                                               [--mode hashed --key-file KEY] [--scheduler ADDRESS]

Without `--scheduler` it starts a local cluster (worker processes on this machine); with one it
uses the cluster already running there, unchanged. It uses only the stable library API (docs/api.md):

- the driver lists the sessions with `redact.sessions`, which finds them exactly as
  `agentplay-redact INPUTS --out-dir OUT_DIR` does (files, folders, glob patterns; a Claude Code
  session once, its subagent transcripts read with it) and names each map as that command does;
- each task runs `redact.redact_file` on one session's path on a worker, which reads the session's
  files where they are (so the workers need the inputs at the same paths: a shared or network
  file system), and returns the map's bytes and its report; nothing is written on a worker;
- the driver writes each map into OUT_DIR, gzipped exactly as the command line writes it, so the
  files are byte for byte the command line's.

Keys never travel through the scheduler: a task carries the key file's path and the fingerprint of
the key the driver loaded, and each worker loads the key itself (`redact.load_key_file`) and refuses
the task if it finds another; a key object refuses to be pickled.
"""
from __future__ import annotations

import argparse
import gzip
import io
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redact
from redact.errors import LeakFound, RedactError

WRITTEN, LEAK, BAD, BUG = "written", "leak", "bad input", "internal error"


@dataclass(frozen=True)
class Job:
    """Everything a worker needs, picklable, no key material."""

    policy: str = "default"
    mode: str | None = None
    key_file: str | None = None
    fingerprint: str | None = None  # of the key the driver loaded from key_file


@dataclass(frozen=True)
class Done:
    """One task's result: picklable; map bytes only when the scanner passed it."""

    input: str
    output: str
    status: str  # WRITTEN | LEAK | BAD | BUG
    exit_code: int
    data: bytes | None = None
    report: dict[str, Any] | None = None  # counts, verdicts, masked findings: never input text
    message: str = ""


def redact_task(path: str, output: str, job: Job) -> Done:
    """Runs on a worker: redact one session where its files are; return the map's bytes and report."""
    try:
        key = redact.load_key_file(job.key_file) if job.key_file else None
        if key is not None and key.fingerprint() != job.fingerprint:
            return Done(path, output, BAD, 2, message=f"{job.key_file}: not the key the driver loaded")
        result = redact.redact_file(path, policy=job.policy, key=key, mode=job.mode)
    except LeakFound as exc:
        report = exc.report.as_dict() if exc.report is not None else None  # type: ignore[attr-defined]
        return Done(path, output, LEAK, exc.exit_code, report=report, message=exc.diagnostic())
    except RedactError as exc:
        return Done(path, output, BAD, exc.exit_code, message=exc.diagnostic())
    except Exception as exc:  # noqa: BLE001 - one input's bug must not stop the others
        return Done(path, output, BUG, 3, message=f"{path}: internal error ({type(exc).__name__})")
    return Done(path, output, WRITTEN, 0, data=result.data, report=result.report.as_dict())


def write_map(data: bytes, output: str) -> None:
    """Write a map as the command line does: gzip without a name or a time (deterministic), level 6,
    into a temporary file of the same folder renamed into place."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=6) as gz:
        gz.write(data)
    folder = os.path.dirname(output) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".agentplay-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(buf.getvalue())
        os.replace(tmp, output)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def redact_on_dask(client: Any, inputs: Sequence[str], out_dir: str | Path, job: Job) -> list[Done]:
    """Submit one task per session to `client`'s cluster; write each map as its task finishes.
    Results come back in the sessions' order (outputs never depend on the order tasks finish in)."""
    from distributed import as_completed

    key = redact.load_key_file(job.key_file) if job.key_file else None
    found = redact.sessions(inputs, key=key)
    futures = [client.submit(redact_task, str(path), str(Path(out_dir) / name), job, pure=False)
               for path, name in found]
    index = {f.key: i for i, f in enumerate(futures)}
    results: dict[int, Done] = {}
    for future, done in as_completed(futures, with_results=True):
        if done.data is not None:
            write_map(done.data, done.output)
        results[index[future.key]] = done
    return [results[i] for i in range(len(found))]


def exit_code(done: Sequence[Done]) -> int:
    """As the command line's: 3 if any input hit a bug, else 2 if any was bad, else 1 if a leak
    blocked a map, else 0."""
    codes = {d.exit_code for d in done}
    return next((code for code in (3, 2, 1) if code in codes), 0)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--workers", type=int, default=max(1, len(os.sched_getaffinity(0))))
    ap.add_argument("--policy", default="default")
    ap.add_argument("--mode", choices=("relative", "dirs_only", "hashed"))
    ap.add_argument("--key-file", type=Path)
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster)")
    args = ap.parse_args(argv)
    from distributed import Client, LocalCluster

    key_file = str(args.key_file.expanduser().resolve()) if args.key_file else None
    fingerprint = redact.load_key_file(key_file).fingerprint() if key_file else None
    job = Job(args.policy, args.mode, key_file, fingerprint)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        done = redact_on_dask(client, args.inputs, args.out_dir, job)
    except RedactError as exc:
        print(f"dask_redact: error: {exc.diagnostic()}", file=sys.stderr)
        return exc.exit_code
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for d in done:
        print(f"{d.status:>14}  {d.input}" + (f"  -> {d.output}" if d.data is not None else f"  ({d.message})"))
    return exit_code(done)


if __name__ == "__main__":
    sys.exit(main())
