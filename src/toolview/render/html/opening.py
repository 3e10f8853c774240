"""Which calls are drawn open: one rule for the standalone page and the live page's fragments.

A call's ``<details>`` is open unless it succeeded in a long thread: what
failed, is still running, was refused or cancelled is what a reader opens the
page for, so it is never hidden; a success is open in a short thread (at most
``Limits.open_calls`` calls) and collapsed in a longer one, so a 5,000-call
page lays out 5,000 summary lines, not 5,000 bodies. The server asks
``successes_open`` with the thread's call count and passes the answer on.

A stream does not know the thread's length until its end, so the html
stream writes a success's ``<details>`` as ``PENDING`` and ``OpeningWriter``
(one per stream, ``StreamShape.settle``) holds the text from the first
pending success on while it has seen at most ``open_calls`` calls: one call
more decides "collapsed", the end of input "open", and the held text goes
out with the decision made. Before that first success (the page's head, a
run of failures) nothing waits. So a streamed page writes its first success
once the thread has ``open_calls + 1`` calls or has ended. Both
``PENDING`` and the call articles it counts start with ``<``, which escaping
never leaves in a tool's text: only toolview's own markup holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from toolview.render.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "CLOSED",
    "OPEN",
    "PENDING",
    "OpeningWriter",
    "details_tag",
    "opening_writer",
    "successes_open",
]

OPEN: Final = '<details class="tv-call-details" open>'
CLOSED: Final = '<details class="tv-call-details">'
PENDING: Final = '<details class="tv-call-details" data-tv-opening>'
# How a thread's own call starts (a sub-agent's calls are ``tv-subcall-``: not counted).
_CALL_STARTS: Final = (
    '<article class="tv-call" id="tv-call-',
    '<article class="tv-call tv-call-receipt" id="tv-call-',
)
# The statuses a reader need not see opened: everything else opens by default.
_QUIET: Final = frozenset({"success"})


def successes_open(calls: int, limits: Limits = DEFAULT_LIMITS) -> bool:
    """Whether a thread of ``calls`` calls shows its successful calls open."""
    return calls <= limits.open_calls


def details_tag(status: str, successes: bool | None) -> str:
    """The call's opening ``<details>`` tag; ``successes``: ``successes_open``'s answer, or
    ``None`` when not known yet (a stream: ``PENDING``, settled by ``OpeningWriter``)."""
    if status not in _QUIET or successes:
        return OPEN
    return CLOSED if successes is False else PENDING


class OpeningWriter:
    """Holds a stream's text while its pending tags wait for the thread's length, then writes."""

    def __init__(self, write: Callable[[str], None], limits: Limits = DEFAULT_LIMITS) -> None:
        self._write, self._limits = write, limits
        self._calls = 0
        self._held: list[str] = []
        self._decided: str | None = None

    def __call__(self, text: str) -> None:
        """Write ``text`` (its pending tags decided), or hold it until they can be."""
        if self._decided is None and not self._held and PENDING not in text:
            self._calls += sum(text.count(start) for start in _CALL_STARTS)
            self._write(text)  # nothing waits (the page's head, a failed call): out at once
        elif self._decided is None:
            self._held.append(text)
            self._calls += sum(text.count(start) for start in _CALL_STARTS)
            if not successes_open(self._calls, self._limits):
                self._decide(CLOSED)
        elif PENDING in text:
            self._write(text.replace(PENDING, self._decided))
        else:
            self._write(text)

    def flush(self) -> None:
        """The end of input: what is still held is a short thread's, its successes open."""
        if self._decided is None:
            self._decide(OPEN)

    def _decide(self, tag: str) -> None:
        self._decided = tag
        held, self._held = "".join(self._held), []
        if held:
            self._write(held.replace(PENDING, tag))


def opening_writer(limits: Limits) -> Callable[[Callable[[str], None]], OpeningWriter]:
    """What ``StreamShape.settle`` holds: a fresh ``OpeningWriter`` for each stream."""
    return lambda write: OpeningWriter(write, limits)
