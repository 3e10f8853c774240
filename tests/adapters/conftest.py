"""Adapter tests: real frameworks with their offline models, and a real ``toolview serve``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "wire"), str(TESTS / "server")]

from toolview_servers import ToolviewServer  # noqa: E402

__all__ = ["served"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[], ToolviewServer]]:
    """Starts ``toolview serve --port 0`` on a SQLite log under ``tmp_path``; killed after."""
    started: list[ToolviewServer] = []

    def start() -> ToolviewServer:
        server = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
        started.append(server)
        return server

    yield start
    for server in started:
        if server.process.poll() is None:
            server.kill()
