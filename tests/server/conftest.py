"""Fixtures: each log backend, the app in-process, and the app on a real socket."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from log_fixtures import LogOpener, open_log_fixture, redis_server
from server_threads import ThreadedServer
from toolview_servers import ToolviewServer, local_client

from toolview.server.app import create_app

__all__ = ["LogOpener", "client", "live_server", "open_log", "redis_server", "served"]

open_log = open_log_fixture("srv")


@pytest.fixture
def client(open_log: LogOpener) -> Iterator[TestClient]:
    """The app in-process (Starlette's TestClient), lifespan and all."""
    with local_client(create_app(open_log)) as test_client:
        yield test_client


@pytest.fixture
def live_server(open_log: LogOpener) -> Iterator[ThreadedServer]:
    with ThreadedServer(open_log, keepalive=1.0) as server:
        yield server


@pytest.fixture
def served() -> Iterator[Callable[..., ToolviewServer]]:
    """Starts ``toolview serve`` processes (``--port 0``, then the arguments); killed after."""
    started: list[ToolviewServer] = []

    def start(*args: str) -> ToolviewServer:
        server = ToolviewServer.start(["--port", "0", *args])
        started.append(server)
        return server

    yield start
    for server in started:
        if server.process.poll() is None:
            server.kill()
