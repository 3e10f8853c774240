"""What a real agent's permission hook published: the one place the real-hook tests wait on it."""

from __future__ import annotations

import time
from typing import Any

import httpx

__all__ = ["published_waiting"]


def published_waiting(url: str, deadline: float = 120.0) -> tuple[str, list[dict[str, Any]]]:
    """The thread with a waiting call on the server at ``url`` and its waiting calls, once the
    agent's hook has published them (polling the server, with a deadline, never a fixed sleep)."""
    until = time.monotonic() + deadline
    while time.monotonic() < until:
        threads = [t["id"] for t in httpx.get(f"{url}/api/threads").json()["threads"]]
        for thread in threads:
            waiting = httpx.get(f"{url}/api/threads/{thread}/waiting").json()["waiting"]
            if waiting:
                return thread, waiting
        time.sleep(0.05)  # the hook runs in another process: its publish is not an event here
    raise AssertionError("the hook published no waiting call")
