"""Fixtures: a real redis-server, and an observation log of each backend."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from toolview_servers import RedisServer

from toolview.wire.log import ObservationLog
from toolview.wire.log_redis import RedisLog
from toolview.wire.log_sqlite import SQLiteLog

_prefixes = itertools.count()

LogOpener = Callable[[], ObservationLog]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer.start(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def open_log(request: pytest.FixtureRequest, tmp_path: Path) -> LogOpener:
    """Opens a fresh log of one backend; every call opens another client on the same store."""
    if request.param == "sqlite":
        path = tmp_path / "log.db"
        return lambda: SQLiteLog(path)
    server: RedisServer = request.getfixturevalue("redis_server")
    prefix = f"test{next(_prefixes)}"
    return lambda: RedisLog(server.url, prefix=prefix)
