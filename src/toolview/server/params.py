"""What a route reads from its request: the thread id in the path, a whole-number query.

They live apart from the routes (``server.api``) because every room reads them:
the watcher names its threads by the same rule as a posted thread
(``ingest.watch.formats``), and the page, search and follow routes all answer
a thread that does not exist alike. Importing them must not import the API.
"""

from __future__ import annotations

import re
from typing import Final

from starlette.requests import Request

from toolview.server.errors import ApiError
from toolview.server.state import server_state

__all__ = ["THREAD_ID", "THREAD_ID_RULE", "query_int", "thread_or_404"]

# "." and ".." are refused: a URL path normalises them away (/threads/.. is /).
THREAD_ID: Final = re.compile(r"(?!\.\.?\Z)[A-Za-z0-9._-]{1,64}")
THREAD_ID_RULE: Final = "a thread id is 1-64 of A-Z a-z 0-9 . _ -, and not '.' or '..'"


async def thread_or_404(request: Request) -> str:
    """The path's thread id if the thread exists, else ``ApiError`` 404."""
    thread_id: str = request.path_params["thread_id"]
    if not THREAD_ID.fullmatch(thread_id):  # never let an odd id reach the log's keys
        raise ApiError(404, f"no such thread ({THREAD_ID_RULE})")
    if await server_state(request).log.thread(thread_id) is None:
        raise ApiError(404, f"no thread {thread_id!r}")
    return thread_id


def query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter in ``low..high``; ``ValueError`` names a bad one."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]{1,19}", raw) or not low <= int(raw) <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(raw)
