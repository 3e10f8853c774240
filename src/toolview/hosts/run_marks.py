"""``RunMarks``: the runs, times and sub-agent marks a session mapper puts on what it maps.

Why a base of its own: every host that maps a session turn by turn (OpenCode's,
Gemini CLI's) does the
same bookkeeping — a run starts at a user's prompt and ends at the next one or at
the end (``error`` if the turn failed), each observation gets the record's time,
and a sub-agent's observations are marked with the call that ran it.
"""

from __future__ import annotations

import msgspec

from toolview.contract import Observation, RunEnded, RunStarted

__all__ = ["RunMarks"]


class RunMarks:
    """The observations mapped so far, and the run they belong to."""

    def __init__(self, prefix: str, parent_call_id: str | None) -> None:
        self.parent_call_id = parent_call_id
        self._prefix = prefix
        self._out: list[Observation] = []
        self._runs = 0
        self._run: str | None = None
        self._failed = False
        self.cwd = ""  # the session's folder and own title, where the host says them
        self.title = ""  # (``RunStarted.cwd``/``title``: the index's project and name)

    def _start_run(self, at: str | None) -> None:
        """End the open run; start the next (``<prefix>/<n>``)."""
        self._end_run()
        self._runs += 1
        self._run = f"{self._run_prefix()}/{self._runs}"
        facts = {"cwd": self.cwd, "title": self.title}
        self._add(RunStarted(run_id=self._run, **{k: v for k, v in facts.items() if v}), at)

    def _run_prefix(self) -> str:
        """What a run's id starts with (a host that learns its session's id later says it)."""
        return self._prefix

    def _end_run(self) -> None:
        if self._run is not None:
            self._out.append(
                RunEnded(run_id=self._run, outcome="error" if self._failed else "completed")
            )
        self._run, self._failed = None, False

    def _add(self, observation: Observation, at: str | None) -> None:
        self._out.append(observation if at is None else msgspec.structs.replace(observation, at=at))

    def _take(self) -> list[Observation]:
        """What was mapped since the last take, marked with the sub-agent's call if any."""
        out, self._out = self._out, []
        if self.parent_call_id is None:
            return out
        return [msgspec.structs.replace(o, parent_call_id=self.parent_call_id) for o in out]
