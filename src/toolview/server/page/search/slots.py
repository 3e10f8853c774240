"""The searches a client may have in flight, both search routes counted together.

Why one count for both: a thread search (``server.page.search.thread``) and a search
across threads (``server.page.search.across``) each hold a search process or a
search connection for up to their time budget; a client that may open as
many as it likes of either takes every one, and the other readers' searches
answer ``truncated`` or wait. Past ``state.search_limit`` searches in flight
from one address, or ``state.search_total`` from all, the answer is 429 with
``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from starlette.requests import Request

from toolview.server.errors import ApiError
from toolview.server.state import server_state

__all__ = ["RETRY", "search_slot"]

RETRY: Final = {"retry-after": "1"}  # a search slot frees within a budget: ask again soon


@contextmanager
def search_slot(request: Request) -> Iterator[None]:
    """One of the client's search slots (and the server's) for the ``with`` block; 429 if none."""
    state = server_state(request)
    client = request.client.host if request.client else "unknown"
    if state.searching[client] >= state.search_limit:
        message = f"too many searches in flight from {client} (at most {state.search_limit})"
        raise ApiError(429, message, RETRY)
    if state.searching.total() >= state.search_total:
        raise ApiError(429, f"the server runs its most searches ({state.search_total})", RETRY)
    state.searching[client] += 1
    try:
        yield
    finally:
        state.searching[client] -= 1
        if state.searching[client] <= 0:
            del state.searching[client]
