"""Rendered pieces of threads, least recently used out, bounded in characters.

A view of a thread bigger than the bound would, under plain LRU, evict its own
first pieces while adding its last ones, and find none of them the next time.
So each request has a tick, and a piece is not added when it could only be
added by evicting a piece that same request used or added: the first pieces
of such a thread stay cached, the rest are rendered on each view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Final, TypeAlias

__all__ = ["PIECE_CHARS", "PieceCache", "PieceKey"]

PIECE_CHARS: Final = 64 * 1024 * 1024  # about 64 MiB of markup (most of it ASCII)
PieceKey: TypeAlias = tuple[int, int, int, bool]
"""(projection epoch, entry position, version, successes drawn open): a thread that grows
past ``Limits.open_calls`` draws its successes closed, so those are other pieces."""


class PieceCache:
    """``PieceKey`` -> markup, at most ``limit`` characters; safe from any thread."""

    def __init__(self, limit: int = PIECE_CHARS) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[PieceKey, tuple[str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: PieceKey, tick: int) -> str | None:
        """The piece, marked as used by request ``tick``; ``None`` if not kept."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items[key] = (item[0], tick)
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: PieceKey, piece: str, tick: int) -> bool:
        """Keep ``piece`` unless that would evict one request ``tick`` used; kept or not."""
        with self._lock:
            if len(piece) > self.limit:
                return False
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= len(old[0])
            while self.size + len(piece) > self.limit:
                oldest, (markup, used) = next(iter(self._items.items()))
                if used == tick:
                    return False
                del self._items[oldest]
                self.size -= len(markup)
            self._items[key] = (piece, tick)
            self.size += len(piece)
            return True
