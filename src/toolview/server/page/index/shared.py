"""The index's listing shared by every request and follower, and the pages cut from it.

Why shared: the index's stream polls the listing once a ``POLL`` for each
follower, and each page request wants it too; made at most once a ``POLL``
(or when asked ``fresh``), and only re-made by the directory when a card
changed (``Directory.listing``), one listing serves them all — its JSON
encoded once per change, its pages cut from views made once per listing
(``paging.ListingViews``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Final

import msgspec

from toolview.server.page.index.directory import Directory
from toolview.server.page.index.paging import ListingQuery, ListingViews

__all__ = ["POLL", "SharedListing"]

POLL: Final = 1.0  # seconds: the index's stream looks at the log this often


class SharedListing:
    """The directory's listing, made at most once per ``POLL`` for everyone asking."""

    def __init__(self, directory: Directory) -> None:
        self.directory = directory
        self.views = ListingViews()
        self._made = -POLL
        self._threads: list[dict[str, object]] = []
        self._body: tuple[list[dict[str, object]] | None, bytes] = (None, b"")
        self._lock = asyncio.Lock()

    async def encoded(self, *, fresh: bool = False) -> bytes:
        """The listing as JSON (``{"threads": [...]}``), at most ``POLL`` old (``fresh``: now);
        encoded again only when the listing changed (megabytes at 10,000 threads)."""
        threads = await self.threads(fresh=fresh)
        if self._body[0] is not threads:
            self._body = (threads, msgspec.json.encode({"threads": threads}))
        return self._body[1]

    async def threads(self, *, fresh: bool = False) -> list[dict[str, object]]:
        """The listing itself, newest activity first, at most ``POLL`` old (``fresh``: now)."""
        async with self._lock:
            if fresh or time.monotonic() - self._made >= POLL:
                self._threads = await self.directory.listing()
                self._made = time.monotonic()
            return self._threads

    async def page(self, query: ListingQuery, *, fresh: bool = False) -> dict[str, object]:
        """One page of the listing (``index.paging``): a slice of a view made once a listing."""
        return self.views.page(await self.threads(fresh=fresh), query)
