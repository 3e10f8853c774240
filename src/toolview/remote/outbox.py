"""``Outbox``: what a producer handed over, and which batch to POST next (sans-IO).

Why a pure class: the rules for what may be coalesced, dropped or resent are
the whole of "publishing never slows the producer", and they are easy to get
subtly wrong — so they live here, with no thread, clock or socket, and the
background sender (``remote.sender``) only moves batches.

The rules:

* ``tool-result.text`` is accumulated, so a pending partial of a call is
  *replaced in place* by a newer partial of the same call: only the latest
  partial per call needs to cross.
* ``capacity`` bounds what waits (a long outage must not grow memory without
  end). When full, the *oldest* queued partial is dropped to make room (a
  later partial of its call, or the final result, carries all its text: text
  is accumulated), whatever arrives; a partial that finds no older partial to
  drop is itself dropped (``"dropped"``).
* A non-partial observation (a call, a final result, a refusal, a message, a
  run event) is never dropped here: when the outbox is full of them it is
  refused (``"full"``), and the caller decides to wait or to report it lost.
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
  batch or looks at its key (``server.batch.read_body``), so a 413 means
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

from collections import deque
from collections.abc import Callable
from typing import Final, Literal, TypeAlias, TypeGuard

import msgspec

from toolview.contract import Observation, ToolRefused, ToolResult
from toolview.remote.fit import fit_result, line_cost
from toolview.remote.unpublished import describe
from toolview.wire.batch_limit import MAX_BATCH
from toolview.wire.idempotency import new_key

__all__ = ["DEFAULT_BATCH_BYTES", "DEFAULT_CAPACITY", "Outbox", "PutResult", "Unencodable"]

DEFAULT_CAPACITY: Final = 1024
DEFAULT_BATCH_BYTES: Final = 4 * 1024 * 1024  # under the 16 MB default body limit; a 413 lowers it

PutResult: TypeAlias = Literal["queued", "coalesced", "dropped", "full"]


class Unencodable(ValueError):
    """An observation that cannot be encoded as JSON (a lone surrogate, an object
    in ``args``): it can never be published, and must not be lost silently."""

    def __init__(self, observation: Observation, error: Exception) -> None:
        super().__init__(f"cannot encode {describe(observation)}: {error}")
        self.observation = observation


class _Slot:
    """A place in the queue; a partial's slot is overwritten by newer partials."""

    __slots__ = ("observation",)

    def __init__(self, observation: Observation) -> None:
        self.observation = observation


class Outbox:
    """A bounded queue of observations that coalesces partial results per call."""

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
        self._queue: deque[_Slot] = deque()
        self._partial_of: dict[str, _Slot] = {}  # call id → its pending, replaceable partial
        self._make_key = make_key
        self._in_flight: list[Observation] | None = None
        self._retry: list[Observation] | None = None  # a failed batch, to resend as it was
        self.key: str | None = None  # the idempotency key of the batch in flight (or to retry)
        self.coalesced = 0
        self.dropped = 0
        self.sent_count = 0
        self.cut: dict[str, int] = {}  # call id → bytes of text kept of a final cut to fit

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
        """Queue ``observation``; see the module docstring for what each result means."""
        if _is_partial(observation):
            slot = self._partial_of.get(observation.tool_call_id)
            if slot is not None:
                slot.observation = observation
                self.coalesced += 1
                return "coalesced"
            if len(self._queue) >= self.capacity and not self._drop_oldest_partial():
                self.dropped += 1
                return "dropped"
            slot = _Slot(observation)
            self._partial_of[observation.tool_call_id] = slot
            self._queue.append(slot)
            return "queued"
        if len(self._queue) >= self.capacity and not self._drop_oldest_partial():
            return "full"
        if isinstance(observation, ToolResult | ToolRefused):
            # the call is over: a later partial (there should be none) must not jump back
            self._partial_of.pop(observation.tool_call_id, None)
        self._queue.append(_Slot(observation))
        return "queued"

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
        count = size = 0
        for slot in self._queue:  # measured before any is taken: an error leaves the queue whole
            cost = _cost(slot.observation)
            if count and (size + cost > self.max_batch_bytes or count >= MAX_BATCH):
                break
            count, size = count + 1, size + cost
        batch: list[Observation] = []
        for _ in range(count):
            slot = self._queue.popleft()
            self._forget_partial(slot)
            batch.append(slot.observation)
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
            self._requeue(batch)
            return None
        alone = batch[0]
        if _is_partial(alone):
            self.dropped += 1
            return None
        fitted = fit_result(alone, self.max_batch_bytes) if isinstance(alone, ToolResult) else None
        if fitted is None:
            return alone
        self.cut[fitted.tool_call_id] = len(fitted.text.encode())
        self._requeue([fitted])
        return None

    def drain(self) -> list[Observation]:
        """Give up: remove and return everything pending (a batch in flight stays)."""
        drained = [*(self._retry or []), *(slot.observation for slot in self._queue)]
        if self._retry is not None:
            self._retry, self.key = None, None
        self._queue.clear()
        self._partial_of.clear()
        return drained

    def _take_in_flight(self) -> list[Observation]:
        """The batch in flight, which is in flight no more."""
        if self._in_flight is None:
            raise RuntimeError("no batch in flight")
        batch, self._in_flight = self._in_flight, None
        return batch

    def _requeue(self, batch: list[Observation]) -> None:
        """Put a batch that was never stored back in front, in order.

        A partial whose call has a later result queued is superseded (that
        result carries its text) and is not put back; one that is put back can
        be replaced in place again by a newer partial.
        """
        later = {
            slot.observation.tool_call_id
            for slot in self._queue
            if isinstance(slot.observation, ToolResult | ToolRefused)
        }
        for observation in reversed(batch):
            if isinstance(observation, ToolResult | ToolRefused):
                if _is_partial(observation) and observation.tool_call_id in later:
                    self.coalesced += 1
                    continue
                later.add(observation.tool_call_id)
            slot = _Slot(observation)
            if _is_partial(observation):
                self._partial_of[observation.tool_call_id] = slot
            self._queue.appendleft(slot)

    def _drop_oldest_partial(self) -> bool:
        """Make room by dropping the oldest queued partial; False if none is queued.

        A scan, but only when full (at most ``capacity`` slots); a partial in
        flight or in a failed batch is not queued, so never dropped here.
        """
        for index, slot in enumerate(self._queue):
            if _is_partial(slot.observation):
                del self._queue[index]
                self._forget_partial(slot)
                self.dropped += 1
                return True
        return False

    def _forget_partial(self, slot: _Slot) -> None:
        """A slot leaving the queue can no longer be overwritten."""
        observation = slot.observation
        if (
            isinstance(observation, ToolResult)
            and self._partial_of.get(observation.tool_call_id) is slot
        ):
            del self._partial_of[observation.tool_call_id]


def _cost(observation: Observation) -> int:
    """``line_cost``, or ``Unencodable`` for an observation no server can be sent."""
    try:
        return line_cost(observation)
    except (TypeError, ValueError, msgspec.EncodeError) as exc:
        raise Unencodable(observation, exc) from None


def _is_partial(observation: Observation) -> TypeGuard[ToolResult]:
    return isinstance(observation, ToolResult) and not observation.complete
