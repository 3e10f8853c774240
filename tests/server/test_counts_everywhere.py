"""One count per session: the listing, ``show``'s summary and the index card agree (issue 22: 2).

Random threads with sub-agents (marks of marks, a mark naming no call, a
sub-agent's own run ending, second results, refusals, runs, usage): the
counts ``toolview sessions`` folds (``cli.session_summary.fold``), the ones
``show``'s summary says (``render.summary``) and the ones the index card
reads from peeked records (``server.directory.Card``, its own ledgers) are
the same ``SessionCounts``, field for field, and so the same words.
"""

from __future__ import annotations

from hypothesis import given, settings
from thread_strategies import threads

from toolview.cli.session_summary import Summary, fold
from toolview.contract import Observation, Thread, encode_observation
from toolview.contract.counts import counts_text
from toolview.render.summary import thread_summary
from toolview.server.page.index.card import Card


def listed(observations: list[Observation]) -> Summary:
    return fold(Summary("claude-code", "s", "s.jsonl", "p", "", None, None), observations)


def carded(observations: list[Observation]) -> Card:
    card = Card("t", 0.0)
    card.fold([(seq, encode_observation(o)) for seq, o in enumerate(observations, 1)])
    return card


@settings(max_examples=400, deadline=None)
@given(threads(asks=True))
def test_the_listing_show_and_the_index_card_count_alike(observations: list[Observation]) -> None:
    counts = listed(observations).counts
    card = carded(observations)
    assert card.calls.counts() == counts
    shown = thread_summary(Thread.from_observations(observations))
    if counts.sub_calls or counts.calls >= 2:
        assert shown is not None and shown.counts == counts
    listing = card.as_json()
    assert listing["counts"] == counts_text(counts)
    assert (listing["calls"], listing["failed"], listing["running"]) == (
        counts.calls,
        counts.failed,
        counts.running,
    )
    assert (listing["subAgentCalls"], listing["subAgentFailed"]) == (
        counts.sub_calls,
        counts.sub_failed,
    )
