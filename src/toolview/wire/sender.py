"""``BackgroundPublisher``: publish a producer's observations without slowing it.

Why a thread: a producer (the command runner, pi's event loop) calls ``put``
from its own loop and must never wait for the network. ``put`` only hands the
observation to an ``Outbox`` (which coalesces partial results per call); a
daemon thread POSTs whatever is pending as one batch, so while one POST is in
flight the next batch gathers by itself. A failed POST is retried a few times
with backoff, byte-identical and under the batch's idempotency key, so a batch
whose answer was lost after the server stored it is stored once; after that
the publisher gives up for good (stops sending, keeps counting what it could
not send) and ``close()`` raises ``PublishError`` with the reason — the
producer's own work is never affected.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Final, Self

from toolview.contract import Observation
from toolview.wire.client import Publisher, PublishError
from toolview.wire.outbox import DEFAULT_CAPACITY, Outbox

__all__ = ["BackgroundPublisher"]

_RETRIES: Final = 3
_BACKOFF: Final = 0.25  # seconds before the first retry; doubled each time


class BackgroundPublisher:
    """Publish to ``URL/threads/ID`` from a background thread; see the module docstring.

    A malformed URL raises ``PublishError`` here, before anything runs. ``put``
    never blocks on the network: it blocks (up to ``block_timeout`` seconds)
    only when ``capacity`` non-partial observations are already waiting, and
    then gives up rather than drop one silently.
    """

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        capacity: int = DEFAULT_CAPACITY,
        retries: int = _RETRIES,
        backoff: float = _BACKOFF,
        block_timeout: float = 10.0,
        timeout: float = 30.0,
    ) -> None:
        self._publisher = Publisher(url, token=token, timeout=timeout)
        self._outbox = Outbox(capacity)
        self._retries, self._backoff, self._block_timeout = retries, backoff, block_timeout
        self._cond = threading.Condition()
        self._closing = False
        self._error: str | None = None
        self._unsent = 0
        self._thread = threading.Thread(target=self._loop, name="toolview-publisher", daemon=True)
        self._thread.start()

    @property
    def page_url(self) -> str:
        """Where a person watches the thread."""
        return self._publisher.page_url

    @property
    def published(self) -> int:
        """Observations the server has stored so far."""
        with self._cond:
            return self._outbox.sent_count

    @property
    def coalesced(self) -> int:
        """Partial results that never crossed because a newer one replaced them."""
        with self._cond:
            return self._outbox.coalesced + self._outbox.dropped

    def put(self, observation: Observation) -> None:
        """Hand ``observation`` over; returns at once unless the queue is full."""
        with self._cond:
            deadline: float | None = None
            while self._error is None and not self._closing:
                if self._outbox.put(observation) != "full":
                    self._cond.notify_all()
                    return
                now = time.monotonic()
                deadline = deadline if deadline is not None else now + self._block_timeout
                if now >= deadline:
                    self._give_up(
                        f"the server at {self._publisher.base} is not keeping up "
                        f"({self._outbox.pending} observations waiting)"
                    )
                    break
                self._cond.wait(deadline - now)
            self._unsent += 1

    def close(self, timeout: float = 120.0) -> None:
        """Send everything pending, stop the thread; ``PublishError`` if anything was lost."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(timeout)
        with self._cond:
            if self._thread.is_alive():
                self._give_up(f"gave up waiting for {self._publisher.base} after {timeout:g}s")
            error, unsent = self._error, self._unsent
        if not self._thread.is_alive():
            self._publisher.close()
        if error is not None:
            lost = f"; {unsent} observation{'s' if unsent != 1 else ''} not published"
            raise PublishError(error + (lost if unsent else ""))

    def _loop(self) -> None:
        """Take a batch, send it (retrying), repeat; until closed and empty, or failed."""
        while True:
            with self._cond:
                while self._outbox.pending == 0 and not self._closing:
                    self._cond.wait()
                if self._error is not None or self._outbox.pending == 0:
                    return
                batch = self._outbox.next_batch()
                key = self._outbox.key
            error = self._send(batch, key)
            with self._cond:
                if error is None:
                    self._outbox.sent()
                else:
                    self._outbox.failed()
                    self._give_up(error)
                self._cond.notify_all()

    def _send(self, batch: list[Observation], key: str | None) -> str | None:
        """POST ``batch`` under ``key``, retrying (same body, same key) with backoff.

        The last error, or None once stored.
        """
        delay = self._backoff
        for attempt in range(self._retries + 1):
            try:
                self._publisher.publish(batch, key=key)
                return None
            except PublishError as exc:
                if attempt == self._retries:
                    return str(exc)
            except Exception as exc:  # a bad answer (not JSON…) must not kill the thread silently
                if attempt == self._retries:
                    return f"{self._publisher.base} answered unexpectedly: {exc!r}"
            time.sleep(delay)
            delay *= 2
        return None  # unreachable: the loop returns on its last attempt

    def _give_up(self, reason: str) -> None:
        """Stop for good (lock held): everything still queued counts as not published."""
        if self._error is None:
            self._error = reason
        self._unsent += len(self._outbox.drain())
        self._cond.notify_all()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
