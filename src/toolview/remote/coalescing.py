"""``CoalescingQueue``: what waits to be published — bounded, one pending partial per call.

Why apart from the outbox: which observations may wait, be replaced or be
dropped is one set of rules; which batch goes next, and what is resent under
which key, another (``remote.outbox``). Each is sans-IO and checked alone.

The rules:

* ``tool-result.text`` is accumulated, so a queued partial of a call is
  *replaced in place* by a newer partial of the same call: only the latest
  partial per call needs to cross.
* ``capacity`` bounds what waits (a long outage must not grow memory without
  end). When full, the *oldest* queued partial is dropped to make room (a
  later partial of its call, or the final result, carries all its text: text
  is accumulated), whatever arrives; a partial that finds no older partial to
  drop is itself dropped (``"dropped"``).
* A non-partial observation (a call, a final result, a refusal, a message, a
  run event) is never dropped here: when the queue is full of them it is
  refused (``"full"``), and the caller decides to wait or to report it lost.
* A batch that was never stored goes back in front, in order (``requeue``);
  a partial whose call has a later result queued is not put back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Literal, TypeAlias

from toolview.contract import Observation, ToolRefused, ToolResult, is_partial

__all__ = ["CoalescingQueue", "PutResult"]

PutResult: TypeAlias = Literal["queued", "coalesced", "dropped", "full"]


class _Slot:
    """A place in the queue; a partial's slot is overwritten by newer partials."""

    __slots__ = ("observation",)

    def __init__(self, observation: Observation) -> None:
        self.observation = observation


class CoalescingQueue:
    """Observations waiting for a batch, oldest first; see the module docstring."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._slots: deque[_Slot] = deque()
        self._partial_of: dict[str, _Slot] = {}  # call id → its pending, replaceable partial
        self.coalesced = 0
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._slots)

    def put(self, observation: Observation) -> PutResult:
        """Queue ``observation``; see the module docstring for what each result means."""
        if is_partial(observation):
            slot = self._partial_of.get(observation.tool_call_id)
            if slot is not None:
                slot.observation = observation
                self.coalesced += 1
                return "coalesced"
            if len(self._slots) >= self.capacity and not self._drop_oldest_partial():
                self.dropped += 1
                return "dropped"
            slot = _Slot(observation)
            self._partial_of[observation.tool_call_id] = slot
            self._slots.append(slot)
            return "queued"
        if len(self._slots) >= self.capacity and not self._drop_oldest_partial():
            return "full"
        if isinstance(observation, ToolResult | ToolRefused):
            # the call is over: a later partial (there should be none) must not jump back
            self._partial_of.pop(observation.tool_call_id, None)
        self._slots.append(_Slot(observation))
        return "queued"

    def take(
        self, most: int, max_bytes: int, cost: Callable[[Observation], int]
    ) -> list[Observation]:
        """The oldest observations: at least one, at most ``most`` and ``max_bytes`` of ``cost``.

        Every cost is measured before any is taken: a ``cost`` that raises
        leaves the queue whole.
        """
        count = size = 0
        for slot in self._slots:
            price = cost(slot.observation)
            if count and (size + price > max_bytes or count >= most):
                break
            count, size = count + 1, size + price
        batch: list[Observation] = []
        for _ in range(count):
            slot = self._slots.popleft()
            self._forget_partial(slot)
            batch.append(slot.observation)
        return batch

    def requeue(self, batch: list[Observation]) -> None:
        """Put a batch that was never stored back in front, in order.

        A partial whose call has a later result queued is superseded (that
        result carries its text) and is not put back; one that is put back can
        be replaced in place again by a newer partial.
        """
        later = {
            slot.observation.tool_call_id
            for slot in self._slots
            if isinstance(slot.observation, ToolResult | ToolRefused)
        }
        for observation in reversed(batch):
            if isinstance(observation, ToolResult | ToolRefused):
                if is_partial(observation) and observation.tool_call_id in later:
                    self.coalesced += 1
                    continue
                later.add(observation.tool_call_id)
            slot = _Slot(observation)
            if is_partial(observation):
                self._partial_of[observation.tool_call_id] = slot
            self._slots.appendleft(slot)

    def discard(self, observation: Observation) -> bool:
        """Count a partial that can never cross as dropped; ``False`` for anything else.

        A newer partial or the final result carries a partial's text; anything
        else must not be dropped, and the caller must fail instead.
        """
        if not is_partial(observation):
            return False
        self.dropped += 1
        return True

    def drain(self) -> list[Observation]:
        """Remove and return everything queued, oldest first."""
        drained = [slot.observation for slot in self._slots]
        self._slots.clear()
        self._partial_of.clear()
        return drained

    def _drop_oldest_partial(self) -> bool:
        """Make room by dropping the oldest queued partial; False if none is queued.

        A scan, but only when full (at most ``capacity`` slots); a partial in
        flight or in a failed batch is not queued, so never dropped here.
        """
        for index, slot in enumerate(self._slots):
            if is_partial(slot.observation):
                del self._slots[index]
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
