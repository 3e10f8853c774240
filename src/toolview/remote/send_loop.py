"""``SendLoop``: the background publisher's thread — send, retry, give up — and what it shares.

Why apart from ``BackgroundPublisher`` (``remote.sender``): that is the
producer's side (``put``, ``close``), this the sender thread's; they meet only
in the state below, all of it read and written under ``cond``.

A failure that may pass (no connection, a timeout, ``429``/``5xx``) is retried
for as long as the producer runs and then up to the close deadline, with
capped exponential backoff and the server's ``Retry-After``
(``remote.backoff``) — each time the *same* batch, byte-identical, under its
idempotency key, so a batch whose answer was lost after the server stored it
is stored once, even across a restart (the keys live in the log). An answer
that will not change (``401``, ``400``…) stops publishing at once.

A batch refused as too large (413) is not retried as it was: the outbox
re-forms it smaller under new keys (safe: a 413 stores nothing, see
``remote.outbox``) and sending goes on. An observation over the limit *on its
own* cannot cross as it is: a partial result is dropped, a final one is cut to
fit, anything else stops publishing with an error naming it; so does one that
cannot be encoded at all, and anything else that would stop the thread:
nothing after it is then lost silently.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import TypeAlias

from toolview.contract import Observation
from toolview.remote.backoff import Backoff
from toolview.remote.client import BatchTooLarge, Publisher, PublishError
from toolview.remote.fit import line_cost
from toolview.remote.outbox import Outbox, Unencodable
from toolview.remote.unpublished import describe

__all__ = ["Notify", "SendLoop"]

Notify: TypeAlias = Callable[[str], None]


class SendLoop:
    """The sender thread's work (``run``), and the state it shares with the producer.

    Every attribute is read and written under ``cond``; ``say`` and
    ``give_up`` are called with it held.
    """

    def __init__(self, publisher: Publisher, outbox: Outbox, backoff: Backoff, notify: Notify):
        self.publisher = publisher
        self.outbox = outbox
        self.backoff = backoff
        self.notify = notify
        self.cond = threading.Condition()
        self.closing = False
        self.deadline: float | None = None  # set by close(): retrying stops then
        self.error: str | None = None
        self.failing: str | None = None  # the last transient failure, while an outage lasts
        self.stalled = False  # a put already waited its block_timeout in this outage
        self.lost: list[Observation] = []

    def run(self) -> None:
        """The thread: ``_loop``, and should it fail, an error ``close`` reports.

        Without this a dead thread left everything after it unsent, and
        ``close`` found no error: a silent loss.
        """
        try:
            self._loop()
        except Exception as exc:
            with self.cond:
                reason = str(exc) if isinstance(exc, Unencodable) else f"publishing failed: {exc!r}"
                self.give_up(reason, in_flight=True)

    def say(self, message: str) -> None:
        """Tell the person (lock held: ``notify`` must only print, never call back in)."""
        with contextlib.suppress(Exception):  # a broken sink must not stop publishing
            self.notify(message)

    def give_up(self, reason: str, *, in_flight: bool = False) -> None:
        """Stop for good (lock held): everything still queued counts as not published."""
        if self.error is None:
            self.error = reason
        self.lost += self.outbox.drain()
        if in_flight and self.outbox.in_flight:
            self.lost += self.outbox.in_flight_batch
        self.cond.notify_all()

    def _loop(self) -> None:
        """Take a batch, send it, repeat; until closed and empty, failed, or past the deadline."""
        while True:
            with self.cond:
                while self.outbox.pending == 0 and not self.closing:
                    self.cond.wait()
                if self.error is not None or self.outbox.pending == 0:
                    return
                retrying = self.failing is not None
                batch = self.outbox.next_batch()  # Unencodable leaves the queue as it was
                key = self.outbox.key
            outcome = self._send(batch, key)
            with self.cond:
                if outcome is None:
                    self._stored()
                elif isinstance(outcome, BatchTooLarge) and not retrying:
                    self._split(outcome)
                else:
                    self.outbox.failed()
                    self._failed(outcome)
                self.cond.notify_all()

    def _send(self, batch: list[Observation], key: str | None) -> PublishError | None:
        """POST ``batch`` under ``key`` once; None once stored, else what went wrong."""
        try:
            self.publisher.publish(batch, key=key)
        except PublishError as exc:
            return exc
        except Exception as exc:  # a bad answer (not JSON…) must not kill the thread silently
            return PublishError(f"{self.publisher.base} answered unexpectedly: {exc!r}")
        return None

    def _stored(self) -> None:
        """The batch in flight was stored (lock held): an outage, if any, is over."""
        self.outbox.sent()
        if self.failing is not None:
            self.say(f"published again to {self.publisher.base}")
        self.failing, self.stalled = None, False
        self.backoff.reset()

    def _failed(self, error: PublishError) -> None:
        """Wait and retry a transient failure until the close deadline; stop on any other."""
        if isinstance(error, BatchTooLarge):  # after an attempt that may have been stored
            self.give_up(f"{error}, after an attempt that may have been stored: cannot split it")
            return
        if not error.transient:
            self.give_up(str(error))
            return
        if self.failing is None:
            self.say(f"{error}: keeping the observations and retrying")
        self.failing = str(error)
        if not self._pause(self.backoff.next_delay(error.retry_after)):
            self.give_up(f"gave up on {self.publisher.base} at the close deadline ({error})")

    def _pause(self, delay: float) -> bool:
        """Wait ``delay`` s (lock held, released meanwhile); False at the close deadline."""
        until = time.monotonic() + delay
        while True:
            now = time.monotonic()
            if self.deadline is not None and now >= self.deadline:
                return False
            if now >= until:
                return True
            end = until if self.deadline is None else min(until, self.deadline)
            self.cond.wait(end - now)

    def _split(self, refusal: BatchTooLarge) -> None:
        """Re-form the refused batch smaller (lock held); fail on one too large alone."""
        alone = self.outbox.too_large()
        if alone is not None:
            self.lost.append(alone)
            size = line_cost(alone)
            self.give_up(
                f"cannot publish {describe(alone)}: it is {size} bytes on its own, "
                f"over the server's body limit ({refusal}); "
                "raise the server's --body-limit to publish it"
            )
