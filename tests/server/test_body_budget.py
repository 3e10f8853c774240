"""The bytes of request bodies the server holds at once, across all requests.

Each body is capped (``--body-limit``, 16 MiB), but bodies are read in full
before they wait for a worker: 1,024 connections each posting 16 MiB held
16 GiB. Past the budget a body is refused (503, ``Retry-After``) as it
arrives, and what a finished request held is free again.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_threads import ThreadedServer

from toolview.server.state import BODY_BUDGET_SHARE
from toolview.wire.log.sqlite import SQLiteLog

LIMIT = 10_000
BUDGET = LIMIT * BODY_BUDGET_SHARE


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadedServer]:
    with ThreadedServer(lambda: SQLiteLog(tmp_path / "log.db"), body_limit=LIMIT) as served:
        httpx.post(f"{served.url}/api/threads", json={"id": "t"}).raise_for_status()
        yield served


def half_sent(server: ThreadedServer, sent: int) -> socket.socket:
    """A POST of ``LIMIT`` bytes of which ``sent`` arrived; the rest never comes."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    head = (
        f"POST /api/threads/t/observations HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {LIMIT}\r\n\r\n"
    )
    sock.sendall(head.encode() + b" " * sent)
    return sock


def post(server: ThreadedServer, body: bytes) -> httpx.Response:
    url = f"{server.url}/api/threads/t/observations"
    return httpx.post(url, content=body, headers={"content-type": "application/json"})


def test_bodies_past_the_budget_are_refused_and_the_budget_comes_back(
    server: ThreadedServer,
) -> None:
    held = [half_sent(server, LIMIT - 1) for _ in range(BODY_BUDGET_SHARE)]
    try:
        deadline = time.monotonic() + 30  # until the server has read what they sent
        answer = post(server, b"x" * LIMIT)
        while answer.status_code != 503 and time.monotonic() < deadline:
            answer = post(server, b"x" * LIMIT)
        assert answer.status_code == 503, answer.text  # before: 400 (read, parsed) every time
        assert "retry-after" in answer.headers and "busy" in answer.json()["error"]
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 30  # the closed ones give their bytes back
    answer = post(server, b"x" * LIMIT)
    while answer.status_code == 503 and time.monotonic() < deadline:
        answer = post(server, b"x" * LIMIT)
    assert answer.status_code == 400  # read and parsed again (not JSON: a 400)
    assert post(server, b"x" * (LIMIT + 1)).status_code == 413  # one body's own cap stands
