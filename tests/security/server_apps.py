"""Apps for the security tests: a filled thread, every endpoint as a concrete request,
and logs that fail on purpose (to force internal errors and an unavailable backend)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient

from toolview.wire.log.sqlite import SQLiteLog

OBSERVATIONS = [
    {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {"command": "ls"}},
    {
        "kind": "tool-result",
        "toolCallId": "c1",
        "toolName": "shell",
        "text": "a\nb\n",
        "complete": True,
        "isError": False,
    },
]
PARAMS = {"thread_id": "t", "call_id": "c1"}
QUERIES = {  # the routes that need their query
    "/api/threads/{thread_id}/call": "?id=c1",
    "/api/threads/{thread_id}/search": "?q=shell",
    "/api/search": "?q=shell",
}


def fill(client: TestClient, thread: str = "t", headers: dict[str, str] | None = None) -> None:
    """Create ``thread`` with one completed call."""
    client.post("/api/threads", json={"id": thread}, headers=headers).raise_for_status()
    body = "\n".join(json.dumps(o) for o in OBSERVATIONS)
    url = f"/api/threads/{thread}/observations"
    client.post(url, content=body, headers=headers).raise_for_status()


def endpoints(app: Starlette) -> Iterator[tuple[str, str]]:
    """Every (method, concrete path) the app serves, from its routes.

    A route of a kind this does not know fails loudly, so a new one cannot be
    left out of the security tests by accident.
    """
    for route in app.routes:
        if isinstance(route, Route):
            for method in sorted((route.methods or set()) - {"HEAD"}):
                plain = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)  # {call_id:call}
                yield method, plain.format(**PARAMS) + QUERIES.get(route.path, "")
        elif isinstance(route, Mount) and isinstance(route.app, StaticFiles):
            folder = Path(str(route.app.directory))
            for file in sorted(folder.iterdir()):
                yield "GET", f"{route.path}/{file.name}"
        else:
            raise AssertionError(f"a route the security tests do not know: {route!r}")


class BrokenLog(SQLiteLog):
    """A log whose every read fails with ``error`` (a bug, or a backend that is down)."""

    def __init__(self, path: Path, error: Exception) -> None:
        super().__init__(path)
        self.error = error

    async def threads(self) -> Any:
        raise self.error

    async def thread(self, thread_id: str) -> Any:
        raise self.error


def internal_bug() -> Exception:
    return RuntimeError('Traceback (most recent call last): File "/srv/secret.py", line 1')


def redis_down() -> Exception:
    return RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
