"""The connection limits (``server.guard.connections``) on a real uvicorn socket.

Slowloris heads, a trickled body, the caps per client address and in total
(other loopback addresses as sources: Linux routes all of 127.0.0.0/8 to
``lo``), follows over the total cap, and uvicorn's own 400 with the security
headers. Short deadlines are parameters, so nothing here waits long.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

import httpx
import pytest
import uvicorn
from toolview_servers import free_port, wait_for_port

from toolview.server.app import create_app
from toolview.server.guard.connections import server_config
from toolview.server.guard.limits import Limits
from toolview.server.guard.security import CSP
from toolview.wire.log.sqlite import SQLiteLog


class GuardedServer:
    """The app behind the guarded protocol, uvicorn in a thread, on a loopback port."""

    def __init__(self, tmp_path: Path, limits: Limits, **options: Any) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(lambda: SQLiteLog(tmp_path / "log.db"), keepalive=1.0, **options)
        config = server_config(
            app,
            limits,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        wait_for_port(self.port)
        httpx.post(f"{self.url}/api/threads", json={"id": "t"}).raise_for_status()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), 30, (source, 0))

    def head(self, path: str) -> bytes:
        return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode()


def closed_or_answered(sock: socket.socket, timeout: float) -> bytes | None:
    """What the server sent before closing ``sock``, or ``None`` if still open at ``timeout``."""
    sock.settimeout(0.2)
    received = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    return None


def status_of(sock: socket.socket) -> int:
    """The status code of the response that starts on ``sock``."""
    sock.settimeout(30)
    data = b""
    while b"\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, f"closed before a status line: {data!r}"
        data += chunk
    return int(data.split(b" ", 2)[1])


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def test_slowloris_heads_do_not_lock_others_out_and_are_closed_at_the_deadline(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    limits = Limits(max_connections=40, per_client=40, head_timeout=2.0)
    with GuardedServer(tmp_path, limits) as server:
        for _ in range(200):  # half-sent heads, far more than the cap
            sock = server.connect()
            sock.sendall(b"GET /api/threads HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            sockets.append(sock)
        served = httpx.get(f"{server.url}/api/threads", timeout=30)
        assert served.status_code == 200
        deadline = time.monotonic() + 30  # one deadline for all: they close together
        outcomes = [closed_or_answered(s, max(0.5, deadline - time.monotonic())) for s in sockets]
        assert None not in outcomes  # every half-sent head was closed (evicted, or 408)
        timed_out = [o for o in outcomes if o and o.startswith(b"HTTP/1.1 408")]
        assert 0 < len(timed_out) <= limits.max_connections


def test_a_trickled_body_is_cut(tmp_path: Path) -> None:
    limits = Limits(body_window=0.5, body_min_bytes=1024)
    with GuardedServer(tmp_path, limits) as server, server.connect() as sock:
        # the Host names the port: else the Host check answers 400 at once, and the
        # body's rate is never looked at (this test passed that way, cutting nothing)
        head = f"POST /api/threads/t/observations HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        sock.sendall(
            f"{head}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n".encode()
        )
        sent, outcome = 0, None
        while outcome is None and sent < 150:  # 1 B per 0.2 s: far under 1 KiB per 0.5 s
            try:
                sock.sendall(b" ")
            except (BrokenPipeError, ConnectionResetError):
                outcome = b""
                break
            sent += 1
            outcome = closed_or_answered(sock, timeout=0.2)
        assert sent < 150, "the server kept reading a body that made no progress"
        assert outcome == b"", f"cut without an answer, not {outcome!r}"  # not a 400 or 404
        good = httpx.post(f"{server.url}/api/threads", json={"id": "u"}, timeout=30)
        assert good.status_code == 201


def test_a_body_still_arriving_after_its_answer_is_the_first_to_evict(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    """An answer sent before the body was read (404, 401, 413): the rest is thrown away.

    Before, uvicorn kept such a connection while the body trickled in at the
    minimum rate: never evictable (a request under way), it held a slot of
    the caps for as long as the client liked, token or not.
    """
    limits = Limits(max_connections=3, per_client=3, body_window=2.0, body_min_bytes=10)
    with GuardedServer(tmp_path, limits) as server:
        head = f"POST /api/threads/nope/observations HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        head += "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n"
        for _ in range(limits.max_connections):
            sock = server.connect()
            sock.sendall(head.encode() + b" " * 50)
            assert status_of(sock) == 404
            sock.sendall(b" " * 50)  # the body goes on, at the rate
            sockets.append(sock)
        good = httpx.post(f"{server.url}/api/threads", json={"id": "u"}, timeout=30)
        assert good.status_code == 201  # before: 429, every slot held by an answered body


def test_a_client_still_sending_reads_its_early_answer(tmp_path: Path) -> None:
    """A body over the limit is answered 413 at its head; the sender still gets that answer."""
    with GuardedServer(tmp_path, Limits(), body_limit=1000) as server:
        response = httpx.post(
            f"{server.url}/api/threads/t/observations",
            content=b" " * 4_000_000,
            headers={"content-type": "application/json"},
            timeout=30,
        )
        assert response.status_code == 413


def test_a_client_over_its_cap_gets_429_and_the_total_cap_503(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    limits = Limits(max_connections=8, per_client=4)
    with GuardedServer(tmp_path, limits, follow_limit=10, follow_total=100) as server:
        for source in ("127.0.0.2", "127.0.0.3"):
            for _ in range(4):  # follow streams: requests under way, never evicted
                sock = server.connect(source)
                sock.sendall(server.head("/api/threads/t/follow"))
                assert status_of(sock) == 200
                sockets.append(sock)
        over_client = server.connect("127.0.0.2")
        sockets.append(over_client)
        answer = closed_or_answered(over_client, timeout=30)
        assert answer is not None and answer.startswith(b"HTTP/1.1 429")
        assert b"at most 4" in answer and CSP.encode() in answer
        over_total = server.connect("127.0.0.4")
        sockets.append(over_total)
        answer = closed_or_answered(over_total, timeout=30)
        assert answer is not None and answer.startswith(b"HTTP/1.1 503")
        sockets.pop(0).close()  # one stream ends: its place is free again
        assert _eventually_served(server)


def _eventually_served(server: GuardedServer) -> bool:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{server.url}/api/threads", timeout=30).status_code == 200:
                return True
        except httpx.TransportError:
            pass
    return False


def test_follows_over_the_total_cap_from_many_addresses_get_429(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    with GuardedServer(tmp_path, Limits(), follow_limit=4, follow_total=10) as server:
        statuses = []
        for source in (f"127.0.0.{n}" for n in range(1, 9)):
            for _ in range(2):
                sock = server.connect(source)
                sock.sendall(server.head("/api/threads/t/follow"))
                statuses.append(status_of(sock))
                sockets.append(sock)
        assert statuses.count(200) == 10
        assert statuses.count(429) == 6


def test_uvicorns_own_400_carries_the_security_headers(tmp_path: Path) -> None:
    with GuardedServer(tmp_path, Limits()) as server, server.connect() as sock:
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        answer = closed_or_answered(sock, timeout=30)
        assert answer is not None and answer.startswith(b"HTTP/1.1 400")
        head = answer.split(b"\r\n\r\n")[0].lower()
        assert b"content-security-policy: " + CSP.encode().lower() in head
        assert b"x-content-type-options: nosniff" in head
        assert b"x-frame-options: deny" in head


def test_a_body_the_app_has_not_asked_for_yet_is_not_cut(tmp_path: Path) -> None:
    """``Expect: 100-continue``: the client rightly sends nothing until the app reads,
    and then gets a whole body window, however close to a check the app began."""
    import asyncio

    async def slow_reader(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        await asyncio.sleep(3.4)  # busy through two body windows, reads 1.1 s before a check
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"%d" % len(body)})

    port = free_port()
    limits = Limits(body_window=1.5, body_min_bytes=1024)
    config = server_config(slow_reader, limits, host="127.0.0.1", port=port, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for_port(port)
        with socket.create_connection(("127.0.0.1", port), 30) as sock:
            sock.sendall(
                b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n"
                b"Expect: 100-continue\r\n\r\n"
            )
            assert status_of(sock) == 100
            time.sleep(1.3)  # the scenario, not a wait: a client slower than 1.1 s, within 1.5
            sock.sendall(b"x" * 5000)
            assert status_of(sock) == 200  # not cut while the app was busy
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_websockets_are_off_so_no_upgrade_leaves_the_guarded_protocol() -> None:
    """With a WebSocket library installed, uvicorn's ``ws="auto"`` would hand an
    ``Upgrade`` to a protocol these limits do not count: the config says none."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("never called")

    assert server_config(app, Limits()).ws == "none"
