"""``toolview show``: render a thread (observation JSON Lines, a host's transcript, a server).

Lines that break the contract are not dropped silently: each shows in the
thread as a note ("line 7 skipped: $.path: reason") and the rest still
renders. Binary input is refused whole (exit 2), and a leading byte order
mark is ignored. ``--surface html`` writes a standalone page. A server thread's URL
(``http://HOST:PORT/threads/ID``) is read back from the server, once or with
``--follow`` live (``cli.show_remote``).

Observations are read, drawn and written a call at a time
(``render.stream``): the first call is written before the input ends, and
memory holds the calls still open, not the thread (docs/surfaces.md,
"Streaming").
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolview.cli.inputs import open_input, read_head, refuse_binary, strip_bom
from toolview.cli.output import SURFACES
from toolview.cli.show_remote import draw_items, is_url, show_url
from toolview.cli.sources import SOURCES, SourceError, read_items

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
    """Read the input and write the surface to stdout, each call as soon as it is drawn."""
    if is_url(args.path):
        return show_url(args)
    if args.follow:
        print("toolview show: --follow needs a server thread's URL", file=sys.stderr)
        return 2
    with open_input(args.path) as stream:
        head = read_head(stream)
        refuse_binary(head, args.path)
        head, _ = strip_bom(head)  # an editor's byte order mark is no part of the first line
        try:
            items = read_items(head, stream, args.source)
        except SourceError as exc:
            print(f"toolview: {exc}", file=sys.stderr)
            return 2
        return draw_items(items, args)


def _width(value: str) -> int:
    try:
        width = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 20 <= width <= 1000:
        raise argparse.ArgumentTypeError("must be between 20 and 1000")
    return width
