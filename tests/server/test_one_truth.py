"""The page and the index say what ``Thread`` says of every call: one ledger, no second opinion.

Issue 22: fed the same observations, the index card (``server.directory``)
disagreed with the page (``Thread`` and ``server.tally``) — it decided each
call's state by itself. Each sequence it got wrong is a regression test here,
and random sequences (runs nested and interleaved, late and duplicate results,
aborts and restarts, sub-agents) hold every consumer's counts equal. AG-UI
(``wire.agui``) is held to the same states where its stream has the same calls:
no sub-agents (its calls are flat) and no id used again for a second call
(there it is a new call, by the protocol's rule).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from thread_strategies import threads

from toolview.contract import (
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
    encode_observation,
    is_partial,
)
from toolview.contract.status import call_status
from toolview.safety import redact, redact_json
from toolview.server.directory import Card
from toolview.server.tally import Tally
from toolview.wire.agui import AguiTranslator
from toolview.wire.follow import Redactor

Counts = tuple[int, int, int]  # calls, running, failed


def _ok(call: str, is_error: bool = False) -> ToolResult:
    return ToolResult(call, "shell", "out", complete=True, is_error=is_error)


def _thread(thread: Thread) -> Counts:
    states = Counter(thread.state(entry) for entry in thread.calls())
    return len(thread.calls()), states["pending"], states["error"]


def _tally(tally: Tally) -> Counts:
    return tally.calls, len(tally.pending()), tally.counts["error"]


def _card(card: Card) -> Counts:
    listed = card.as_json()
    return int(str(listed["calls"])), int(str(listed["running"])), int(str(listed["failed"]))


def fold(observations: list[Observation]) -> tuple[Thread, Tally, Card]:
    """Feed ``observations`` to the page's thread and tally and to an index card, one by one."""
    thread, tally, card = Thread(), Tally(), Card("t", 0.0)
    for seq, observation in enumerate(observations, 1):
        before = len(thread.entries)
        thread.add(observation)
        tally.observe(thread, observation, before)
        card.fold([(seq, encode_observation(observation))])
    return thread, tally, card


DIVERGED = {
    "another run ends": (
        [RunStarted("A"), RunStarted("B"), ToolCall("c", "shell", {}), RunEnded("A", "completed")],
        (1, 1, 0),
    ),
    "an aborted run starts again": (
        [RunStarted("A"), ToolCall("c", "shell", {}), RunEnded("A", "aborted"), RunStarted("A")],
        (1, 1, 0),
    ),
    "two final error results": (
        [ToolCall("c", "shell", {}), _ok("c", is_error=True), _ok("c", is_error=True)],
        (1, 0, 1),
    ),
    "a result before its call": ([_ok("c"), ToolCall("c", "shell", {})], (1, 0, 0)),
}


@pytest.mark.parametrize("name", DIVERGED)
def test_the_index_card_and_the_page_tally_agree_with_the_thread(name: str) -> None:
    observations, expected = DIVERGED[name]
    thread, tally, card = fold(observations)
    assert _thread(thread) == expected
    assert _tally(tally) == expected
    assert _card(card) == expected


@settings(max_examples=300, deadline=None)
@given(threads())
def test_every_consumer_counts_every_prefix_alike(observations: list[Observation]) -> None:
    thread, tally, card = Thread(), Tally(), Card("t", 0.0)
    for seq, observation in enumerate(observations, 1):
        before = len(thread.entries)
        thread.add(observation)
        tally.observe(thread, observation, before)
        card.fold([(seq, encode_observation(observation))])
        states = Counter(thread.state(entry) for entry in thread.calls())
        assert +card.calls.ledger.counts == states
        assert _card(card) == _thread(thread)
        assert (tally.calls, len(tally.pending())) == _thread(thread)[:2]
        keys = Counter(call_status(entry, thread.state(entry)) for entry in thread.calls())
        assert +tally.counts == keys


def _flat(observations: list[Observation]) -> list[Observation]:
    """``observations`` without sub-agents, each call's ``tool-call`` only before anything of it.

    And no partial of a call not seen yet: AG-UI announces a call at its
    ``tool-call`` or its final result, never at output so far.
    """
    seen: set[str] = set()
    kept: list[Observation] = []
    for observation in observations:
        if isinstance(observation.parent_call_id, str):
            continue
        if isinstance(observation, ToolCall | ToolResult | ToolRefused):
            if isinstance(observation, ToolCall) and observation.tool_call_id in seen:
                continue
            if is_partial(observation) and observation.tool_call_id not in seen:
                continue
            seen.add(observation.tool_call_id)
        kept.append(observation)
    return kept


@settings(max_examples=300, deadline=None)
@given(threads())
def test_agui_holds_every_call_in_the_state_the_thread_does(
    observations: list[Observation],
) -> None:
    thread = Thread()
    agui = AguiTranslator("t", Redactor(text=redact, json=redact_json))
    for seq, observation in enumerate(_flat(observations), 1):
        thread.add(observation)
        agui.push(seq, observation)
        states = {e.tool_call_id: thread.state(e) for e in thread.calls()}
        assert {agui.call_of[i]: agui.ledger.state(i) for i in agui.call_of} == states
        assert +agui.ledger.counts == Counter(states.values())
