"""``toolview show``: render a thread (observation JSON Lines, a host's transcript, a server).

Lines that break the contract are not dropped silently: each shows in the
thread as a note ("line 7 skipped: $.path: reason") and the rest still
renders. Binary input is refused whole (exit 2), and a leading byte order
mark is ignored. ``--surface html`` writes a standalone page. A server thread's URL
(``http://HOST:PORT/threads/ID``) is read back from the server, once or with
``--follow`` live (``cli.show_remote``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from toolview.cli.inputs import open_input, refuse_binary, strip_bom
from toolview.cli.jsonl import build_thread
from toolview.cli.output import SURFACES, write_thread
from toolview.cli.show_remote import is_url, show_url
from toolview.cli.sources import SOURCES, SourceError, load

__all__ = ["register", "run"]


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
    refuse_binary(data, args.path)
    data, _ = strip_bom(data)  # an editor's byte order mark is no part of the first line
    try:
        items = load(data, args.source)
    except SourceError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    return write_thread(build_thread(items), args)


def _width(value: str) -> int:
    try:
        width = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 20 <= width <= 1000:
        raise argparse.ArgumentTypeError("must be between 20 and 1000")
    return width
