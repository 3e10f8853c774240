"""The connection limits of one server, and who holds its connections.

``server.guard.connections`` enforces them per connection (uvicorn's protocol);
this module keeps the counts of anything ``Guarded`` (so it never imports
``server.guard.connections``, which imports it). Why eviction rather than refusal at a cap: a
slowloris client fills any cap with half-sent heads, and refusing newcomers
would then lock out everyone; closing the connection that has waited longest
with no request under way lets a client that sends its whole head at once in.
"""

from __future__ import annotations

import resource
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, Protocol

__all__ = ["MAX_CONNECTIONS", "ConnectionGuard", "Guarded", "Limits", "raise_fd_limit"]

MAX_CONNECTIONS: Final = 1024


@dataclass(frozen=True)
class Limits:
    """The connection limits of one server (``server.guard.connections`` says what each does)."""

    max_connections: int = MAX_CONNECTIONS
    per_client: int = MAX_CONNECTIONS * 3 // 4
    head_timeout: float = 10.0
    body_window: float = 10.0
    body_min_bytes: int = 5000  # 500 B/s, the minimum rate of Apache's mod_reqtimeout


class Guarded(Protocol):
    """What the guard needs of a connection (``GuardedH11Protocol`` is the one)."""

    peer: str
    waiting_since: float | None
    """Not None: no request under way (evictable), since then."""

    def drop(self) -> None:
        """Close the connection now."""


@dataclass
class ConnectionGuard:
    """The open connections of one server, by client address."""

    limits: Limits
    by_client: dict[str, set[Guarded]] = field(default_factory=dict)
    total: int = 0

    def admit(self, new: Guarded) -> tuple[int, str] | None:
        """Count ``new`` in; ``(status, reason)`` if it must be refused instead."""
        mine = self.by_client.get(new.peer, set())
        if len(mine) >= self.limits.per_client and not _evict(mine):
            return 429, f"too many connections from {new.peer} (at most {self.limits.per_client})"
        if self.total >= self.limits.max_connections and not _evict(self._all()):
            return 503, f"the server holds its most connections ({self.limits.max_connections})"
        self.by_client.setdefault(new.peer, set()).add(new)
        self.total += 1
        return None

    def release(self, gone: Guarded) -> None:
        """Count ``gone`` out (once, however often it is called)."""
        mine = self.by_client.get(gone.peer)
        if mine is None or gone not in mine:
            return
        mine.discard(gone)
        self.total -= 1
        if not mine:
            del self.by_client[gone.peer]

    def _all(self) -> list[Guarded]:
        return [connection for mine in self.by_client.values() for connection in mine]


def _evict(connections: Iterable[Guarded]) -> bool:
    """Close the connection that has waited longest with no request under way, if any."""
    waiting = [c for c in connections if c.waiting_since is not None]
    if not waiting:
        return False
    oldest = min(waiting, key=lambda c: c.waiting_since or 0.0)
    oldest.drop()
    return True


def raise_fd_limit() -> int:
    """Raise this process's soft open-files limit to its hard limit; the soft limit now.

    Why: the default soft limit is often 1,024, and every connection is a file
    descriptor; the hard limit is what an unprivileged process may take.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted
