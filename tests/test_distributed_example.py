"""The Dask example (examples/distributed/) on a two-process local cluster: it finds the sessions the
command line's `--out-dir` finds (a Claude Code subagent transcript is read with its session, not
redacted on its own), writes the same files byte for byte, and reports a bad input while the others
are written. Marked `distributed`; CI installs dask[distributed] with the test extra."""
from __future__ import annotations

import gzip
import importlib.util
import io
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from redact.api import redact_bytes

pytestmark = pytest.mark.distributed
distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed "
                                  "(pip install -e '.[test]' installs it)")

ROOT = Path(__file__).resolve().parents[1]
LEGACY = ROOT / "tests" / "fixtures" / "claude-code" / "legacy"
MAIN = LEGACY / "9d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f.jsonl"
sys.path.insert(0, str(ROOT / "bench"))
from gen_claude_code import generate  # noqa: E402 - importable once sys.path has the folder


def _example() -> object:
    spec = importlib.util.spec_from_file_location("dask_redact", ROOT / "examples" / "distributed" / "dask_redact.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_redact"] = module  # the workers unpickle its functions by this name
    spec.loader.exec_module(module)
    return module


_LOOPBACK = ("127.0.0.1", "::1", "localhost")


@pytest.fixture()
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cluster talks TCP on this machine's loopback only: tests/conftest.py blocks every inet
    connection and DNS lookup; this lets loopback through and still refuses anything else."""
    import _socket
    import socket

    from tests import conftest

    def connect(sock: socket.socket, address: object) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise conftest.NetworkBlocked("only loopback connections are allowed in this test")
        conftest._real_connect(sock, address)

    def connect_ex(sock: socket.socket, address: object) -> int:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise conftest.NetworkBlocked("only loopback connections are allowed in this test")
        return conftest._real_connect_ex(sock, address)

    def getaddrinfo(host: object, port: object, family: int = 0, type: int = 0, proto: int = 0,
                    flags: int = 0) -> list[tuple[object, ...]]:
        if host not in _LOOPBACK:
            raise conftest.NetworkBlocked("only loopback names resolve in this test")
        return [(socket.AddressFamily(af), socket.SocketKind(kind), pr, name, addr)
                for af, kind, pr, name, addr in _socket.getaddrinfo(host, port, family, type, proto, flags)]

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def _is_loopback(address: object) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return host in _LOOPBACK


def test_dask_local_cluster_writes_the_command_lines_maps(tmp_path: Path, loopback_only: None) -> None:
    example = _example()
    folder = tmp_path / "sessions"
    folder.mkdir()
    for i in range(2):
        buf = io.BytesIO()
        generate(buf, 60_000, seed=i)
        (folder / f"s{i}.jsonl").write_bytes(buf.getvalue())
    for path in LEGACY.iterdir():  # a main transcript and its subagent's, side by side
        shutil.copy(path, folder / path.name)
    shutil.copy(ROOT / "examples" / "session-map.json", folder / "map.json")
    (folder / "broken.jsonl").write_bytes(b"{not json\n")
    inputs = [str(folder / "s0.jsonl"), str(folder / "*.json"), str(folder / "broken.jsonl"), str(folder)]

    by_cli = tmp_path / "cli"
    proc = subprocess.run([sys.executable, "-m", "redact", *inputs, "--out-dir", str(by_cli)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 2, proc.stderr  # the broken input; the others are written

    by_dask = tmp_path / "dask"
    by_dask.mkdir()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    try:
        client.run(lambda: sys.path.insert(0, str(ROOT / "examples" / "distributed")))
        done = example.redact_on_dask(client, inputs, by_dask, example.Job("default"))  # type: ignore[attr-defined]
    finally:
        client.close()
        cluster.close()

    status = {Path(d.input).name: d.status for d in done}
    assert status == {"broken.jsonl": "bad input", "map.json": "written", "s0.jsonl": "written",
                      "s1.jsonl": "written", MAIN.name: "written"}  # the subagent file is no session
    assert example.exit_code(done) == 2  # type: ignore[attr-defined]
    # the same files as the command line's, byte for byte (names, gzip and maps)
    assert sorted(p.name for p in by_dask.iterdir()) == sorted(p.name for p in by_cli.iterdir())
    for path in by_cli.iterdir():
        assert (by_dask / path.name).read_bytes() == path.read_bytes(), path.name
    # the subagent's events are in its session's map: more than the main transcript's bytes alone give
    [main] = [d for d in done if Path(d.input).name == MAIN.name]
    alone = redact_bytes(MAIN.read_bytes(), name=str(MAIN), policy="default").session_map
    assert len(orjson.loads(gzip.decompress(Path(main.output).read_bytes()))["events"]) > len(alone["events"])
