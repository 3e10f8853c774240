"""``BackgroundPublisher``: publish a producer's observations without slowing it.

Why a thread: a producer (the command runner, pi's event loop) calls ``put``
from its own loop and must never wait for the network. ``put`` only hands the
observation to an ``Outbox`` (which coalesces partial results per call); a
daemon thread (``remote.send_loop``) POSTs whatever is pending as one batch,
so while one POST is in flight the next batch gathers by itself.

A publisher rides out a server restart or a Redis outage: the thread retries
what may pass, byte-identical under its idempotency key, for as long as the
producer runs and then up to ``close(timeout)``. Meanwhile the outbox keeps
what arrives, within its capacity (oldest partials dropped first, never a
final: ``remote.outbox``); if it fills up with finals, ``put`` holds the
producer at most ``block_timeout`` once per outage, then reports each further
one lost. A final result over the server's body limit is cut to fit (``cut``
lists them). ``close()`` raises ``PublishError`` naming what was not
published — the producer's own work is never affected.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Self

from toolview.contract import Observation
from toolview.remote.backoff import BASE_DELAY, MAX_DELAY, Backoff
from toolview.remote.client import Publisher, PublishError
from toolview.remote.outbox import DEFAULT_BATCH_BYTES, DEFAULT_CAPACITY, Outbox
from toolview.remote.send_loop import Notify, SendLoop
from toolview.remote.unpublished import describe, lost_summary

__all__ = ["BackgroundPublisher"]


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
        self._publisher = Publisher(url, token=token, timeout=timeout, notify=notify)
        backoff_schedule = Backoff(backoff, max(backoff, max_backoff))
        outbox = Outbox(capacity, batch_bytes)
        self._sending = SendLoop(
            self._publisher, outbox, backoff_schedule, notify or (lambda _message: None)
        )
        self._block_timeout = block_timeout
        self._thread = threading.Thread(
            target=self._sending.run, name="toolview-publisher", daemon=True
        )
        self._thread.start()

    @property
    def page_url(self) -> str:
        """Where a person watches the thread."""
        return self._publisher.page_url

    @property
    def published(self) -> int:
        """Observations the server has stored so far."""
        sending = self._sending
        with sending.cond:
            return sending.outbox.sent_count

    @property
    def coalesced(self) -> int:
        """Partial results that never crossed: a newer one replaced them, or too large alone."""
        sending = self._sending
        with sending.cond:
            return sending.outbox.coalesced + sending.outbox.dropped

    @property
    def cut(self) -> dict[str, int]:
        """Final results cut to fit the server's body limit: call id → bytes of text kept."""
        sending = self._sending
        with sending.cond:
            return dict(sending.outbox.cut)

    def put(self, observation: Observation) -> None:
        """Hand ``observation`` over; returns at once unless the queue is full of finals."""
        sending = self._sending
        with sending.cond:
            deadline = time.monotonic() + (0.0 if sending.stalled else self._block_timeout)
            while sending.error is None and not sending.closing:
                if sending.outbox.put(observation) != "full":
                    sending.cond.notify_all()
                    return
                now = time.monotonic()
                if now >= deadline:
                    sending.stalled = True  # the next ones in this outage do not wait again
                    waiting = sending.outbox.pending
                    sending.say(
                        f"{describe(observation)} not published: {waiting} observations are "
                        f"waiting for {self._publisher.base} ({sending.failing or 'no answer'})"
                    )
                    break
                sending.cond.wait(deadline - now)
            sending.lost.append(observation)

    def sent(self, timeout: float) -> bool:
        """Wait (up to ``timeout`` s) until everything put so far is stored; whether it is.

        Why: a waiting call's long poll asks the server about a call it must
        already hold (``capture()``'s approvals), so the poll waits for this.
        """
        sending = self._sending
        deadline = time.monotonic() + timeout
        with sending.cond:
            while sending.outbox.pending + sending.outbox.in_flight and sending.error is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                sending.cond.wait(left)
            return sending.error is None

    def close(self, timeout: float = 120.0) -> None:
        """Send what is pending, retrying up to ``timeout`` s; ``PublishError`` if any was lost."""
        sending = self._sending
        with sending.cond:
            sending.closing = True
            sending.deadline = time.monotonic() + timeout
            waiting = sending.outbox.pending + sending.outbox.in_flight
            if sending.failing is not None and waiting and sending.error is None:
                sending.say(
                    f"waiting up to {timeout:g} s to publish {waiting} observation"
                    f"{'s' if waiting != 1 else ''} to {self._publisher.base}"
                )
            sending.cond.notify_all()
        self._thread.join(timeout + 1.0)
        with sending.cond:
            if self._thread.is_alive():
                sending.give_up(
                    f"gave up on {self._publisher.base} after {timeout:g} s"
                    + (f" ({sending.failing})" if sending.failing else ""),
                    in_flight=True,
                )
            error, lost = sending.error, list(sending.lost)
        if not self._thread.is_alive():
            self._publisher.close()
        if error is not None or lost:
            raise PublishError((error or "observations were lost") + lost_summary(lost))

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
