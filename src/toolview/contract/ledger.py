"""The call ledger: one fold of observations into call states, with the run scoping.

Why one place: the page, the index, AG-UI and the summaries all ask whether a
call is running, failed, aborted or done. Each used to decide it from the
observations by itself, and fed the same observations they disagreed (a run
that ended closed another run's calls on the index, a second error result
counted twice, a result before its call left the call running for ever). The
ledger is that decision, sans-IO and O(1) an observation (a run's start or end
costs the calls it can change), so a consumer that only peeks at records (the
index) folds exactly what ``Thread`` folds.

It holds, per call, its ``CallStateMachine`` (the table in ``call_state``)
and the run it belongs to: the run open when it first appeared. A call seen
outside any run counts as open until some run ends after it, and a run that
starts (again) reopens its calls, as the table says. It also keeps how many
calls are in each state, so counts are read, never walked, and which calls
are not final, in the order they appeared (``pending``: O(open calls), what
a live page's status line and its "running" list read).

It knows no sub-agents: a ``Thread`` holds one ledger per (child) thread and
carries a run's start or end to the children it reaches (``outer``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from toolview.contract.call_state import (
    FINAL_STATES,
    CallEvent,
    CallState,
    CallStateMachine,
)
from toolview.contract.observations import RunOutcome
from toolview.contract.tool_tally import ToolTally

__all__ = ["Ledger"]


@dataclass
class Ledger:
    """Every call's state, its run, and how each run (and the calls outside any) ended."""

    current_run: str | None = None
    # how the last run around the calls outside any run ended (None: open, or none yet)
    ended: RunOutcome | None = None
    counts: Counter[CallState] = field(default_factory=Counter)
    # the final states of the calls forgotten (a stream drew them): a session's counts keep them
    gone: Counter[CallState] = field(default_factory=Counter)
    # the same states by tool, and each call's duration (``contract.tool_tally``)
    tools: ToolTally = field(default_factory=ToolTally)
    _machines: dict[str, CallStateMachine] = field(default_factory=dict, repr=False)
    _run_of: dict[str, str | None] = field(default_factory=dict, repr=False)
    # calls not yet final, by run (None: outside any run), in order: the run's events reach these
    _unsettled: dict[str | None, dict[str, None]] = field(default_factory=dict, repr=False)
    _runs: dict[str, RunOutcome | None] = field(default_factory=dict, repr=False)
    # every call not yet final, in the order it appeared (the thread's order, across runs)
    _open: dict[str, None] = field(default_factory=dict, repr=False)

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._machines

    def __len__(self) -> int:
        """How many calls the ledger holds (forgotten ones aside)."""
        return len(self._machines)

    def state(self, call_id: str) -> CallState:
        """The state of a call the ledger holds (``KeyError`` for one it does not)."""
        return self._machines[call_id].state

    def run_of(self, call_id: str) -> str | None:
        """The run a call belongs to (``None``: it appeared outside any run)."""
        return self._run_of[call_id]

    def outcome(self, run_id: str | None) -> RunOutcome | None:
        """How ``run_id`` ended (``None``: the calls outside any run), or ``None`` while open."""
        return self.ended if run_id is None else self._runs.get(run_id)

    def open(self, call_id: str) -> CallState:
        """Hold ``call_id`` (a call, or a result before its call) in the current run; its state.

        A call seen after its run (or the last run) ended is aborted at once.
        """
        machine = self._machines.get(call_id)
        if machine is not None:
            return machine.state
        machine = self._machines[call_id] = CallStateMachine()
        run = self._run_of[call_id] = self.current_run
        self.counts["pending"] += 1
        self.tools.opened(call_id, "pending")
        if self.outcome(run) is not None:
            self._send(call_id, "run-ended")
        self._unsettled.setdefault(run, {})[call_id] = None
        self._open[call_id] = None
        return machine.state

    def named(self, call_id: str, tool: str, at: str | None) -> CallState:
        """The call's own record: held as ``open`` holds it, counted under its ``tool``."""
        state = self.open(call_id)
        self.tools.named(call_id, tool, at, state)
        return state

    def result(self, call_id: str, event: CallEvent, at: str | None = None) -> CallState:
        """Apply a result's ``event`` (``call_state.result_event``) to its call; the new state.

        Raises ``IllegalTransition`` and changes nothing for a second final
        result: the caller keeps it as a note, the first stands.
        """
        before = self.open(call_id)
        state = self._send(call_id, event)
        if state in FINAL_STATES and before not in FINAL_STATES:
            self.tools.finished(call_id, at)
        if state in FINAL_STATES:
            self._unsettled[self._run_of[call_id]].pop(call_id, None)
            self._open.pop(call_id, None)
        return state

    def run_started(self, run_id: str) -> None:
        """A run starts: it is the current run, and it reopens its calls and those outside any."""
        self._runs[run_id] = None
        self.current_run = run_id
        self.outer("run-started", None)
        self._send_to_run(run_id, "run-started")

    def run_ended(self, run_id: str, outcome: RunOutcome) -> bool:
        """A run ends: its calls not final are aborted; whether it ended the calls outside any run.

        Only the current run (or a run ending while none is current) reaches
        the calls outside any run: another run ending leaves them, and the
        current run's calls, open.
        """
        self._runs[run_id] = outcome
        self._send_to_run(run_id, "run-ended")
        if self.current_run not in (None, run_id):
            return False
        self.current_run = None
        self.outer("run-ended", outcome)
        return True

    def outer(self, event: CallEvent, ended: RunOutcome | None) -> None:
        """A run starts or ends around the calls outside any run (a parent's run, for a child)."""
        self.ended = ended
        self._send_to_run(None, event)

    def unsettled(self, run_id: str | None) -> list[str]:
        """The calls of ``run_id`` (``None``: outside any run) not yet final, in order."""
        return list(self._unsettled.get(run_id, ()))

    def open_calls(self) -> int:
        """How many calls are not final: read from the counts by state, O(1)."""
        return self.counts["pending"] + self.counts["needs_input"] + self.counts["aborted"]

    def waiting(self) -> list[str]:
        """The calls waiting for a person (``needs_input``), in order: O(open calls)."""
        machines = self._machines
        return [i for i in self._open if machines[i].state == "needs_input"]

    def decide(self, call_id: str) -> CallState:
        """Apply a person's decision to a call the ledger holds; its new state.

        Raises ``KeyError`` for a call it does not hold and ``IllegalTransition``
        (changing nothing) for one that does not wait: a decision applies once.
        """
        return self._send(call_id, "decided")

    def pending(self) -> list[str]:
        """The calls running now (``pending``), in the order they appeared: O(open calls).

        Why here: the page's status line and the live page's running list
        read this; walking every call to find them was a second decision
        (and O(thread) a frame).
        """
        machines = self._machines
        return [call_id for call_id in self._open if machines[call_id].state == "pending"]

    def forget(self, call_id: str) -> None:
        """Drop a FINAL call a stream has drawn; it is no longer counted."""
        machine = self._machines.pop(call_id)
        self._run_of.pop(call_id)
        self.counts[machine.state] -= 1
        self.gone[machine.state] += 1
        self.tools.forget(call_id)

    def _send_to_run(self, run_id: str | None, event: CallEvent) -> None:
        """``event`` to every call of the run not yet final: it costs what it can change."""
        for call_id in self._unsettled.get(run_id, ()):
            self._send(call_id, event)

    def _send(self, call_id: str, event: CallEvent) -> CallState:
        """Apply ``event`` through the table, keeping the counts by state (and by tool)."""
        machine = self._machines[call_id]
        before = machine.state
        after = machine.send(event)
        if after != before:
            self.counts[before] -= 1
            self.counts[after] += 1
            self.tools.moved(call_id, before, after)
        return after
