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

A batch refused as too large (413) is not retried as it was: the server's
limit (``toolview serve --body-limit``) may be far below the outbox's batch
budget, so the outbox re-forms it smaller under new keys (safe: a 413 stores
nothing, see ``wire.outbox``) and sending goes on. An observation over the
limit *on its own* cannot cross as it is: a partial result is dropped, a
final one is cut to fit (``cut`` lists them), anything else stops publishing
with an error naming it.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Final, Self

from toolview.contract import Observation
from toolview.wire.client import BatchTooLarge, Publisher, PublishError
from toolview.wire.fit import line_cost
from toolview.wire.outbox import DEFAULT_BATCH_BYTES, DEFAULT_CAPACITY, Outbox

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
        batch_bytes: int = DEFAULT_BATCH_BYTES,
        retries: int = _RETRIES,
        backoff: float = _BACKOFF,
        block_timeout: float = 10.0,
        timeout: float = 30.0,
    ) -> None:
        self._publisher = Publisher(url, token=token, timeout=timeout)
        self._outbox = Outbox(capacity, batch_bytes)
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
        """Partial results that never crossed: a newer one replaced them, or too large alone."""
        with self._cond:
            return self._outbox.coalesced + self._outbox.dropped

    @property
    def cut(self) -> dict[str, int]:
        """Final results cut to fit the server's body limit: call id → bytes of text kept."""
        with self._cond:
            return dict(self._outbox.cut)

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
            outcome = self._send(batch, key)
            with self._cond:
                if outcome is None:
                    self._outbox.sent()
                elif isinstance(outcome, BatchTooLarge):
                    self._split(outcome)
                else:
                    self._outbox.failed()
                    self._give_up(outcome)
                self._cond.notify_all()

    def _send(self, batch: list[Observation], key: str | None) -> str | BatchTooLarge | None:
        """POST ``batch`` under ``key``, retrying (same body, same key) with backoff.

        None once stored; the 413 if the first attempt was refused as too
        large (nothing stored: the caller splits the batch); else the last error.
        A 413 after a failed attempt is an error too: that attempt may have
        been stored, and only a byte-identical resend is then safe.
        """
        delay = self._backoff
        for attempt in range(self._retries + 1):
            try:
                self._publisher.publish(batch, key=key)
                return None
            except BatchTooLarge as exc:
                if attempt == 0:
                    return exc
                return f"{exc}, after an attempt that may have been stored: cannot split it"
            except PublishError as exc:
                if attempt == self._retries:
                    return str(exc)
            except Exception as exc:  # a bad answer (not JSON…) must not kill the thread silently
                if attempt == self._retries:
                    return f"{self._publisher.base} answered unexpectedly: {exc!r}"
            time.sleep(delay)
            delay *= 2
        return None  # unreachable: the loop returns on its last attempt

    def _split(self, refusal: BatchTooLarge) -> None:
        """Re-form the refused batch smaller (lock held); fail on one too large alone."""
        alone = self._outbox.too_large()
        if alone is not None:
            self._unsent += 1
            size = line_cost(alone)
            self._give_up(
                f"cannot publish {_describe(alone)}: it is {size} bytes on its own, "
                f"over the server's body limit ({refusal}); "
                "raise the server's --body-limit to publish it"
            )

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


def _describe(observation: Observation) -> str:
    """``the tool-result of call c1``: which observation, for an error message."""
    kind = type(observation).__struct_config__.tag
    call = getattr(observation, "tool_call_id", None)
    return f"the {kind} of call {call!r}" if call is not None else f"a {kind} observation"
