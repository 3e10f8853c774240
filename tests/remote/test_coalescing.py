"""``CoalescingQueue`` on its own: what ``take``, ``requeue`` and ``discard`` promise the outbox."""

from __future__ import annotations

import pytest

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.remote.coalescing import CoalescingQueue


def partial(call: str, text: str) -> ToolResult:
    return ToolResult(call, "shell", text, complete=False, is_error=False)


def final(call: str, text: str) -> ToolResult:
    return ToolResult(call, "shell", text, complete=True, is_error=False)


def test_take_stops_at_the_count_or_the_bytes_but_takes_at_least_one() -> None:
    queue = CoalescingQueue(10)
    for n in range(5):
        queue.put(Message("user", str(n)))
    assert queue.take(2, 1000, lambda _: 10) == [Message("user", "0"), Message("user", "1")]
    assert queue.take(9, 25, lambda _: 10) == [Message("user", "2"), Message("user", "3")]
    assert queue.take(9, 1, lambda _: 10) == [Message("user", "4")]  # over budget alone
    assert queue.take(9, 1, lambda _: 10) == [] and len(queue) == 0


def test_a_cost_that_raises_leaves_the_queue_whole() -> None:
    queue = CoalescingQueue(10)
    queue.put(partial("c1", "a"))
    queue.put(Message("user", "bad"))

    def cost(observation: Observation) -> int:
        if isinstance(observation, Message):
            raise ValueError("cannot encode")
        return 1

    with pytest.raises(ValueError, match="cannot encode"):
        queue.take(9, 100, cost)
    assert len(queue) == 2
    assert queue.put(partial("c1", "ab")) == "coalesced"  # the partial is still replaceable


def test_a_taken_partial_is_no_longer_replaced_in_place() -> None:
    queue = CoalescingQueue(10)
    queue.put(partial("c1", "a"))
    assert queue.take(9, 100, lambda _: 1) == [partial("c1", "a")]
    assert queue.put(partial("c1", "ab")) == "queued"


def test_requeue_puts_a_batch_back_in_front_minus_superseded_partials() -> None:
    queue = CoalescingQueue(10)
    batch = [ToolCall("c1", "shell", {}), partial("c1", "a"), partial("c2", "x")]
    queue.put(final("c1", "abc"))  # arrived while the batch was in flight
    queue.requeue(batch)
    assert queue.coalesced == 1
    assert queue.drain() == [ToolCall("c1", "shell", {}), partial("c2", "x"), final("c1", "abc")]


def test_a_requeued_partial_can_be_replaced_again() -> None:
    queue = CoalescingQueue(10)
    queue.requeue([partial("c1", "a")])
    assert queue.put(partial("c1", "ab")) == "coalesced"
    assert queue.drain() == [partial("c1", "ab")]


def test_only_a_partial_may_be_discarded() -> None:
    queue = CoalescingQueue(10)
    assert queue.discard(partial("c1", "a")) and queue.dropped == 1
    for other in (final("c1", "a"), ToolCall("c1", "shell", {}), Message("user", "hi")):
        assert not queue.discard(other)
    assert queue.dropped == 1
