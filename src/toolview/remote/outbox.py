"""``Outbox``: what a producer handed over, and which batch to POST next (sans-IO).

Why a pure class: the rules for what may be coalesced, dropped or resent are
the whole of "publishing never slows the producer", and they are easy to get
subtly wrong — so they live here, with no thread, clock or socket, and the
background sender (``remote.sender``) only moves batches.

What waits, and what is coalesced or dropped while it waits, is the queue's
business (``remote.coalescing``: one pending partial per call, bounded by
``capacity``). The outbox's rules are about batches:

* A batch holds at most ``MAX_BATCH`` (``wire.batch_limit``) observations
  and ``max_batch_bytes`` bytes.
* One batch is in flight at a time, with its idempotency key (``key``).
  ``sent()`` forgets it; ``failed()`` keeps it whole to be sent again *first,
  byte-identical, under the same key*: the server may have stored it already
  (the answer was lost), and only an identical retry under its key is then
  stored once. A partial a newer one superseded meanwhile is resent anyway
  (harmless: the newer one follows it); anything queued meanwhile waits for
  the next batch, under a new key.
* The one exception: a batch the server refused as too large (413,
  ``too_large()``). The server checks the body's size before it reads the
  batch or looks at its key (``server.ingest.batch.read_body``), so a 413 means
  nothing of it was stored and its key was not recorded: the batch is
  *re-formed* smaller, under new keys. The byte budget drops to half the
  refused body (never grows back), down to one observation per batch. A
  single observation over the limit cannot cross as it is: a partial is
  dropped (a newer partial or the final result carries its text); a final
  result is *cut to fit* — its longest strings (``text`` and the descriptor's
  props) keep their tails, ``descriptor.truncated`` says how much is shown,
  and ``cut`` records it, so the thread still shows how the call ended
  (``remote.fit``); anything else (or a final result that cannot fit even cut,
  or one without a descriptor to record the cut in) is handed back
  to the caller, which must fail — it is never dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

from toolview.contract import Observation, ToolResult
from toolview.remote.coalescing import CoalescingQueue, PutResult
from toolview.remote.fit import fit_result, line_cost
from toolview.remote.unpublished import describe
from toolview.wire.batch_limit import MAX_BATCH
from toolview.wire.idempotency import new_key

__all__ = ["DEFAULT_BATCH_BYTES", "DEFAULT_CAPACITY", "Outbox", "Unencodable"]

DEFAULT_CAPACITY: Final = 1024
DEFAULT_BATCH_BYTES: Final = 4 * 1024 * 1024  # under the 16 MB default body limit; a 413 lowers it


class Unencodable(ValueError):
    """An observation that cannot be encoded as JSON (a lone surrogate, an object
    in ``args``): it can never be published, and must not be lost silently."""

    def __init__(self, observation: Observation, error: Exception) -> None:
        super().__init__(f"cannot encode {describe(observation)}: {error}")
        self.observation = observation


class Outbox:
    """What waits to be published (a ``CoalescingQueue``) and the batch in flight, with its key."""

    def __init__(
        self,
        capacity: int = DEFAULT_CAPACITY,
        max_batch_bytes: int = DEFAULT_BATCH_BYTES,
        *,
        make_key: Callable[[], str] = new_key,
    ) -> None:
        if capacity < 1 or max_batch_bytes < 1:
            raise ValueError("capacity and max_batch_bytes must be at least 1")
        self.capacity = capacity
        self.max_batch_bytes = max_batch_bytes
        self._queue = CoalescingQueue(capacity)
        self._make_key = make_key
        self._in_flight: list[Observation] | None = None
        self._retry: list[Observation] | None = None  # a failed batch, to resend as it was
        self.key: str | None = None  # the idempotency key of the batch in flight (or to retry)
        self.sent_count = 0
        self.cut: dict[str, int] = {}  # call id → bytes of text kept of a final cut to fit

    @property
    def coalesced(self) -> int:
        """Partials that never crossed: a newer partial of their call replaced them."""
        return self._queue.coalesced

    @property
    def dropped(self) -> int:
        """Partials dropped to make room, or too large to cross on their own."""
        return self._queue.dropped

    @property
    def pending(self) -> int:
        """Observations waiting for a batch (a failed one included, not the one in flight)."""
        return len(self._queue) + (len(self._retry) if self._retry is not None else 0)

    @property
    def in_flight(self) -> int:
        """Observations of the batch being sent now."""
        return len(self._in_flight) if self._in_flight is not None else 0

    @property
    def in_flight_batch(self) -> list[Observation]:
        """A copy of the batch being sent now (empty if none)."""
        return list(self._in_flight or [])

    @property
    def idle(self) -> bool:
        """Nothing pending and nothing in flight."""
        return self.pending == 0 and self._in_flight is None

    def put(self, observation: Observation) -> PutResult:
        """Queue ``observation`` (``remote.coalescing`` says what each result means)."""
        return self._queue.put(observation)

    def next_batch(self) -> list[Observation]:
        """A failed batch again, as it was; else the oldest pending up to the batch size.

        A new batch (at least one observation) gets a fresh ``key``; a failed
        one keeps its own. An observation that cannot be encoded raises
        ``Unencodable`` and nothing is taken: the caller must fail.
        """
        if self._in_flight is not None:
            raise RuntimeError("a batch is already in flight: call sent() or failed() first")
        if self._retry is not None:
            self._in_flight, self._retry = self._retry, None
            return list(self._in_flight)
        if not self._queue:
            return []
        batch = self._queue.take(MAX_BATCH, self.max_batch_bytes, _cost)
        self._in_flight, self.key = batch, self._make_key()
        return list(batch)

    def sent(self) -> None:
        """The batch in flight was stored by the server."""
        self.sent_count += len(self._take_in_flight())
        self.key = None

    def failed(self) -> None:
        """The batch in flight may not be stored: keep it, and its key, to resend first."""
        self._retry = self._take_in_flight()

    def too_large(self) -> Observation | None:
        """The batch in flight was refused as too large (413): re-form it smaller.

        Nothing of it was stored (see the module docstring), so its
        observations go back to the front of the queue, in order, to leave
        again in smaller batches under new keys, and the budget drops to half
        the refused body. A batch of one cannot shrink: a partial is dropped
        (counted in ``dropped``); anything else is returned, and the caller
        must fail rather than publish on as if it had crossed.
        """
        batch = self._take_in_flight()
        size = sum(line_cost(observation) for observation in batch)
        self.max_batch_bytes = max(1, min(self.max_batch_bytes, size // 2))
        self.key = None
        if len(batch) > 1:
            self._queue.requeue(batch)
            return None
        alone = batch[0]
        if self._queue.discard(alone):  # a partial: a newer one or the final carries its text
            return None
        fitted = fit_result(alone, self.max_batch_bytes) if isinstance(alone, ToolResult) else None
        if fitted is None:
            return alone
        self.cut[fitted.tool_call_id] = len(fitted.text.encode())
        self._queue.requeue([fitted])
        return None

    def drain(self) -> list[Observation]:
        """Give up: remove and return everything pending (a batch in flight stays)."""
        drained = [*(self._retry or []), *self._queue.drain()]
        if self._retry is not None:
            self._retry, self.key = None, None
        return drained

    def _take_in_flight(self) -> list[Observation]:
        """The batch in flight, which is in flight no more."""
        if self._in_flight is None:
            raise RuntimeError("no batch in flight")
        batch, self._in_flight = self._in_flight, None
        return batch


def _cost(observation: Observation) -> int:
    """``line_cost``, or ``Unencodable`` for an observation no server can be sent."""
    try:
        return line_cost(observation)
    except (TypeError, ValueError, msgspec.EncodeError) as exc:
        raise Unencodable(observation, exc) from None
