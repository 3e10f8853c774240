"""What a ``Thread`` holds, in order: calls, messages and notes.

A ``CallEntry`` is one tool call as the thread knows it — its call, the result
that stands, its run — and the final results it ignored, kept for the surfaces
to show; its state is asked of the thread (``Thread.state``), which holds the
call's state machine. A ``NoteEntry`` may carry what came too late for a call
already drawn and released by a stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Literal, TypeAlias

from toolview.contract.moments import parse_at
from toolview.contract.observations import (
    Message,
    RunOutcome,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolResult,
    ToolWaiting,
)

__all__ = [
    "IGNORED_KEPT",
    "CallEntry",
    "Entry",
    "MessageEntry",
    "NoteEntry",
    "Orphan",
    "Trimmed",
    "run_closing_line",
]

IGNORED_KEPT: Final = 3
"""At most this many ignored final results are kept per call (all are counted)."""

Orphan: TypeAlias = Literal["unseen", "late"]


@dataclass
class CallEntry:
    """One tool call: its call (if seen), its result (if any), its run.

    ``ignored`` holds the first ``IGNORED_KEPT`` final results (or refusals)
    that arrived after the call was already final; ``ignored_total`` counts
    them all, so a flood of them costs bounded memory yet is never hidden.
    ``orphan`` marks a placeholder made for a sub-agent's mark (``parentCallId``)
    naming a call the thread had never seen (``unseen``) or had already drawn
    and released (``late``): its child thread is kept and shown under it.
    """

    tool_call_id: str
    call: ToolCall | None = None
    result: ToolResult | ToolRefused | None = None
    run_id: str | None = None
    descriptor_error: str | None = None
    ignored: list[ToolResult | ToolRefused] = field(default_factory=list)
    ignored_total: int = 0
    orphan: Orphan | None = None
    # what a person was asked (the last ask), and the one decision that answered it: the receipt
    waiting: ToolWaiting | None = None
    decision: ToolDecision | None = None

    @property
    def tool_name(self) -> str:
        """The tool's name, from the call, else the result, else what a person was asked."""
        if self.call is not None:
            return self.call.tool_name
        if self.result is not None:
            return self.result.tool_name
        return self.waiting.tool_name if self.waiting is not None else ""


@dataclass(frozen=True)
class MessageEntry:
    """User or assistant text between calls."""

    message: Message


@dataclass(frozen=True)
class NoteEntry:
    """A visible note about the thread itself, e.g. a line that could not be read.

    ``late`` is a final result (or refusal) that came for a call a stream had
    already drawn and forgotten (``Thread.release``): the call-state table
    ignores it, as it would on the call, and the note shows it (``text`` names
    the call; a surface words the rest as it words a call's own notes).
    """

    text: str
    late: ToolResult | ToolRefused | None = None


Entry: TypeAlias = CallEntry | MessageEntry | NoteEntry


@dataclass
class Trimmed:
    """What a sub-agent's thread forgot to stay bounded in a stream (``Thread(sub_keep=…)``).

    Its settled entries past the ones a surface shows are only counted: how
    many, how many were calls and failed calls (``error``), and the earliest
    and latest ``at`` among them, so the sub-agent's counts and time still
    say the whole.
    """

    entries: int = 0
    calls: int = 0
    failed: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None

    def saw(self, at: object) -> None:
        """Fold one observation's ``at`` (an RFC 3339 string, or absent) into the span."""
        when = parse_at(at)  # absent, or a date that does not exist: no time
        if when is None:
            return
        self.first_at = when if self.first_at is None else min(self.first_at, when)
        self.last_at = when if self.last_at is None else max(self.last_at, when)


def run_closing_line(outcome: RunOutcome, reason: str) -> str:
    """The note a run that said why it ended closes with: ``Run ended (aborted): …``.

    ``reason`` is raw here; the surfaces clean a note (redacted, controls
    shown, one line, bounded) like every other field.
    """
    how = "" if outcome == "completed" else f" ({outcome})"
    return f"Run ended{how}: {reason}"
