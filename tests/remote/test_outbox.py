"""``Outbox``: coalescing, bounds, batching and retry order, as pure unit tests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Truncation,
    encode_observation,
)
from toolview.remote.fit import fit_result
from toolview.remote.outbox import Outbox, Unencodable
from toolview.wire.batch_limit import MAX_BATCH


def partial(call: str, text: str) -> ToolResult:
    return ToolResult(call, "shell", text, complete=False, is_error=False)


def final(call: str, text: str) -> ToolResult:
    return ToolResult(call, "shell", text, complete=True, is_error=False)


def test_partials_of_one_call_coalesce_in_place() -> None:
    box = Outbox()
    assert box.put(ToolCall("c1", "shell", {"command": "x"})) == "queued"
    assert box.put(partial("c1", "a")) == "queued"
    assert box.put(Message("assistant", "meanwhile")) == "queued"
    assert box.put(partial("c1", "ab")) == "coalesced"
    assert box.put(partial("c1", "abc")) == "coalesced"
    assert box.pending == 3 and box.coalesced == 2
    assert box.next_batch() == [
        ToolCall("c1", "shell", {"command": "x"}),
        partial("c1", "abc"),
        Message("assistant", "meanwhile"),
    ]


def test_partials_of_different_calls_do_not_coalesce() -> None:
    box = Outbox()
    box.put(partial("c1", "one"))
    box.put(partial("c2", "two"))
    box.put(partial("c1", "one more"))
    assert box.next_batch() == [partial("c1", "one more"), partial("c2", "two")]


def test_a_final_result_is_never_replaced_and_stops_coalescing() -> None:
    box = Outbox()
    box.put(partial("c1", "a"))
    box.put(final("c1", "abc"))
    assert box.put(partial("c1", "late")) == "queued"  # not folded back before the final
    assert box.next_batch() == [partial("c1", "a"), final("c1", "abc"), partial("c1", "late")]


def test_a_refusal_ends_the_call_too() -> None:
    box = Outbox()
    box.put(partial("c1", "a"))
    box.put(ToolRefused("c1", "shell", "no"))
    assert box.put(partial("c1", "b")) == "queued"
    assert box.pending == 3


def test_a_partial_in_flight_is_not_overwritten() -> None:
    box = Outbox()
    box.put(partial("c1", "a"))
    assert box.next_batch() == [partial("c1", "a")]
    assert box.put(partial("c1", "ab")) == "queued"  # a new slot: the old one is on the wire
    box.sent()
    assert box.next_batch() == [partial("c1", "ab")]


def test_when_full_the_oldest_partial_makes_room_and_non_partials_are_never_dropped() -> None:
    box = Outbox(capacity=2)
    assert box.put(RunStarted("r1")) == "queued"
    assert box.put(partial("c1", "a")) == "queued"
    assert box.put(partial("c1", "ab")) == "coalesced"  # coalescing needs no room
    assert box.put(partial("c2", "x")) == "queued"  # c1's partial, the oldest, made room
    assert box.put(RunEnded("r1", "completed")) == "queued"  # c2's partial made room
    assert box.dropped == 2 and box.pending == 2
    assert box.put(Message("user", "one more")) == "full"  # only non-partials: refused
    assert box.put(partial("c3", "y")) == "dropped"  # no older partial to drop: itself
    assert box.next_batch() == [RunStarted("r1"), RunEnded("r1", "completed")]


def test_a_full_outbox_drops_partials_oldest_first_and_keeps_every_final() -> None:
    box = Outbox(capacity=6)
    for n in range(4):
        box.put(partial(f"c{n}", f"{n}:"))  # four calls running, one partial each
    box.put(final("c9", "done"))
    box.put(partial("c5", "5:"))  # full now
    assert box.put(final("c0", "0:end")) == "queued"  # c0's partial, the oldest, dropped
    assert box.put(final("c1", "1:end")) == "queued"  # then c1's
    assert box.put(partial("c6", "6:")) == "queued"  # then c2's: oldest first, whatever comes
    assert box.put(partial("c3", "3:more")) == "coalesced"  # its slot is kept, text replaced
    assert box.dropped == 3
    assert box.next_batch() == [
        partial("c3", "3:more"),
        final("c9", "done"),
        partial("c5", "5:"),
        final("c0", "0:end"),
        final("c1", "1:end"),
        partial("c6", "6:"),
    ]
    box.sent()
    for n in range(6):
        assert box.put(final(f"f{n}", "end")) == "queued"
    assert box.put(final("f6", "end")) == "full"  # finals only: refused, never dropped
    assert box.put(partial("c7", "7:")) == "dropped"
    assert box.next_batch() == [final(f"f{n}", "end") for n in range(6)]
    assert box.dropped == 4


def test_a_batch_holds_at_most_max_batch_observations() -> None:
    box = Outbox(capacity=MAX_BATCH * 3)
    for n in range(MAX_BATCH * 2 + 5):
        box.put(Message("user", str(n)))
    sizes = []
    while box.pending:
        sizes.append(len(box.next_batch()))
        box.sent()
    assert sizes == [MAX_BATCH, MAX_BATCH, 5]


def test_a_failed_batch_is_resent_first_as_it_was_under_its_key() -> None:
    box = Outbox()
    first: list[Observation] = [RunStarted("r1"), ToolCall("c1", "shell", {}), partial("c1", "a")]
    for observation in first:
        box.put(observation)
    assert box.next_batch() == first
    key = box.key
    box.put(Message("user", "later"))
    box.failed()
    assert box.in_flight == 0 and box.pending == 4 and box.key == key
    assert box.next_batch() == first and box.key == key  # the same body, the same key
    box.sent()
    assert box.next_batch() == [Message("user", "later")]  # what came meanwhile: next batch
    assert box.key is not None and box.key != key


def test_a_failed_partial_superseded_meanwhile_is_resent_then_the_newer_one() -> None:
    box = Outbox()
    box.put(partial("c1", "a"))
    box.next_batch()
    box.put(partial("c1", "abc"))
    box.failed()
    assert box.next_batch() == [partial("c1", "a")]  # byte-identical: it may be stored already
    box.sent()
    assert box.next_batch() == [partial("c1", "abc")]
    assert box.coalesced == 0


def test_each_new_batch_gets_a_fresh_key_and_a_retry_keeps_its_own() -> None:
    keys = iter(["k1", "k2", "k3"])
    box = Outbox(make_key=lambda: next(keys))
    box.put(Message("user", "a"))
    box.next_batch()
    assert box.key == "k1"
    box.failed()
    box.next_batch()
    box.failed()
    box.next_batch()
    assert box.key == "k1"  # failed twice, still its own key
    box.sent()
    assert box.key is None
    box.put(Message("user", "b"))
    box.next_batch()
    assert box.key == "k2"


def test_drain_gives_up_a_failed_batch_too() -> None:
    box = Outbox()
    box.put(Message("user", "a"))
    box.next_batch()
    box.failed()
    box.put(Message("user", "b"))
    assert box.drain() == [Message("user", "a"), Message("user", "b")]
    assert box.idle and box.key is None


def test_batches_respect_the_byte_budget_but_always_take_one() -> None:
    big = Message("assistant", "x" * 500)
    box = Outbox(max_batch_bytes=len(encode_observation(big)) * 2 + 2)
    for _ in range(5):
        box.put(big)
    sizes = []
    while box.pending:
        sizes.append(len(box.next_batch()))
        box.sent()
    assert sizes == [2, 2, 1] and box.sent_count == 5
    huge = Outbox(max_batch_bytes=10)
    huge.put(big)
    assert huge.next_batch() == [big]  # bigger than the budget alone: still sent


def test_one_batch_in_flight_at_a_time() -> None:
    box = Outbox()
    assert box.next_batch() == [] and box.idle
    box.put(RunStarted("r1"))
    box.next_batch()
    assert not box.idle
    with pytest.raises(RuntimeError, match="already in flight"):
        box.next_batch()
    box.sent()
    with pytest.raises(RuntimeError, match="no batch in flight"):
        box.sent()
    with pytest.raises(RuntimeError, match="no batch in flight"):
        box.failed()
    with pytest.raises(ValueError):
        Outbox(capacity=0)


def test_drain_gives_up_what_is_pending() -> None:
    box = Outbox()
    box.put(RunStarted("r1"))
    box.next_batch()
    box.put(partial("c1", "a"))
    box.put(RunEnded("r1", "completed"))
    assert box.drain() == [partial("c1", "a"), RunEnded("r1", "completed")]
    assert box.pending == 0 and box.in_flight == 1
    assert box.put(partial("c1", "ab")) == "queued"  # the index was cleared too


# -- properties: whatever arrives, what crosses is what a consumer needs -------------

_events = st.lists(
    st.tuples(st.sampled_from(["partial", "final", "message", "send", "fail"]), st.integers(0, 2)),
    max_size=60,
)


def _stream(events: list[tuple[str, int]]) -> list[Observation]:
    texts: dict[str, str] = {}
    out: list[Observation] = []
    done: set[str] = set()
    for kind, n in events:
        call = f"c{n}"
        if kind == "partial" and call not in done:
            texts[call] = texts.get(call, "") + f"{len(out)};"
            out.append(partial(call, texts[call]))
        elif kind == "final" and call not in done:
            done.add(call)
            out.append(final(call, texts.get(call, "") + "end"))
        elif kind == "message":
            out.append(Message("assistant", str(len(out))))
    return out


@given(_events, st.integers(1, 8))
def test_nothing_final_is_lost_and_each_call_ends_on_its_latest_text(
    events: list[tuple[str, int]], capacity: int
) -> None:
    produced = _stream(events)
    box = Outbox(capacity=capacity)
    crossed: list[Observation] = []
    actions = iter(kind for kind, _ in events if kind in {"send", "fail"})
    for observation in produced:
        while box.put(observation) == "full":  # the sender drains before more is accepted
            crossed.extend(box.next_batch())
            box.sent()
        action = next(actions, None)
        if action is not None and box.pending:
            batch = box.next_batch()
            if action == "send":
                crossed.extend(batch)
                box.sent()
            else:
                box.failed()
    while box.pending:
        crossed.extend(box.next_batch())
        box.sent()
    non_partials = [o for o in produced if not (isinstance(o, ToolResult) and not o.complete)]
    assert [o for o in crossed if o in non_partials] == non_partials  # all, in order
    for call in {o.tool_call_id for o in produced if isinstance(o, ToolResult)}:
        mine = [o for o in crossed if isinstance(o, ToolResult) and o.tool_call_id == call]
        texts = [o.text for o in mine]
        assert texts == sorted(texts, key=len)  # never goes back to an older text
        last = [o for o in produced if isinstance(o, ToolResult) and o.tool_call_id == call][-1]
        if last.complete or box.dropped == 0:  # a partial is only lost to a full outbox
            assert mine[-1] == last


# -- a batch refused as too large (413): re-formed smaller, under new keys ------------


def _cost(observation: Observation) -> int:
    return len(encode_observation(observation)) + 1


def test_a_batch_refused_as_too_large_is_re_formed_at_half_its_size() -> None:
    keys = iter(["k1", "k2", "k3"])
    box = Outbox(make_key=lambda: next(keys))
    messages = [Message("assistant", f"{n}" + "x" * 500) for n in range(4)]
    for message in messages:
        box.put(message)
    assert box.next_batch() == messages and box.key == "k1"
    assert box.too_large() is None  # nothing stored: not resent as it was
    assert box.max_batch_bytes == sum(map(_cost, messages)) // 2
    assert box.key is None and box.pending == 4
    assert box.next_batch() == messages[:2] and box.key == "k2"  # a new key, smaller
    box.sent()
    assert box.next_batch() == messages[2:] and box.key == "k3"
    box.sent()
    assert box.sent_count == 4 and box.idle


def test_after_a_413_other_failures_still_resend_byte_identical() -> None:
    box = Outbox()
    messages = [Message("user", str(n) * 300) for n in range(4)]
    for message in messages:
        box.put(message)
    box.next_batch()
    box.too_large()
    first = box.next_batch()
    key = box.key
    box.put(Message("user", "meanwhile"))
    box.failed()  # a lost answer: maybe stored, so the same body under the same key
    assert box.next_batch() == first and box.key == key
    box.sent()
    assert box.next_batch() == messages[2:]  # the budget stays learnt
    box.sent()
    assert box.next_batch() == [Message("user", "meanwhile")]


def test_a_partial_superseded_while_its_batch_was_refused_is_not_put_back() -> None:
    box = Outbox()
    box.put(ToolCall("c1", "shell", {}))
    box.put(partial("c1", "a"))
    box.next_batch()
    box.put(partial("c1", "ab"))  # queued on its own slot: "a" was on the wire
    box.too_large()
    assert box.pending == 2 and box.coalesced == 1
    crossed = box.next_batch()
    box.sent()
    crossed += box.next_batch()
    assert crossed == [ToolCall("c1", "shell", {}), partial("c1", "ab")]


def test_a_put_back_partial_is_replaced_in_place_again() -> None:
    box = Outbox()
    box.put(Message("user", "hi"))
    box.put(partial("c1", "a"))
    box.next_batch()
    box.too_large()
    assert box.put(partial("c1", "ab")) == "coalesced"
    assert box.pending == 2


def test_one_partial_too_large_alone_is_dropped() -> None:
    box = Outbox()
    box.put(partial("c1", "x" * 1000))
    box.next_batch()
    assert box.too_large() is None
    assert box.dropped == 1 and box.idle


def test_one_other_observation_too_large_alone_is_handed_back() -> None:
    box = Outbox()
    call = ToolCall("c1", "shell", {"command": "x" * 1000})
    box.put(call)
    box.put(Message("user", "next"))
    assert box.next_batch() == [call, Message("user", "next")]
    box.too_large()
    assert box.next_batch() == [call]
    assert box.too_large() == call  # the caller must fail: never dropped silently
    assert box.pending == 1 and box.dropped == 0


def test_a_final_result_too_large_alone_is_cut_to_fit_and_says_so() -> None:
    box = Outbox()
    text = "".join(f"line {n}\n" for n in range(2000))
    descriptor = Descriptor("shell", {"command": "seq", "stdout": text, "exitCode": 0})
    result = ToolResult("c1", "shell", text, complete=True, is_error=False, descriptor=descriptor)
    box.put(result)
    box.next_batch()
    assert box.too_large() is None
    [cut] = box.next_batch()
    assert isinstance(cut, ToolResult) and isinstance(cut.descriptor, Descriptor)
    assert _cost(cut) <= _cost(result) // 2 == box.max_batch_bytes
    assert text.endswith(cut.text) and cut.text.endswith("line 1999\n")  # the end is kept
    assert cut.descriptor.props == {"command": "seq", "stdout": cut.text, "exitCode": 0}
    assert cut.descriptor.truncated == Truncation(len(cut.text), len(text), "bytes")
    assert box.cut == {"c1": len(cut.text)} and cut.complete


def test_a_final_result_keeps_its_kind_and_original_total_when_cut_again() -> None:
    described = Descriptor("shell", {"stdout": "y" * 5000, "exitCode": 1})
    result = ToolResult("c1", "t", "y" * 5000, complete=True, is_error=True, descriptor=described)
    fitted = fit_result(result, 1000)
    assert fitted is not None and _cost(fitted) <= 1000 and fitted.is_error
    assert isinstance(fitted.descriptor, Descriptor) and fitted.descriptor.kind == "shell"
    assert fitted.descriptor.truncated == Truncation(len(fitted.text), 5000, "bytes")
    again = fit_result(fitted, 500)
    assert again is not None and isinstance(again.descriptor, Descriptor)
    assert again.descriptor.truncated == Truncation(len(again.text), 5000, "bytes")
    assert fit_result(result, 20) is None  # not even its skeleton fits


def test_a_final_result_without_a_descriptor_is_not_cut_but_handed_back() -> None:
    bare = ToolResult("c1", "t", "y" * 5000, complete=True, is_error=True)
    assert fit_result(bare, 1000) is None  # no kind to keep, nowhere to say what was cut
    box = Outbox()
    box.put(bare)
    box.next_batch()
    assert box.too_large() == bare  # the caller fails clearly; nothing is dropped


# Halving may land the budget anywhere down to half the limit, so the limit must
# exceed twice the cut result's skeleton (~233 bytes here) for it to be sure to fit.
@given(st.lists(st.integers(0, 3000), min_size=1, max_size=12), st.integers(480, 4000))
def test_a_server_limit_is_learnt_without_losing_or_repeating_anything(
    sizes: list[int], limit: int
) -> None:
    box = Outbox()
    produced: list[Observation] = [Message("assistant", "m" * size) for size in sizes]
    output = "r" * 5000
    shell = Descriptor("shell", {"command": "yes r", "stdout": output, "exitCode": 0})
    produced.append(ToolResult("c1", "shell", output, True, False, shell))
    for observation in produced:
        box.put(observation)
    stored: list[Observation] = []
    refused: list[Observation] = []
    for _ in range(10_000):  # a bound, never reached: each 413 shrinks the batch
        batch = box.next_batch()
        if not batch:
            break
        if sum(map(_cost, batch)) <= limit:
            stored.extend(batch)
            box.sent()
        elif (alone := box.too_large()) is not None:
            refused.append(alone)
    assert box.idle
    fits = [o for o in produced[:-1] if _cost(o) <= limit]
    assert [o for o in stored if isinstance(o, Message)] == fits  # each once, in order
    assert refused == [o for o in produced[:-1] if _cost(o) > limit]
    [result] = [o for o in stored if isinstance(o, ToolResult)]
    assert result.complete and "c1" in box.cut and _cost(result) <= limit


def test_an_unencodable_observation_is_named_and_nothing_is_taken() -> None:
    box = Outbox()
    box.put(Message("user", "before"))
    box.put(final("c1", "cut emoji \ud83d"))
    box.put(Message("user", "after"))
    with pytest.raises(Unencodable, match="cannot encode the tool-result of call 'c1'"):
        box.next_batch()
    assert box.pending == 3 and box.in_flight == 0
    assert [o.text for o in box.drain() if isinstance(o, Message)] == ["before", "after"]
