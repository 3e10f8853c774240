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
unreadable lines are notes. When the stream ends (``--idle``) or Ctrl-C
stops it, the calls still open are drawn as they stand, so nothing read is
left unshown, then the whole thread's summary — once: each entry is drawn
without one (``Settling.view``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from functools import partial

from rich.console import Console, RenderableType

from toolview.cli.jsonl import BadDescriptor, Item
from toolview.cli.output import limits_of, render, stream_shape
from toolview.contract import Entry, Observation, Thread
from toolview.render.limits import Limits
from toolview.render.settling import Settling
from toolview.render.summary import Summary
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
    """Draw ``items`` as they come: live on a terminal, else each entry once, when final;
    when they end (or Ctrl-C stops them), what is still open as it stands, then the one
    summary of the whole thread."""
    if args.surface == "terminal" and sys.stdout.isatty():
        _follow_live(items, args)
    else:
        _follow_plain(items, args)


def _follow_live(items: Iterable[Item], args: argparse.Namespace) -> None:
    from toolview.render.terminal import summary_renderable, thread_renderables

    console = Console(highlight=False, width=args.width, no_color=args.color is False)
    calls, limits, printed = LiveCalls(), limits_of(args), 0

    def show(renderables: Iterable[RenderableType]) -> None:
        nonlocal printed
        for renderable in renderables:
            if printed:
                console.line()
            console.print(renderable, markup=False, highlight=False, emoji=False)
            printed += 1

    with live_view(console, calls):
        _follow(
            items,
            calls.observe,
            lambda view: show(thread_renderables(view, limits=limits)),
            lambda summary: show([summary_renderable(summary)]),
            limits,
        )


def _follow_plain(items: Iterable[Item], args: argparse.Namespace) -> None:
    limits, printed = limits_of(args), False

    def write(text: str) -> None:
        nonlocal printed
        sys.stdout.write(("\n" if printed else "") + text)
        sys.stdout.flush()
        printed = True

    def summary(summary: Summary) -> None:
        shape = stream_shape(args.surface, width=args.width, color=args.color, limits=limits)
        write(shape.show(shape.parts.summary(summary)) + shape.closing)

    draw = partial(render, surface=args.surface, width=args.width, color=args.color, limits=limits)
    _follow(items, lambda _: None, lambda view: write(draw(view)), summary, limits)


def _follow(
    items: Iterable[Item],
    observe: Callable[[Observation], None],
    draw: Callable[[Thread], None],
    end: Callable[[Summary], None],
    limits: Limits,
) -> None:
    """Each entry drawn (as a thread of its own) once final; at the end — of the items, or
    Ctrl-C's, raised again — the calls still open as they stand, then the summary."""
    settling, stopped = Settling(), False
    try:
        for item in items:
            if isinstance(item, Observation):
                observe(item)
            for entry in _final(settling, item):
                draw(settling.view(entry))
    except KeyboardInterrupt:  # Ctrl-C ends the follow: its end is drawn, then exit 130
        stopped = True
    for entry in settling.still_open():
        draw(settling.view(entry))
    summary = settling.summary(limits)
    if summary is not None:
        end(summary)
    if stopped:
        raise KeyboardInterrupt


def _final(settling: Settling, item: Item) -> list[Entry]:
    if isinstance(item, BadDescriptor):
        return settling.add(item.result, item.reason)
    if isinstance(item, Observation):
        return settling.add(item)
    return settling.note(str(item))


def _retrying(attempt: int, delay: float, error: Exception) -> None:
    print(f"{PROG}: {error}; reconnecting in {delay:g} s (attempt {attempt})", file=sys.stderr)


def _resumed(seq: int) -> None:
    print(f"{PROG}: reconnected, resuming after seq {seq}", file=sys.stderr)
