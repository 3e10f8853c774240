"""``ByteLRU``: a least-recently-used map bounded by bytes, for untrusted values of any size.

Why a module of its own: it is a plain container, safe across threads, with
no idea of redaction; the redaction memo (``wire.memo``) is its one user, and
each is read more easily without the other.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Final, Generic, TypeVar

__all__ = ["ByteLRU"]

_ENTRY_COST: Final = 200  # the dict slot, the key and entry tuples

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class ByteLRU(Generic[K, V]):
    """A least-recently-used map bounded by the summed SIZE of its entries, not their count.

    Why bytes: what is cached is untrusted output of any length; 64 entries of
    16 MiB each would be a gigabyte. The caller states each entry's size; an
    entry bigger than ``budget // 4`` is not kept at all (it would evict most
    of the others for one value).
    """

    def __init__(self, budget: int) -> None:
        if budget < 0:
            raise ValueError(f"budget must be ≥ 0 bytes, not {budget}")
        self.budget = budget
        self.size = 0
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        """The value, marked recently used; ``None`` when absent."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: K, value: V, size: int) -> None:
        """Keep ``value``, evicting the least recently used until within budget."""
        cost = size + _ENTRY_COST
        if cost > self.budget // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._entries[key] = (value, cost)
            self.size += cost
            while self.size > self.budget:
                _, (_, evicted) = self._entries.popitem(last=False)
                self.size -= evicted
