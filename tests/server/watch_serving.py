"""What the ``serve --watch`` tests share: a follower in a thread, the thread's size and texts.

Every wait is on an event — a frame arriving, or the thread's size as the
API reports it, asked again at once until it holds — never a fixed sleep.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
from sse_client import SSEFrame, read_frames

__all__ = ["Follower", "line", "size", "texts", "until"]


def line(text: str) -> bytes:
    return json.dumps({"kind": "message", "role": "user", "text": text}).encode() + b"\n"


def size(base: str, thread: str) -> int:
    """The thread's observation count (0 while it does not exist)."""
    listed = httpx.get(f"{base}/api/threads", timeout=30).json()["threads"]
    return next((int(t["lastSeq"]) for t in listed if t["id"] == thread), 0)


def until(condition: Callable[[], bool], timeout: float = 120, what: str = "") -> None:
    """Until ``condition()`` holds: each check is one request to the server."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} after {timeout}s")


def texts(base: str, thread: str) -> list[str]:
    """Every observation's text, page by page from the events API."""
    found: list[str] = []
    after: int | None = 0
    while after is not None:
        page = httpx.get(f"{base}/api/threads/{thread}/events?after={after}", timeout=60).json()
        found += [event["observation"]["text"] for event in page["events"]]
        after = page["next"]
    return found


class Follower:
    """An SSE follower in a thread: each frame lands in ``frames`` as it arrives."""

    def __init__(self, url: str, expected: int) -> None:
        self.frames: queue.Queue[SSEFrame] = queue.Queue()

        def seen(got: list[SSEFrame]) -> bool:
            self.frames.put(got[-1]) if got else None
            return len(got) >= expected

        self.thread = threading.Thread(
            target=lambda: read_frames(url, until=seen, timeout=120), daemon=True
        )
        self.thread.start()

    def next(self) -> dict[str, Any]:
        return self.frames.get(timeout=120).data
