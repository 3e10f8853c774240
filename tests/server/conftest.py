"""Fixtures: each log backend, the app in-process, and the app on a real socket."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from server_threads import ThreadedServer
from toolview_servers import RedisServer

from toolview.server.app import create_app
from toolview.wire.log import ObservationLog
from toolview.wire.log_redis import RedisLog
from toolview.wire.log_sqlite import SQLiteLog

LogOpener = Callable[[], ObservationLog]
_prefixes = itertools.count()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer.start(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def open_log(request: pytest.FixtureRequest, tmp_path: Path) -> LogOpener:
    """Opens a log of one backend (a fresh store per test)."""
    if request.param == "sqlite":
        path = tmp_path / "log.db"
        return lambda: SQLiteLog(path)
    server: RedisServer = request.getfixturevalue("redis_server")
    prefix = f"srv{next(_prefixes)}"
    return lambda: RedisLog(server.url, prefix=prefix)


@pytest.fixture
def client(open_log: LogOpener) -> Iterator[TestClient]:
    """The app in-process (Starlette's TestClient), lifespan and all."""
    with TestClient(create_app(open_log)) as test_client:
        yield test_client


@pytest.fixture
def live_server(open_log: LogOpener) -> Iterator[ThreadedServer]:
    with ThreadedServer(open_log, keepalive=1.0) as server:
        yield server
