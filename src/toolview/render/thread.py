"""The message container: an ordered thread built from observations.

It pairs each ``tool-call`` with its result by ``toolCallId`` and knows
whether the run a call belongs to is still open, which is what tells a
*pending* call from an *aborted* one. A result's ``text`` is accumulated, so a
later result REPLACES the earlier one (appending would duplicate output). A
result whose call never appeared is still shown; a line that could not be
read is kept as a visible note, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunOutcome,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)

__all__ = ["CallEntry", "Entry", "MessageEntry", "NoteEntry", "Thread"]


@dataclass
class CallEntry:
    """One tool call: its call (if seen), its latest result (if any), its run."""

    tool_call_id: str
    call: ToolCall | None = None
    result: ToolResult | ToolRefused | None = None
    run_id: str | None = None
    descriptor_error: str | None = None

    @property
    def tool_name(self) -> str:
        """The tool's name, from the call or else from the result."""
        if self.call is not None:
            return self.call.tool_name
        return self.result.tool_name if self.result is not None else ""


@dataclass(frozen=True)
class MessageEntry:
    """User or assistant text between calls."""

    message: Message


@dataclass(frozen=True)
class NoteEntry:
    """A visible note about the thread itself, e.g. a line that could not be read."""

    text: str


Entry: TypeAlias = CallEntry | MessageEntry | NoteEntry


@dataclass
class Thread:
    """Ordered entries plus the run lifecycle; feed it with ``add``."""

    entries: list[Entry] = field(default_factory=list)
    _calls: dict[str, CallEntry] = field(default_factory=dict, repr=False)
    _runs: dict[str, RunOutcome | None] = field(default_factory=dict, repr=False)
    _current_run: str | None = field(default=None, repr=False)
    _ended: RunOutcome | None = field(default=None, repr=False)

    @classmethod
    def from_observations(cls, observations: Iterable[Observation]) -> Thread:
        """A thread holding ``observations`` in order."""
        thread = cls()
        for observation in observations:
            thread.add(observation)
        return thread

    def add(self, observation: Observation, descriptor_error: str | None = None) -> None:
        """Apply one observation.

        ``descriptor_error`` says a result arrived with a descriptor that broke
        the contract (it was dropped to read the rest): the call then shows its
        text with that note instead of a kind.
        """
        if isinstance(observation, ToolCall):
            self._entry(observation.tool_call_id).call = observation
        elif isinstance(observation, ToolResult | ToolRefused):
            if self._set_result(observation):
                self._calls[observation.tool_call_id].descriptor_error = descriptor_error
        elif isinstance(observation, RunStarted):
            self._runs[observation.run_id] = None
            self._current_run = observation.run_id
            self._ended = None
        elif isinstance(observation, RunEnded):
            self._runs[observation.run_id] = observation.outcome
            if self._current_run in (None, observation.run_id):
                self._ended = observation.outcome
                self._current_run = None
        else:
            self.entries.append(MessageEntry(observation))

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, str]:
        """Jupyter display: text/plain, text/html and text/markdown of the thread."""
        from toolview.render.notebook import thread_mimebundle  # the surfaces import this module

        return thread_mimebundle(self, include, exclude)

    def note(self, text: str) -> None:
        """Add a visible note at the current position."""
        self.entries.append(NoteEntry(text))

    def calls(self) -> list[CallEntry]:
        """Every call, in thread order."""
        return [entry for entry in self.entries if isinstance(entry, CallEntry)]

    def run_open(self, entry: CallEntry) -> bool:
        """Whether the run ``entry`` belongs to may still deliver its result.

        A call seen outside any run counts as open until some run ends after it:
        nothing says it was abandoned.
        """
        return self.run_outcome(entry) is None

    def run_outcome(self, entry: CallEntry) -> RunOutcome | None:
        """How the call's run ended, or ``None`` while it is open."""
        if entry.run_id is not None:
            return self._runs.get(entry.run_id)
        return self._ended

    def _entry(self, tool_call_id: str) -> CallEntry:
        entry = self._calls.get(tool_call_id)
        if entry is None:
            entry = CallEntry(tool_call_id, run_id=self._current_run)
            self._calls[tool_call_id] = entry
            self.entries.append(entry)
        return entry

    def _set_result(self, result: ToolResult | ToolRefused) -> bool:
        entry = self._entry(result.tool_call_id)
        previous = entry.result
        stale = (
            isinstance(result, ToolResult)
            and not result.complete
            and (isinstance(previous, ToolRefused) or (previous is not None and previous.complete))
        )
        if stale:  # a late partial never hides a final result
            return False
        entry.result = result
        return True
