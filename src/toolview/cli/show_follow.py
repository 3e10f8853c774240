"""``toolview show URL --follow``: a server thread, live, until interrupted.

Why this shape: on a terminal it is what ``toolview run`` shows — the live
view of running calls (``render.terminal.live``: spinner, elapsed time, the growing tail)
with each call's final render printed above it as the call completes. Anywhere
else (a pipe, a file, a CI log) nothing is redrawn: each entry is printed once,
when it is final — a message at once, a call when its result (or refusal)
arrives or its run ends without one (``Thread.state`` says which), and a call
once more if a second final result for it arrives (the call-state table keeps
the first; the reprint carries the note saying what was ignored). The reader
resumes a dropped connection by itself; this module only says so on stderr.

``follow_items`` is the same drawing for any stream of items: ``show
--follow FILE`` (``cli.show_follow_file``) gives it a growing session's, whose
unreadable lines are notes; when such a stream ends (``--idle``), the calls
still open are drawn as they stand, so nothing read is left unshown.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator

from rich.console import Console

from toolview.cli.jsonl import BadDescriptor, Item
from toolview.cli.output import limits_of, render
from toolview.contract import Entry, Observation
from toolview.render.settling import Settling
from toolview.render.terminal.live import LiveCalls, live_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from toolview.remote.reader import ThreadReader

__all__ = ["follow", "follow_items"]

PROG = "toolview show"


def follow(reader: ThreadReader, args: argparse.Namespace) -> int:
    """Follow until interrupted (``KeyboardInterrupt`` reaches the CLI: exit 130)."""
    from toolview.remote.reader import ReadError

    items = reader.follow(on_retry=_retrying, on_resume=_resumed)
    try:
        follow_items((item.observation for item in items), args)
    except ReadError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    return 0  # the stream ended for good (never, short of an error or Ctrl-C)


def follow_items(items: Iterable[Item], args: argparse.Namespace) -> None:
    """Draw ``items`` as they come: live on a terminal, else each entry once, when final."""
    if args.surface == "terminal" and sys.stdout.isatty():
        _follow_live(items, args)
    else:
        _follow_plain(items, args)


def _follow_live(items: Iterable[Item], args: argparse.Namespace) -> None:
    from toolview.render.terminal import thread_renderables

    console = Console(highlight=False, width=args.width, no_color=args.color is False)
    calls, settling, printed, limits = LiveCalls(), Settling(), 0, limits_of(args)
    with live_view(console, calls):
        for item in _and_the_rest(items, settling):
            if isinstance(item, Observation):
                calls.observe(item)
            for entry in _final(settling, item):
                for renderable in thread_renderables(settling.view(entry), limits=limits):
                    if printed:
                        console.line()
                    console.print(renderable, markup=False, highlight=False, emoji=False)
                    printed += 1


def _follow_plain(items: Iterable[Item], args: argparse.Namespace) -> None:
    settling, printed, limits = Settling(), False, limits_of(args)
    for item in _and_the_rest(items, settling):
        for entry in _final(settling, item):
            view = settling.view(entry)
            output = render(view, args.surface, width=args.width, color=args.color, limits=limits)
            sys.stdout.write(("\n" if printed else "") + output)
            sys.stdout.flush()
            printed = True


class _StillOpen:
    """The end of a stream: the calls not final yet are drawn as they stand."""


def _and_the_rest(items: Iterable[Item], settling: Settling) -> Iterator[Item | _StillOpen]:
    yield from items
    yield _StillOpen()


def _final(settling: Settling, item: Item | _StillOpen) -> list[Entry]:
    if isinstance(item, _StillOpen):
        return settling.still_open()
    if isinstance(item, BadDescriptor):
        return settling.add(item.result, item.reason)
    if isinstance(item, Observation):
        return settling.add(item)
    return settling.note(str(item))


def _retrying(attempt: int, delay: float, error: Exception) -> None:
    print(f"{PROG}: {error}; reconnecting in {delay:g} s (attempt {attempt})", file=sys.stderr)


def _resumed(seq: int) -> None:
    print(f"{PROG}: reconnected, resuming after seq {seq}", file=sys.stderr)
