"""``toolview show``: render a thread (observation JSON Lines, a host's transcript, a coding
agent's session, a server).

Lines that break the contract are not dropped silently: each shows in the
thread as a note ("line 7 skipped: $.path: reason") and the rest still
renders. Binary input is refused whole (exit 2), and a leading byte order
mark is ignored. ``--surface html`` writes a standalone page; ``--page-size N
--output DIR/NAME.html`` splits it into linked pages (``cli.show_pages``). A server thread's URL
(``http://HOST:PORT/threads/ID``) is read back from the server, once or with
``--follow`` live (``cli.show_remote``).

Observations are read, drawn and written a call at a time
(``render.stream``): the first call is written before the input ends, and
memory holds the calls still open, not the thread (docs/surfaces.md,
"Streaming"). A Claude Code or Codex session is read the same way, streamed
by its host with its sub-agents' files; a folder shows each session in it
(``cli.show_sessions``), an id prefix the session it names; ``--follow
FILE`` follows a growing one (``cli.show_follow_file``); ``--json`` prints
the observations, redacted, instead (``cli.show_json``). An input whose
format cannot be told is an error (exit 2), never a page of notes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import Any

from toolview.cli.inputs import path_arg
from toolview.cli.jsonl import Item
from toolview.cli.output import SURFACES
from toolview.cli.session_find import add_root_options, may_be_an_id
from toolview.cli.show_pages import draw_pages, output_problem, to_output
from toolview.cli.show_remote import draw_items, is_url, show_url
from toolview.cli.sources import SOURCES, SourceError, opened_items

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``show`` subcommand."""
    parser = subparsers.add_parser(
        "show",
        help="render a thread of tool calls on a surface",
        description=(
            "Render a thread of tool calls on a surface, call by call as the input is read: "
            "in thread order, each call once it is final (a call still open holds back what "
            "follows it, up to 1,000 entries, then is written when it finishes); what is still "
            "open at the end is written as it stands, then the summary."
        ),
    )
    parser.add_argument(
        "path",
        nargs="?",
        default="-",
        help=(
            "a .jsonl file (observations, a Claude Code or Codex session, a pi session, MCP "
            "results), - for stdin, a folder of sessions (each, newest first), a session id "
            "or its first characters, or a server thread's URL (http://HOST:PORT/threads/ID)"
        ),
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
        help="input format (default: detect; an input whose format cannot be told is an error)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=(
            "print the observations as JSON Lines instead of drawing them (sub-agents' "
            "included, marked with parentCallId), REDACTED like every output of toolview; "
            "for check, serve --load, scripts"
        ),
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help=(
            "keep following: a server thread live, or a growing session file like tail -f "
            "(Ctrl-C stops)"
        ),
    )
    parser.add_argument(
        "--idle",
        metavar="SECONDS",
        type=_seconds,
        default=None,
        help="with --follow FILE: stop once the file has not grown for this long (default: never)",
    )
    parser.add_argument(
        "--depth",
        metavar="N",
        type=_depth,
        default=None,
        help="levels of sub-agents drawn under their calls (default: 2; 0 draws none, "
        "counting their calls on one line)",
    )
    parser.add_argument(
        "--max-sub-entries",
        metavar="N",
        type=_sub_entries,
        default=None,
        help="entries of each sub-agent drawn under its call, the rest counted (default: "
        "every one)",
    )
    parser.add_argument(
        "--max-lines",
        metavar="N",
        type=_max_lines,
        default=None,
        help="lines of each call's output drawn, the rest counted (default: 100)",
    )
    parser.add_argument(
        "--page-size",
        metavar="N",
        type=_page_size,
        default=None,
        help="html: split the page into pages of N calls, written beside --output (NAME.html "
        "the index with the summary and links, then NAME-2.html…)",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        type=path_arg,
        default=None,
        help="write to FILE instead of standard output (with --page-size: the index page)",
    )
    add_root_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read the input and write the surface to stdout (or ``--output``), each call as soon
    as it is drawn; ``--page-size``: pages beside ``--output`` (``cli.show_pages``)."""
    path: str = args.path
    absent = not os.path.exists(path)
    many = path != "-" and (os.path.isdir(path) or (absent and may_be_an_id(path)))
    single = not (is_url(args.path) or args.follow or many)
    problem = output_problem(args, single=single)
    if problem is not None:
        print(f"toolview show: {problem}", file=sys.stderr)
        return 2
    if args.page_size is not None:
        return _read(args)
    return to_output(args, lambda: _run(args, many=many))


def _run(args: argparse.Namespace, *, many: bool) -> int:
    if is_url(args.path):
        if args.json or args.idle is not None:
            print("toolview show: --json and --idle read a file, not a URL", file=sys.stderr)
            return 2
        return show_url(args)
    if args.follow:
        from toolview.cli.show_follow_file import follow_file

        return follow_file(args)
    if args.idle is not None:
        print("toolview show: --idle goes with --follow", file=sys.stderr)
        return 2
    if many:
        from toolview.cli.show_sessions import show_sessions

        return show_sessions(args, _out)
    return _read(args)


def _read(args: argparse.Namespace) -> int:
    """Read one thread from a file or stdin and draw it."""
    try:
        with opened_items(args.path, args.source) as items:
            return _out(items, args)
    except SourceError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2


def _out(items: Iterable[Item], args: argparse.Namespace) -> int:
    if args.page_size is not None:
        return draw_pages(items, args)
    if args.json:
        from toolview.cli.show_json import write_json

        return write_json(items)
    return draw_items(items, args)


def _page_size(value: str) -> int:
    return _whole(value, 1, None, "must be at least 1 call")


def _depth(value: str) -> int:
    return _whole(value, 0, 100, "must be between 0 and 100")


def _sub_entries(value: str) -> int:
    return _whole(value, 0, None, "must be at least 0")


def _max_lines(value: str) -> int:
    return _whole(value, 1, None, "must be at least 1")


def _width(value: str) -> int:
    return _whole(value, 20, 1000, "must be between 20 and 1000")


def _whole(value: str, low: int, high: int | None, words: str) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (``None``: no top), else ``words``."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if number < low or (high is not None and number > high):
        raise argparse.ArgumentTypeError(words)
    return number


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0 < seconds < 10**7:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return seconds
