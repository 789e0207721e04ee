"""The Dask example (examples/distributed/) on a two-process local cluster: every map is the one the
library's pure `redact_bytes` makes on its own, byte for byte, and a bad input is reported while
the others are written. Marked `distributed`; CI installs dask[distributed] with the test extra."""
from __future__ import annotations

import gzip
import importlib.util
import io
import shutil
import sys
from pathlib import Path

import pytest

from redact import batch
from redact.api import redact_bytes
from redact.policy.load import load_policy

pytestmark = pytest.mark.distributed
distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed "
                                  "(pip install -e '.[test]' installs it)")

ROOT = Path(__file__).resolve().parents[1]
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


def test_dask_local_cluster_redacts_a_folder(tmp_path: Path, loopback_only: None) -> None:
    example = _example()
    folder = tmp_path / "sessions"
    folder.mkdir()
    for i in range(3):
        buf = io.BytesIO()
        generate(buf, 60_000, seed=i)
        (folder / f"s{i}.jsonl").write_bytes(buf.getvalue())
    shutil.copy(ROOT / "examples" / "session-map.json", folder / "map.json")
    (folder / "broken.jsonl").write_bytes(b"{not json\n")
    out = tmp_path / "maps"
    out.mkdir()
    settings = batch.Settings(load_policy("default"))
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    try:
        client.run(lambda: sys.path.insert(0, str(ROOT / "examples" / "distributed")))
        done = example.redact_on_dask(client, [str(p) for p in sorted(folder.iterdir())], out,  # type: ignore[attr-defined]
                                      settings)
    finally:
        client.close()
        cluster.close()
    status = {Path(d.input).name: d.status for d in done}
    assert status == {"broken.jsonl": batch.BAD, "map.json": batch.WRITTEN, "s0.jsonl": batch.WRITTEN,
                      "s1.jsonl": batch.WRITTEN, "s2.jsonl": batch.WRITTEN}
    for d in done:
        if d.status != batch.WRITTEN:
            continue
        alone = redact_bytes(Path(d.input).read_bytes(), name=d.input, policy="default").data
        assert gzip.decompress(Path(d.output).read_bytes()) == alone
        assert d.report is not None and d.report["scanner"]["grammar"] == "pass"
    written = sorted(batch.output_name(Path(n)) for n in ("map.json", "s0.jsonl", "s1.jsonl", "s2.jsonl"))
    assert sorted(p.name for p in out.iterdir()) == written
