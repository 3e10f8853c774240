"""``toolview show``: render a thread (observation JSON Lines, a host's transcript, a server).

Lines that break the contract are not dropped silently: each shows in the
thread as a note ("line 7 skipped: $.path: reason") and the rest still
renders. ``--surface html`` writes a standalone page. A server thread's URL
(``http://HOST:PORT/threads/ID``) is read back from the server, once or with
``--follow`` live (``cli.show_remote``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import sys
from collections.abc import Iterable
from typing import Any

from toolview.cli.inputs import open_input
from toolview.cli.show_remote import is_url, show_url
from toolview.cli.sources import SOURCES, BadDescriptor, Item, Skipped, SourceError, load
from toolview.contract.thread import Thread

__all__ = ["SURFACES", "build_thread", "register", "render", "run", "write_thread"]

SURFACES = ("text", "terminal", "html", "markdown")


def register(subparsers: Any) -> None:
    """Add the ``show`` subcommand."""
    parser = subparsers.add_parser("show", help="render a thread of tool calls on a surface")
    parser.add_argument(
        "path",
        nargs="?",
        default="-",
        help="a .jsonl file, - for stdin, or a server thread's URL (http://HOST:PORT/threads/ID)",
    )
    parser.add_argument("--surface", choices=SURFACES, default="terminal")
    parser.add_argument("--width", type=_width, default=None, help="columns (terminal surface)")
    parser.add_argument(
        "--color",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="colour the terminal surface (default: when stdout is a terminal)",
    )
    parser.add_argument(
        "--from",
        dest="source",
        choices=("auto", *SOURCES),
        default="auto",
        help="input format (default: detect)",
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="keep following a server thread live (Ctrl-C stops)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read the input, build the thread, write the rendered surface to stdout."""
    if is_url(args.path):
        return show_url(args)
    if args.follow:
        print("toolview show: --follow needs a server thread's URL", file=sys.stderr)
        return 2
    with open_input(args.path) as stream:
        data = stream.read()
    try:
        items = load(data, args.source)
    except SourceError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    return write_thread(build_thread(items), args)


def write_thread(thread: Thread, args: argparse.Namespace) -> int:
    """Render ``thread`` on the chosen surface to stdout; 2 if the surface is missing."""
    try:
        output = render(thread, args.surface, width=args.width, color=args.color)
    except _Unavailable as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(output)
    sys.stdout.flush()
    return 0


def build_thread(items: Iterable[Item]) -> Thread:
    """A thread from loaded items; unreadable lines become visible notes."""
    thread = Thread()
    observations = 0
    for item in items:
        if isinstance(item, Skipped):
            thread.note(str(item))
            continue
        observations += 1
        if isinstance(item, BadDescriptor):
            thread.add(item.result, descriptor_error=item.reason)
        else:
            thread.add(item)
    if not thread.entries:  # say so: a blank page would look like a failure
        thread.note(_nothing_to_draw(observations))
    return thread


def _nothing_to_draw(observations: int) -> str:
    if observations == 0:
        return "the input held no observations"
    held = f"{observations} observation{'' if observations == 1 else 's'}"
    return f"the input held {held} but no tool call or message to draw (run events only)"


def render(thread: Thread, surface: str, *, width: int | None, color: bool | None) -> str:
    """The thread rendered on ``surface``."""
    if surface == "terminal":
        from toolview.render.terminal import render_thread

        tty = sys.stdout.isatty()
        columns = width or (shutil.get_terminal_size().columns if tty else 80)
        use_color = color if color is not None else tty and "NO_COLOR" not in os.environ
        return render_thread(thread, width=columns, color=use_color)
    if surface == "html":
        return _html_page(thread)
    module = importlib.import_module(f"toolview.render.{surface}")
    output: str = module.render_thread(thread)
    return output


class _Unavailable(RuntimeError):
    """A surface this installation does not have."""


def _html_page(thread: Thread) -> str:
    try:
        from toolview.render.html import render_page
    except ImportError as exc:
        raise _Unavailable(f"the html surface is not available: {exc}") from None
    page: str = render_page(thread)
    return page


def _width(value: str) -> int:
    try:
        width = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 20 <= width <= 1000:
        raise argparse.ArgumentTypeError("must be between 20 and 1000")
    return width
