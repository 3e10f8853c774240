"""A small SSE reader for the tests: frames as (id, data) until a condition holds."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class SSEFrame:
    id: str | None
    data: dict[str, Any]


def read_frames(
    url: str,
    *,
    until: Callable[[list[SSEFrame]], bool],
    headers: dict[str, str] | None = None,
    timeout: float = 60.0,
    comments: list[str] | None = None,
) -> list[SSEFrame]:
    """Open ``url`` and collect frames until ``until(frames)`` is true (or time runs out).

    The server sends keep-alive comments, so the deadline is checked even when idle.
    """
    frames: list[SSEFrame] = []
    deadline = time.monotonic() + timeout
    with httpx.stream("GET", url, headers=headers or {}, timeout=timeout) as response:
        response.raise_for_status()
        event_id: str | None = None
        data: list[str] = []
        for line in response.iter_lines():
            if time.monotonic() > deadline:
                raise TimeoutError(f"gave up after {timeout}s with {len(frames)} frames")
            if line.startswith(":"):
                if comments is not None:
                    comments.append(line)
                    if until(frames):
                        return frames
                continue
            if line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
            elif line == "" and data:
                frames.append(SSEFrame(event_id, json.loads("\n".join(data))))
                data = []
                if until(frames):
                    return frames
    return frames
