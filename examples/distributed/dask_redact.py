"""Redact a folder of sessions on a Dask cluster: the engine schedules, agentplay-redact only redacts.

    python examples/distributed/dask_redact.py SESSIONS OUT_DIR [--workers 2] [--policy default]
                                               [--mode hashed --key-file KEY] [--scheduler ADDRESS]

Without `--scheduler` it starts a local cluster (worker processes on this machine); with one it
uses the cluster already running there, unchanged. Each task is `redact_task`: bytes in, the map's
bytes and its report out, through the library's pure `redact.api.redact_bytes` (no global state, no
file written on the worker). The driver writes the maps (atomically, gzip) and prints one line per
input. Inputs are what `agentplay-redact --out-dir` takes: files, folders, glob patterns.

Keys never travel through the scheduler: a task carries a `KeySource` (a path every worker can
read, or the environment each worker was started with, and the key's fingerprint) and each worker
loads the key itself; a `Key` refuses to be pickled.

What the bytes interface does not do: a Claude Code transcript's subagent transcripts are separate
files next to it, and a task that gets only the main transcript's bytes does not read them (the
subagents' events are then missing from that map). Run the CLI where the files are when that
matters, or ship each session's files to one task.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redact import batch
from redact.api import redact_bytes
from redact.errors import LeakFound, RedactError
from redact.io.read import read_input
from redact.io.write import encode_output, write_atomic
from redact.policy.load import load_policy


@dataclass(frozen=True)
class Done:
    """One task's result: picklable; map bytes only when the scanner passed it."""

    input: str
    output: str
    status: str  # "written" | "leak" | "bad input" | "internal error"
    exit_code: int
    data: bytes | None = None
    report: dict[str, Any] | None = None  # RedactionReport.as_dict(): counts, verdicts, masked findings
    message: str = ""


def redact_task(path: str, output: str, settings: batch.Settings) -> Done:
    """Runs on a worker: read one input, redact it in memory, return bytes and report."""
    try:
        data = read_input(path)
        result = redact_bytes(data, name=path, policy=settings.policy, key=settings.keys.load(),
                              **dict(settings.options))
    except LeakFound as exc:
        report = exc.report.as_dict() if exc.report is not None else None  # type: ignore[attr-defined]
        return Done(path, output, batch.LEAK, exc.exit_code, report=report, message=exc.diagnostic())
    except RedactError as exc:
        return Done(path, output, batch.BAD, exc.exit_code, message=exc.diagnostic())
    except Exception as exc:  # noqa: BLE001 - one input's bug must not stop the others
        return Done(path, output, batch.BUG, 3, message=f"{path}: internal error ({type(exc).__name__})")
    return Done(path, output, batch.WRITTEN, 0, data=result.data, report=result.report.as_dict())


def redact_on_dask(client: Any, inputs: Sequence[str], out_dir: str | Path,
                   settings: batch.Settings) -> list[Done]:
    """Submit one task per input to `client`'s cluster; write each map as its task finishes.
    Results come back in input order (outputs never depend on the order tasks finish in)."""
    from distributed import as_completed

    tasks, unusable = batch.plan(inputs, out_dir)
    results: dict[int, Done] = {}
    futures = [client.submit(redact_task, t.input, t.output, settings, pure=False) for t in tasks]
    index = {f.key: i for i, f in enumerate(futures)}
    for future, done in as_completed(futures, with_results=True):
        if done.data is not None:
            write_atomic(done.output, encode_output(done.data, done.output))
        results[index[future.key]] = done
    bad = [Done(u.input, "", u.status, u.exit_code, message=u.message) for u in unusable]
    return bad + [results[i] for i in range(len(tasks))]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--workers", type=int, default=batch.default_jobs())
    ap.add_argument("--policy", default="default")
    ap.add_argument("--mode", choices=("relative", "dirs_only", "hashed"))
    ap.add_argument("--key-file", type=Path)
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a local cluster)")
    args = ap.parse_args(argv)
    from distributed import Client, LocalCluster

    keys = batch.KeySource.from_file(args.key_file) if args.key_file else batch.KeySource.from_env()
    settings = batch.Settings(load_policy(args.policy, mode=args.mode), keys, (("mode", args.mode),))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        done = redact_on_dask(client, args.inputs, args.out_dir, settings)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for d in done:
        print(f"{d.status:>14}  {d.input}" + (f"  -> {d.output}" if d.data is not None else f"  ({d.message})"))
    return batch.exit_code(batch.Outcome(d.input, None, d.status, d.exit_code) for d in done)


if __name__ == "__main__":
    sys.exit(main())
