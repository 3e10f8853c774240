"""A ledger's calls by tool: how many, how many failed, how long each took (``Ledger.tools``).

Why in the ledger: a call's state is the ledger's (``contract.ledger``); the
counts by tool are that same state summed by the call's tool name, kept as the
ledger changes a state (O(1) an event), so ``toolview stats`` and ``/stats``
read them and never count calls again. A call the ledger forgets (a stream drew
it) stays counted here, as it does in ``Ledger.gone``. A result seen before its
call is counted under ``?`` until the call names its tool.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

import msgspec

from toolview.contract.call_state import CallState

__all__ = ["UNNAMED", "ToolCount", "ToolTally", "merge_tools"]

UNNAMED = "?"


class ToolCount(msgspec.Struct, frozen=True, kw_only=True):
    """One tool's calls: ``failed`` in the ledger's ``error`` state; ``took_ms``: each finished
    call's time from its call to its final result (calls without both times left out)."""

    tool: str
    calls: int = 0
    failed: int = 0
    took_ms: tuple[int, ...] = ()


@dataclass
class ToolTally:
    """Counts by state per tool, and the durations, kept by the ledger as it goes."""

    states: dict[str, Counter[CallState]] = field(default_factory=dict)
    took: dict[str, list[int]] = field(default_factory=dict)
    _tool: dict[str, str] = field(default_factory=dict, repr=False)
    _began: dict[str, datetime] = field(default_factory=dict, repr=False)

    def opened(self, call_id: str, state: CallState) -> None:
        """A call the ledger holds now, in ``state``, its tool not yet known."""
        self._tool[call_id] = UNNAMED
        self.states.setdefault(UNNAMED, Counter())[state] += 1

    def named(self, call_id: str, tool: str, at: str | None, state: CallState) -> None:
        """The call's own record: its tool and when it was made."""
        if self._tool.get(call_id) == UNNAMED:
            self.states[UNNAMED][state] -= 1
            self.states.setdefault(tool, Counter())[state] += 1
            self._tool[call_id] = tool
        began = _time(at)
        if began is not None:
            self._began[call_id] = began

    def moved(self, call_id: str, before: CallState, after: CallState) -> None:
        """The call changed state."""
        counter = self.states[self._tool[call_id]]
        counter[before] -= 1
        counter[after] += 1

    def finished(self, call_id: str, at: str | None) -> None:
        """A final result at ``at``: the call's duration, when both times are known."""
        began, ended = self._began.pop(call_id, None), _time(at)
        if began is not None and ended is not None:
            took = round((ended - began).total_seconds() * 1000)
            self.took.setdefault(self._tool[call_id], []).append(took)

    def forget(self, call_id: str) -> None:
        """A call the ledger forgets stays counted; only what it held for the call goes."""
        self._tool.pop(call_id, None)
        self._began.pop(call_id, None)

    def counts(self) -> tuple[ToolCount, ...]:
        """Every tool's counts, in order of first use (``?`` only while it holds calls)."""
        rows = []
        for tool, states in self.states.items():
            calls = states.total()
            if calls:
                took = tuple(self.took.get(tool, ()))
                rows.append(ToolCount(tool=tool, calls=calls, failed=states["error"], took_ms=took))
        return tuple(rows)


def merge_tools(*groups: Iterable[ToolCount]) -> tuple[ToolCount, ...]:
    """The groups' counts summed per tool, in order of first appearance."""
    merged: dict[str, ToolCount] = {}
    for group in groups:
        for row in group:
            held = merged.get(row.tool)
            merged[row.tool] = row if held is None else _plus(held, row)
    return tuple(merged.values())


def _plus(one: ToolCount, other: ToolCount) -> ToolCount:
    return ToolCount(
        tool=one.tool,
        calls=one.calls + other.calls,
        failed=one.failed + other.failed,
        took_ms=one.took_ms + other.took_ms,
    )


def _time(at: str | None) -> datetime | None:
    if not at:
        return None
    try:
        return datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return None
