"""The decided shape of one call: its header and one body from a closed set.

Plain data, shared by every surface: ``view.view_entry`` fills it in, a
surface lays it out. All strings are already cleaned except a ``KindBody``'s props and
text, which a renderer shows through ``toolview.render.clean``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from toolview.contract import (
    CallState,
    DisplayStatus,
    RunOutcome,
    StatusDisplay,
    Truncation,
)
from toolview.render.limits import Limits, Omission, Window
from toolview.render.receipt import Receipt

__all__ = [
    "AbortedBody",
    "Body",
    "CallView",
    "EmptyBody",
    "ErrorBody",
    "FallbackBody",
    "Header",
    "KindBody",
    "NestedRenderer",
    "PendingBody",
    "SubAgent",
    "SubMessage",
    "SubNote",
    "SubPart",
]


@dataclass(frozen=True)
class Header:
    """What every surface shows above a call: all strings already cleaned."""

    tool_name: str
    status: DisplayStatus
    display: StatusDisplay
    duration_ms: int | None = None
    args: str | None = None
    kind: str | None = None
    gist: str | None = None
    """One line saying what the call did (``render.gist``), for a collapsed call."""
    at: str | None = None
    """When the call was made: an ``at`` in the contract's form (UTC, ``Z``), else ``None``."""


@dataclass(frozen=True)
class PendingBody:
    """Still running; ``partial`` is the (cleaned, tail) output so far, if any."""

    partial: Window | None = None


@dataclass(frozen=True)
class AbortedBody:
    """The run ended without a final result for this call: why, and what it had said.

    ``reason`` is the run's (cleaned, one line, bounded); ``partial`` the
    cleaned tail of the last partial output, and ``stopped`` how much that
    output held in all ("stopped after N lines"; ``None`` without a partial).
    Interrupted is not empty: the lines a person watched stay on screen.
    """

    outcome: RunOutcome | None = None
    reason: str | None = None
    partial: Window | None = None
    stopped: Omission | None = None


class NestedRenderer(Protocol):
    """What renders a kind held inside another kind's content: a surface's ``Registry``."""

    def render(self, body: KindBody, fallback: Callable[[FallbackBody], Any]) -> Any:
        """``body`` by its kind's renderer, or ``fallback`` with a note saying why."""


@dataclass(frozen=True)
class KindBody:
    """A descriptor's kind with props validated for it (raw props for a custom kind).

    Props are NOT cleaned: a renderer shows them through ``toolview.render.clean``
    (or ``toolview.safety``). ``text`` and ``limits`` are there for its fallback.
    ``registry`` is the registry rendering this body (set by ``Registry.render``):
    a renderer whose content holds other kinds (``blocks``) renders them with it,
    so the caller's overrides hold one level down too.
    """

    kind: str
    props: Any
    text: str
    limits: Limits
    truncated: Truncation | None = None
    registry: NestedRenderer | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ErrorBody:
    """An error result: the status wins the frame, the body stays informative.

    ``kind`` is the result's kind body when its descriptor validates: a surface
    draws it with the kind's renderer inside the error frame (a failed command
    keeps its ``$ command``, stdout, stderr, exit code and truncation notice).
    Without one — no descriptor, invalid props, or a kind this surface has no
    renderer for — the surface shows ``message`` (the text, stack trace cut to
    its last line, cleaned) and what the tool left out (``truncated``), so cut
    error output never looks complete. With a kind, ``lead`` says the message is
    drawn first as well (a failed patch: why it failed, then the diff it proposed).
    """

    message: Window
    error_code: str | None = None
    truncated: Truncation | None = None
    kind: KindBody | None = None
    lead: bool = False
    """Draw ``message`` before the kind body: the kind does not show it (``render.error_lead``)."""


@dataclass(frozen=True)
class FallbackBody:
    """The result's text (cleaned window) with a visible note saying why it is shown."""

    text: Window
    note: str | None = None
    truncated: Truncation | None = None


@dataclass(frozen=True)
class EmptyBody:
    """A successful result with no output, said in words."""

    message: str = "(no output)"


Body: TypeAlias = PendingBody | AbortedBody | ErrorBody | KindBody | FallbackBody | EmptyBody


@dataclass(frozen=True)
class CallView:
    """One call, decided: its id, state, header, body and notes (already cleaned).

    A refused call is never a ``CallView``: it is a ``Receipt``. ``sub`` is the
    sub-agent the call ran (``render.subagent``), drawn after the body.
    """

    tool_call_id: str
    state: CallState
    header: Header
    body: Body
    notes: tuple[str, ...] = ()
    sub: SubAgent | None = None
    stored_whole: bool | None = None
    """``None``: the output was not stored apart; else whether the result's text holds it all."""


@dataclass(frozen=True)
class SubMessage:
    """A message of the sub-agent: its role and the cleaned window of its text."""

    role: str
    text: Window


@dataclass(frozen=True)
class SubNote:
    """A note of the sub-agent's thread, cleaned and on one line."""

    text: str


SubPart: TypeAlias = CallView | Receipt | SubMessage | SubNote


@dataclass(frozen=True)
class SubAgent:
    """What every surface draws under a call that ran a sub-agent; every string cleaned.

    ``cut`` is the one line said instead when the depth cut it (then nothing
    else is set); ``entries`` are its thread's entries decided, in order, and
    ``call_ids`` the raw id of each call among them (``None`` for the rest),
    for a surface that names elements by id (they are not cleaned: spell them).
    """

    title: str
    counts: str
    prompt: Window | None = None
    entries: tuple[SubPart, ...] = ()
    more: Omission | None = None
    cut: str | None = None
    call_ids: tuple[str | None, ...] = ()
    duration_ms: int | None = None
    """From the first to the last ``at`` of its observations, when known."""
