import socket

import pytest

from tests.conftest import NetworkBlocked


def test_tcp_connect_is_refused() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(NetworkBlocked):
            sock.connect(("192.0.2.1", 443))
    finally:
        sock.close()


def test_dns_lookup_is_refused() -> None:
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("example.com", 443)
