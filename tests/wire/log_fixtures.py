"""The log fixtures tests/wire and tests/server share: a real redis-server, and each backend.

Each conftest binds them under the same names (``redis_server``, ``open_log``);
a Redis store is told apart per test by a key prefix made from ``stem``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from toolview_servers import RedisServer

from toolview.wire.log import ObservationLog
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite import SQLiteLog

__all__ = ["SEARCH_BYTES", "LogOpener", "open_log_fixture", "redis_server"]

SEARCH_BYTES = (
    64 * 1024 * 1024
)  # the Redis log searches only when given a budget (serve --search-memory)

LogOpener = Callable[[], ObservationLog]

_prefixes = itertools.count()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server process for the whole session (no persistence), killed at the end."""
    server = RedisServer.start(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


def open_log_fixture(stem: str) -> Any:
    """An ``open_log`` fixture over both backends; Redis prefixes are ``<stem><n>``."""

    @pytest.fixture(params=["sqlite", "redis"])
    def open_log(request: pytest.FixtureRequest, tmp_path: Path) -> LogOpener:
        """Opens a log of one backend (a fresh store per test); each call opens another
        client on the same store."""
        if request.param == "sqlite":
            path = tmp_path / "log.db"
            return lambda: SQLiteLog(path)
        server: RedisServer = request.getfixturevalue("redis_server")
        prefix = f"{stem}{next(_prefixes)}"
        return lambda: RedisLog(server.url, prefix=prefix, search_bytes=SEARCH_BYTES)

    return open_log
