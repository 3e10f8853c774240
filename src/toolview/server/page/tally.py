"""A thread's summary and each call's version, kept as observations arrive: O(1) each.

Why: the live page asks for the summary up to once a second while calls
change, and ``render.summary.thread_summary`` decides the view of every call
to count them (6.5 s of CPU at 10,000 calls). A ``Tally`` sits beside a
projection's ``Thread``: each observation updates only the calls it can
change — its own call, or, for a run's start or end, the calls not yet final
(the only ones a run event reaches, as in ``Thread``) — so the summary is read
from counters, never from a walk over the thread. It decides nothing about a
call: the state is the thread's ledger's (``contract.ledger``), the summary key
``contract.status.call_status``; the calls running now are the ledger's too
(``Thread.pending``), so the tally keeps no set of its own.

Each call also has a ``version``, bumped whenever the call may read
differently, so its rendered markup can be cached (``server.page.pieces.markup``).

The time span (earliest to latest ``at``) and each model's tokens (``usage``)
are kept the same way, O(1) an observation: the live summary says them as
``render.summary`` does.

Sub-agents: an observation of a sub-agent (marked ``parentCallId``, at any
depth) changes how the thread's own call above it reads, so it bumps that
call's version. The summary counts the thread's own calls only, as
``thread_summary`` does: a sub-agent's calls are counted under their call
(its sub-agent line), not in the footer's first line; the next line,
everyone's counts, is the thread's ``counts()`` (``contract.counts``), given
to ``summary``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Final

from toolview.contract import (
    FINAL_STATES,
    CallEntry,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    Usage,
)
from toolview.contract.counts import SessionCounts
from toolview.contract.moments import TimeSpan
from toolview.contract.observations import CALL_OBSERVATIONS
from toolview.contract.status import SummaryKey, call_status
from toolview.render.summary import ModelTokens, Summary, add_usage, summary_of

__all__ = ["Tally"]

_EPOCHS: Final = itertools.count()


class Tally:
    """Counts by summary key and each call's version, for one thread.

    ``epoch`` is unique per tally: a thread rebuilt from scratch (re-created,
    or its store lost records) gets a new one, so no cached markup outlives it.
    """

    def __init__(self) -> None:
        self.epoch = next(_EPOCHS)
        self.counts: Counter[SummaryKey] = Counter()
        self.versions: dict[str, int] = {}
        self.index: dict[str, int] = {}  # call id -> its position in ``thread.entries``
        self.ordinal: dict[str, int] = {}  # call id -> its index among the thread's calls
        self._keys: dict[str, SummaryKey] = {}
        self._unsettled: set[str] = set()  # not final: what a run's events may change
        self.span = TimeSpan()
        self.tokens: dict[str, ModelTokens] = {}  # per model, in order of its first turn
        self._parents: set[str] = set()  # calls that ran a sub-agent: a run's events may change it

    def observe(self, thread: Thread, observation: Observation, before: int) -> None:
        """Account for ``observation``, just added to ``thread`` (which held ``before`` entries)."""
        self.span.see(observation.at)
        if isinstance(observation, Usage) and not isinstance(observation.parent_call_id, str):
            # the thread's own turns, as ``Thread.usage``: a sub-agent's are on its call
            self.tokens[observation.model] = add_usage(
                self.tokens.get(observation.model), observation
            )
        for position in range(before, len(thread.entries)):
            entry = thread.entries[position]
            if isinstance(entry, CallEntry):
                self.index[entry.tool_call_id] = position
                self.ordinal.setdefault(entry.tool_call_id, len(self.ordinal))
        if isinstance(observation, CALL_OBSERVATIONS):  # a waiting or decision redraws its call
            top = thread.top_call_id(observation.tool_call_id)  # itself, or the call above it
            self._update(thread, observation.tool_call_id if top is None else top)
        elif isinstance(observation.parent_call_id, str):  # a sub-agent's message, usage, run…
            top = thread.top_call_id(observation.parent_call_id)
            if top is not None:
                self._update(thread, top)
        if isinstance(observation, RunStarted | RunEnded):
            for call_id in list(self._unsettled | self._parents):
                self._update(thread, call_id)

    @property
    def calls(self) -> int:
        """How many calls the thread holds."""
        return len(self._keys)

    def summary(self, counts: SessionCounts | None = None) -> Summary | None:
        """What ``render.summary.thread_summary`` says of the thread, from the counters;
        ``counts``: the thread's ``counts()`` (``contract.counts``), for everyone's line."""
        return summary_of(self.counts, self.span.ms, tuple(self.tokens.values()), counts)

    def _update(self, thread: Thread, call_id: str) -> None:
        entry = thread.call(call_id)
        if entry is None:
            return
        state = thread.state(entry)
        key = call_status(entry, state)
        old = self._keys.get(call_id)
        if old is not None:
            self.counts[old] -= 1
            if not self.counts[old]:
                del self.counts[old]
        self.counts[key] += 1
        self._keys[call_id] = key
        self.versions[call_id] = self.versions.get(call_id, -1) + 1
        _mark(self._unsettled, call_id, state not in FINAL_STATES)
        _mark(self._parents, call_id, thread.child(call_id) is not None)


def _mark(members: set[str], call_id: str, member: bool) -> None:
    if member:
        members.add(call_id)
    else:
        members.discard(call_id)
