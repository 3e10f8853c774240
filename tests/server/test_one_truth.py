"""The page and the index say what ``Thread`` says of every call: one ledger, no second opinion.

Issue 22: fed the same observations, the index card (``server.page.index.card``)
disagreed with the page (``Thread`` and ``server.page.tally``) — it decided each
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

from toolview import contract
from toolview.contract.status import call_status
from toolview.contract.thread import Thread
from toolview.safety import redact, redact_json
from toolview.server.page.index.card import Card
from toolview.server.page.tally import Tally
from toolview.wire.agui import AguiTranslator
from toolview.wire.follow import Redactor

Counts = tuple[int, int, int]  # calls, running, failed


def _ok(call: str, is_error: bool = False) -> contract.ToolResult:
    return contract.ToolResult(call, "shell", "out", complete=True, is_error=is_error)


def _thread(thread: Thread) -> Counts:
    states = Counter(thread.state(entry) for entry in thread.calls())
    return len(thread.calls()), states["pending"], states["error"]


def _tally(tally: Tally, thread: Thread) -> Counts:
    """The page's counts: the tally's, and the ledger's running calls (``Thread.pending``)."""
    return tally.calls, len(thread.pending()), tally.counts["error"]


def _card(card: Card) -> Counts:
    listed = card.as_json()
    return int(str(listed["calls"])), int(str(listed["running"])), int(str(listed["failed"]))


class Views:
    """The page's thread and tally and an index card, fed the same observations."""

    def __init__(self) -> None:
        self.thread, self.tally, self.card = Thread(), Tally(), Card("t", 0.0)

    def add(self, seq: int, observation: contract.Observation) -> None:
        before = len(self.thread.entries)
        self.thread.add(observation)
        self.tally.observe(self.thread, observation, before)
        self.card.fold([(seq, contract.encode_observation(observation))])


def fold(observations: list[contract.Observation]) -> tuple[Thread, Tally, Card]:
    """Feed ``observations`` to every view, one by one."""
    views = Views()
    for seq, observation in enumerate(observations, 1):
        views.add(seq, observation)
    return views.thread, views.tally, views.card


DIVERGED = {
    "another run ends": (
        [
            contract.RunStarted("A"),
            contract.RunStarted("B"),
            contract.ToolCall("c", "shell", {}),
            contract.RunEnded("A", "completed"),
        ],
        (1, 1, 0),
    ),
    "an aborted run starts again": (
        [
            contract.RunStarted("A"),
            contract.ToolCall("c", "shell", {}),
            contract.RunEnded("A", "aborted"),
            contract.RunStarted("A"),
        ],
        (1, 1, 0),
    ),
    "two final error results": (
        [contract.ToolCall("c", "shell", {}), _ok("c", is_error=True), _ok("c", is_error=True)],
        (1, 0, 1),
    ),
    "a result before its call": ([_ok("c"), contract.ToolCall("c", "shell", {})], (1, 0, 0)),
}


@pytest.mark.parametrize("name", DIVERGED)
def test_the_index_card_and_the_page_tally_agree_with_the_thread(name: str) -> None:
    observations, expected = DIVERGED[name]
    thread, tally, card = fold(observations)
    assert _thread(thread) == expected
    assert _tally(tally, thread) == expected
    assert _card(card) == expected


@settings(max_examples=300, deadline=None)
@given(threads())
def test_every_consumer_counts_every_prefix_alike(observations: list[contract.Observation]) -> None:
    views = Views()
    thread, tally, card = views.thread, views.tally, views.card
    for seq, observation in enumerate(observations, 1):
        views.add(seq, observation)
        states = Counter(thread.state(entry) for entry in thread.calls())
        assert +card.calls.ledger.counts == states
        assert _card(card) == _thread(thread)
        assert (tally.calls, len(thread.pending())) == _thread(thread)[:2]
        keys = Counter(call_status(entry, thread.state(entry)) for entry in thread.calls())
        assert +tally.counts == keys


def _flat(observations: list[contract.Observation]) -> list[contract.Observation]:
    """``observations`` without sub-agents, each call's ``tool-call`` only before anything of it.

    And no partial of a call not seen yet: AG-UI announces a call at its
    ``tool-call`` or its final result, never at output so far.
    """
    seen: set[str] = set()
    kept: list[contract.Observation] = []
    for observation in observations:
        if isinstance(observation.parent_call_id, str):
            continue
        if isinstance(observation, contract.ToolCall | contract.ToolResult | contract.ToolRefused):
            if isinstance(observation, contract.ToolCall) and observation.tool_call_id in seen:
                continue
            if contract.is_partial(observation) and observation.tool_call_id not in seen:
                continue
            seen.add(observation.tool_call_id)
        kept.append(observation)
    return kept


@settings(max_examples=300, deadline=None)
@given(threads())
def test_agui_holds_every_call_in_the_state_the_thread_does(
    observations: list[contract.Observation],
) -> None:
    thread = Thread()
    agui = AguiTranslator("t", Redactor(text=redact, json=redact_json))
    for seq, observation in enumerate(_flat(observations), 1):
        thread.add(observation)
        agui.push(seq, observation)
        states = {e.tool_call_id: thread.state(e) for e in thread.calls()}
        assert {agui.call_of[i]: agui.ledger.state(i) for i in agui.call_of} == states
        assert +agui.ledger.counts == Counter(states.values())
