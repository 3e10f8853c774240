"""``SessionRuns``: the runs, the out-box and the notes of one Copilot CLI session.

Why apart from the events' mapping (``mapper``): a run's life — opened by a
prompt, or by an answer a resumed session gives before any prompt; ended by the
next prompt, ``session.shutdown`` or ``finish``; reopened when a watched file
grows after ``finish`` — is the same whatever event comes, and every observation
goes out stamped with its time and, inside a sub-agent, the call that spawned it.
"""

from __future__ import annotations

import msgspec

from toolview.contract import Observation, RunEnded, RunStarted

__all__ = ["SessionRuns"]


class SessionRuns:
    """The open run and what is to be handed out; ``CopilotMapper`` maps into it."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self._cwd: str | None = None
        self._title: str | None = None
        self._notes: list[str] = []
        self._out: list[Observation] = []
        self._runs = 0
        self._run: str | None = None
        self._closed: str | None = None  # the run ``finish`` ended, while it may reopen

    def take_notes(self) -> list[str]:
        """What should be said beside the observations (event types not known here)."""
        notes, self._notes = self._notes, []
        return notes

    def finish(self) -> list[Observation]:
        """End of input: the open run ends; an event fed after it (not a new prompt) reopens
        that run (``serve --watch`` finishes an idle file)."""
        closed = self._run
        self._end_run()
        self._closed = closed
        return self._handed()

    def _reopen(self) -> None:
        """A watched file grew after ``finish``: the same run goes on, its calls pending."""
        if self._closed is not None:
            self._run, self._closed = self._closed, None
            self._out.append(RunStarted(run_id=self._run))

    def _start_run(self, at: str | None) -> None:
        """A new run (a prompt, or an answer before any prompt), with what is known so far."""
        self._end_run()
        self._closed = None
        self._runs += 1
        self._run = f"{self.session_id or 'copilot'}/{self._runs}"
        opened = RunStarted(run_id=self._run, cwd=self._cwd or msgspec.UNSET)
        self._add(opened if self._title is None else _titled(opened, self._title), at, None)

    def _open(self, at: str | None) -> None:
        """Events before any prompt (a resumed session's first answer) still need a run."""
        if self._run is None:
            self._start_run(at)

    def _end_run(self) -> None:
        if self._run is not None:
            self._out.append(RunEnded(run_id=self._run, outcome="completed"))
        self._run = None

    def _add(self, observation: Observation, at: str | None, parent: str | None) -> None:
        changes: dict[str, object] = {}
        if at is not None:
            changes["at"] = at
        if parent is not None:
            changes["parent_call_id"] = parent
        self._out.append(
            msgspec.structs.replace(observation, **changes) if changes else observation
        )

    def _handed(self) -> list[Observation]:
        out, self._out = self._out, []
        return out


def _titled(opened: RunStarted, title: str) -> RunStarted:
    return msgspec.structs.replace(opened, title=title)
