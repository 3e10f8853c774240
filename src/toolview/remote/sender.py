"""``BackgroundPublisher``: publish a producer's observations without slowing it.

Why a thread: a producer (the command runner, pi's event loop) calls ``put``
from its own loop and must never wait for the network. ``put`` only hands the
observation to an ``Outbox`` (which coalesces partial results per call); a
daemon thread POSTs whatever is pending as one batch, so while one POST is in
flight the next batch gathers by itself.

A publisher must ride out a server restart or a Redis outage, so a failure
that may pass (no connection, a timeout, ``429``/``5xx``) is retried for as
long as the producer runs and then up to ``close(timeout)``, with capped
exponential backoff and the server's ``Retry-After`` (``remote.backoff``) —
each time the *same* batch, byte-identical, under its idempotency key, so a
batch whose answer was lost after the server stored it is stored once, even
across a restart (the keys live in the log). Meanwhile the outbox keeps what
arrives, within its capacity (oldest partials dropped first, never a final:
``remote.outbox``); if it fills up with finals, ``put`` holds the producer at
most ``block_timeout`` once per outage, then reports each further one lost.
An answer that will not change (``401``, ``400``…) stops publishing at once.
``close()`` raises ``PublishError`` naming what was not published — the
producer's own work is never affected.

A batch refused as too large (413) is not retried as it was: the server's
limit (``toolview serve --body-limit``) may be far below the outbox's batch
budget, so the outbox re-forms it smaller under new keys (safe: a 413 stores
nothing, see ``remote.outbox``) and sending goes on. An observation over the
limit *on its own* cannot cross as it is: a partial result is dropped, a
final one is cut to fit (``cut`` lists them), anything else stops publishing
with an error naming it; so does one that cannot be encoded at all (a lone
surrogate in its text, an object in its ``args``), and anything else that
would stop the thread: nothing after it is then lost silently.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Self, TypeAlias

from toolview.contract import Observation
from toolview.remote.backoff import BASE_DELAY, MAX_DELAY, Backoff
from toolview.remote.client import BatchTooLarge, Publisher, PublishError
from toolview.remote.fit import line_cost
from toolview.remote.outbox import DEFAULT_BATCH_BYTES, DEFAULT_CAPACITY, Outbox, Unencodable
from toolview.remote.unpublished import describe, lost_summary

__all__ = ["BackgroundPublisher", "Notify"]

Notify: TypeAlias = Callable[[str], None]


class BackgroundPublisher:
    """Publish to ``URL/threads/ID`` from a background thread; see the module docstring.

    A malformed URL raises ``PublishError`` here, before anything runs. ``put``
    never blocks on the network: it blocks (up to ``block_timeout`` seconds)
    only when ``capacity`` non-partial observations are already waiting — and
    then reports that one lost rather than hold the producer any longer.
    ``notify`` hears what a person should know as it happens (an outage
    begins or ends, an observation is lost), from the sender's thread.
    """

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        capacity: int = DEFAULT_CAPACITY,
        batch_bytes: int = DEFAULT_BATCH_BYTES,
        backoff: float = BASE_DELAY,
        max_backoff: float = MAX_DELAY,
        block_timeout: float = 10.0,
        timeout: float = 30.0,
        notify: Notify | None = None,
    ) -> None:
        self._publisher = Publisher(url, token=token, timeout=timeout)
        self._outbox = Outbox(capacity, batch_bytes)
        self._backoff = Backoff(backoff, max(backoff, max_backoff))
        self._block_timeout = block_timeout
        self._notify = notify or (lambda _message: None)
        self._cond = threading.Condition()
        self._closing = False
        self._deadline: float | None = None  # set by close(): retrying stops then
        self._error: str | None = None
        self._failing: str | None = None  # the last transient failure, while an outage lasts
        self._stalled = False  # a put already waited its block_timeout in this outage
        self._lost: list[Observation] = []
        self._thread = threading.Thread(target=self._run, name="toolview-publisher", daemon=True)
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
        """Partial results that never crossed: a newer one replaced them, or too large alone."""
        with self._cond:
            return self._outbox.coalesced + self._outbox.dropped

    @property
    def cut(self) -> dict[str, int]:
        """Final results cut to fit the server's body limit: call id → bytes of text kept."""
        with self._cond:
            return dict(self._outbox.cut)

    def put(self, observation: Observation) -> None:
        """Hand ``observation`` over; returns at once unless the queue is full of finals."""
        with self._cond:
            deadline = time.monotonic() + (0.0 if self._stalled else self._block_timeout)
            while self._error is None and not self._closing:
                if self._outbox.put(observation) != "full":
                    self._cond.notify_all()
                    return
                now = time.monotonic()
                if now >= deadline:
                    self._stalled = True  # the next ones in this outage do not wait again
                    waiting = self._outbox.pending
                    self._say(
                        f"{describe(observation)} not published: {waiting} observations are "
                        f"waiting for {self._publisher.base} ({self._failing or 'no answer'})"
                    )
                    break
                self._cond.wait(deadline - now)
            self._lost.append(observation)

    def close(self, timeout: float = 120.0) -> None:
        """Send what is pending, retrying up to ``timeout`` s; ``PublishError`` if any was lost."""
        with self._cond:
            self._closing = True
            self._deadline = time.monotonic() + timeout
            waiting = self._outbox.pending + self._outbox.in_flight
            if self._failing is not None and waiting and self._error is None:
                self._say(
                    f"waiting up to {timeout:g} s to publish {waiting} observation"
                    f"{'s' if waiting != 1 else ''} to {self._publisher.base}"
                )
            self._cond.notify_all()
        self._thread.join(timeout + 1.0)
        with self._cond:
            if self._thread.is_alive():
                self._give_up(
                    f"gave up on {self._publisher.base} after {timeout:g} s"
                    + (f" ({self._failing})" if self._failing else ""),
                    in_flight=True,
                )
            error, lost = self._error, list(self._lost)
        if not self._thread.is_alive():
            self._publisher.close()
        if error is not None or lost:
            raise PublishError((error or "observations were lost") + lost_summary(lost))

    def _run(self) -> None:
        """The thread: ``_loop``, and should it fail, an error ``close`` reports.

        Without this a dead thread left everything after it unsent, and
        ``close`` found no error: a silent loss.
        """
        try:
            self._loop()
        except Exception as exc:
            with self._cond:
                reason = str(exc) if isinstance(exc, Unencodable) else f"publishing failed: {exc!r}"
                self._give_up(reason, in_flight=True)

    def _loop(self) -> None:
        """Take a batch, send it, repeat; until closed and empty, failed, or past the deadline."""
        while True:
            with self._cond:
                while self._outbox.pending == 0 and not self._closing:
                    self._cond.wait()
                if self._error is not None or self._outbox.pending == 0:
                    return
                retrying = self._failing is not None
                batch = self._outbox.next_batch()  # Unencodable leaves the queue as it was
                key = self._outbox.key
            outcome = self._send(batch, key)
            with self._cond:
                if outcome is None:
                    self._stored()
                elif isinstance(outcome, BatchTooLarge) and not retrying:
                    self._split(outcome)
                else:
                    self._outbox.failed()
                    self._failed(outcome)
                self._cond.notify_all()

    def _send(self, batch: list[Observation], key: str | None) -> PublishError | None:
        """POST ``batch`` under ``key`` once; None once stored, else what went wrong."""
        try:
            self._publisher.publish(batch, key=key)
        except PublishError as exc:
            return exc
        except Exception as exc:  # a bad answer (not JSON…) must not kill the thread silently
            return PublishError(f"{self._publisher.base} answered unexpectedly: {exc!r}")
        return None

    def _stored(self) -> None:
        """The batch in flight was stored (lock held): an outage, if any, is over."""
        self._outbox.sent()
        if self._failing is not None:
            self._say(f"published again to {self._publisher.base}")
        self._failing, self._stalled = None, False
        self._backoff.reset()

    def _failed(self, error: PublishError) -> None:
        """Wait and retry a transient failure until the close deadline; stop on any other."""
        if isinstance(error, BatchTooLarge):  # after an attempt that may have been stored
            self._give_up(f"{error}, after an attempt that may have been stored: cannot split it")
            return
        if not error.transient:
            self._give_up(str(error))
            return
        if self._failing is None:
            self._say(f"{error}: keeping the observations and retrying")
        self._failing = str(error)
        if not self._pause(self._backoff.next_delay(error.retry_after)):
            self._give_up(f"gave up on {self._publisher.base} at the close deadline ({error})")

    def _pause(self, delay: float) -> bool:
        """Wait ``delay`` s (lock held, released meanwhile); False at the close deadline."""
        until = time.monotonic() + delay
        while True:
            now = time.monotonic()
            if self._deadline is not None and now >= self._deadline:
                return False
            if now >= until:
                return True
            end = until if self._deadline is None else min(until, self._deadline)
            self._cond.wait(end - now)

    def _say(self, message: str) -> None:
        """Tell the person (lock held: ``notify`` must only print, never call back in)."""
        with contextlib.suppress(Exception):  # a broken sink must not stop publishing
            self._notify(message)

    def _split(self, refusal: BatchTooLarge) -> None:
        """Re-form the refused batch smaller (lock held); fail on one too large alone."""
        alone = self._outbox.too_large()
        if alone is not None:
            self._lost.append(alone)
            size = line_cost(alone)
            self._give_up(
                f"cannot publish {describe(alone)}: it is {size} bytes on its own, "
                f"over the server's body limit ({refusal}); "
                "raise the server's --body-limit to publish it"
            )

    def _give_up(self, reason: str, *, in_flight: bool = False) -> None:
        """Stop for good (lock held): everything still queued counts as not published."""
        if self._error is None:
            self._error = reason
        self._lost += self._outbox.drain()
        if in_flight and self._outbox.in_flight:
            self._lost += self._outbox.in_flight_batch
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
