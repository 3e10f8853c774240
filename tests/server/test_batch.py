"""A posted batch: what parsing it may cost, and how a bad one is named."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from toolview.server.ingest.batch import (
    BadBatch,
    BodyTooLarge,
    TooManyObservations,
    parse_observations,
)

SIZE = 4 * 1024 * 1024  # bytes of body; the server takes up to 16 MiB
TINY_OBJECT = b'{"kind":""}'  # the least an array item must be to pass a first look


def peak_of(work: Callable[[], object]) -> int:
    """The most memory ``work`` held at once (traced allocations), in bytes."""
    tracemalloc.start()
    try:
        work()
    except (BadBatch, BodyTooLarge):
        pass  # refused: what it held until then is what counts
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def array_of(item: bytes) -> bytes:
    return b"[" + b",".join([item] * (SIZE // (len(item) + 1))) + b"]"


@pytest.mark.parametrize(
    "body",
    [b"ab\n" * (SIZE // 3), array_of(b"0"), array_of(TINY_OBJECT)],
    ids=["short lines", "array of numbers", "array of tiny objects"],
)
def test_a_body_of_tiny_items_costs_a_small_multiple_of_its_size(body: bytes) -> None:
    """Before: every line, or every array item, became an object at once before
    the first was checked: 16 MiB of ``ab`` lines held ~245 MB, an array of
    ``0`` ~540 MB (each request, two at a time in the workers)."""
    peak = peak_of(lambda: parse_observations(body))
    print(f"\n{len(body):,} bytes of body: peak {peak:,} bytes traced")
    assert peak < 4 * len(body), f"peak {peak:,} bytes for a {len(body):,}-byte body"


def test_too_many_array_items_are_a_413_before_any_is_validated() -> None:
    with pytest.raises(TooManyObservations):
        parse_observations(array_of(TINY_OBJECT))


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        (b"0", "Expected `object`, got `int`"),
        (b"{}", "Object missing required field `kind`"),
        (b'{"kind": 5}', "$[1].kind: Expected `str`"),
    ],
)
def test_an_array_item_that_is_no_observation_is_named(item: bytes, reason: str) -> None:
    call = b'{"kind":"tool-call","toolCallId":"c","toolName":"t","args":{}}'
    with pytest.raises(BadBatch) as raised:
        parse_observations(b"[" + call + b"," + item + b"]")
    message = str(raised.value)
    assert message.startswith("item 2: $[1]") and reason in message, message
