"""DNS rebinding: the server answers only to its own names, on every route, before anything.

A page of ``evil.attacker.example`` whose name is re-pointed at 127.0.0.1 is
same-origin with the server as far as the browser knows: only the ``Host``
header tells the server the request is not meant for it. Every request is sent
over a real socket to uvicorn, so the check is the one a browser meets.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_apps import OBSERVATIONS, endpoints
from server_threads import ThreadedServer
from test_server_security import assert_no_trace, assert_security_headers

from toolview.server.guard.host_check import AllowedHost, parse_allowed_host
from toolview.wire.log.sqlite import SQLiteLog

FOREIGN = [
    "evil.attacker.example:{port}",
    "evil.attacker.example",
    "127.0.0.1.evil.example:{port}",
    "localhost.evil.example:{port}",
    "localhost:{other}",  # a loopback name, another port
    "localhost.:{port}",  # the same name, fully qualified: refused rather than guessed at
    "[::ffff:127.0.0.1]:{port}",  # IPv4-mapped: not how a loopback page names the server
    "127.0.0.1",  # no port: port 80, not the bound one
    "[::2]:{port}",
    "0.0.0.0:{port}",
    "127.0.0.1:{port}:1",
    "",
    "a b:{port}",
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    options = {"allowed_hosts": ["toolview.example", "box.lan:8080"]}
    with ThreadedServer(lambda: SQLiteLog(tmp_path / "log.db"), **options) as served:
        own = {"host": f"127.0.0.1:{served.port}"}
        httpx.post(f"{served.url}/api/threads", json={"id": "t"}, headers=own).raise_for_status()
        body = "\n".join(json.dumps(o) for o in OBSERVATIONS)
        url = f"{served.url}/api/threads/t/observations"
        headers = {**own, "content-type": "application/x-ndjson"}
        httpx.post(url, content=body, headers=headers).raise_for_status()
        yield served


def requests(server: ThreadedServer) -> list[tuple[str, str]]:
    """Every route, plus unknown paths, a wrong method and errors, as (method, path)."""
    found = list(endpoints(server.app))
    assert len(found) >= 12
    return [
        *found,
        ("GET", "/no/such/page"),
        ("GET", "/api/no/such"),
        ("DELETE", "/api/threads"),
        ("OPTIONS", "/api/threads"),
        ("GET", "/api/threads/nope/events"),
        ("GET", "/auth/not-a-key"),
        ("GET", "/static/nope.js"),
    ]


def test_a_foreign_host_is_refused_on_every_route(server: ThreadedServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for template in FOREIGN:
            host = template.format(port=server.port, other=server.port + 1)
            for method, path in requests(server):
                headers = {"host": host, "content-type": "application/json"}
                with client.stream(method, path, headers=headers) as response:
                    body = response.read()  # a follow that opened would never end: it must not
                where = f"{method} {path} with Host {host!r}"
                assert response.status_code == 400, f"{where}: {response.status_code}"
                assert b"shell" not in body and b"a\\nb" not in body, where
                if path.startswith("/api/"):
                    assert "host" in response.json()["error"], where
                assert_security_headers(response)
                assert_no_trace(response)
        threads = client.get("/api/threads").json()["threads"]
    assert [t["id"] for t in threads] == ["t"]  # nothing a refused POST carried was stored


def test_the_servers_own_names_are_accepted(server: ThreadedServer) -> None:
    own = [
        f"127.0.0.1:{server.port}",
        f"localhost:{server.port}",
        f"LOCALHOST:{server.port}",  # a name is case-insensitive
        f"[::1]:{server.port}",
        "toolview.example",  # --allowed-host without a port: any port
        f"toolview.example:{server.port}",
        "toolview.example:443",
        "box.lan:8080",  # with a port: that port only
    ]
    for host in own:
        response = httpx.get(f"{server.url}/api/threads", headers={"host": host})
        assert response.status_code == 200, host
    refused = httpx.get(f"{server.url}/api/threads", headers={"host": "box.lan:8081"})
    assert refused.status_code == 400


def test_no_host_header_is_refused(server: ThreadedServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"GET /api/threads HTTP/1.0\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400"), answer[:100]
    assert b'"t"' not in answer


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("toolview.example", AllowedHost("toolview.example", None)),
        ("Toolview.Example:8080", AllowedHost("toolview.example", 8080)),
        ("192.168.1.4", AllowedHost("192.168.1.4", None)),
        ("[::1]:80", AllowedHost("[::1]", 80)),
        ("::1", AllowedHost("[::1]", None)),
        ("[0:0::1]", AllowedHost("[::1]", None)),
    ],
)
def test_an_allowed_host_is_a_name_with_an_optional_port(raw: str, expected: AllowedHost) -> None:
    assert parse_allowed_host(raw) == expected


@pytest.mark.parametrize(
    "raw", ["", "*", "*.example", "a b", "host:0", "host:65536", "host:x", "http://host", "h/x"]
)
def test_a_wildcard_or_malformed_allowed_host_is_refused(raw: str) -> None:
    with pytest.raises(ValueError):
        parse_allowed_host(raw)
