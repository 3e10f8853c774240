"""``toolview show --surface html --page-size N --output DIR/NAME.html``: a thread in pages.

Why a file and not stdout: one run writes several pages (``NAME.html``, the
index with the summary and the links, then ``NAME-2.html``…) that link to
each other by name, so they need a place and a name; standard output holds
one document. ``--output`` alone writes the one page (or any surface) to that
file instead of standard output. Options that cannot apply are refused
(exit 2) before anything is read or written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from toolview.cli.jsonl import Item, feed_items
from toolview.cli.output import limits_of

if TYPE_CHECKING:  # --output is made a Path by its option (cli.inputs.path_arg)
    from pathlib import Path

__all__ = ["draw_pages", "output_problem", "to_output"]


def output_problem(args: argparse.Namespace, *, single: bool) -> str | None:
    """Why ``--page-size``/``--output`` cannot apply to this run, or ``None``.

    ``single``: the input is one thread read once (a file or stdin), not a
    folder, a session id, a URL or a followed file.
    """
    if args.page_size is None:
        if args.output is not None and args.follow:
            return "--output writes a finished page, not a followed thread"
        return None
    if args.surface != "html":
        return "--page-size splits an html page: add --surface html"
    if args.output is None:
        return "--page-size writes several linked pages: name the first with --output DIR/NAME.html"
    if not args.output.name.endswith(".html") or args.output.name == ".html":
        return "--output for pages names an .html file (NAME.html; the others are NAME-2.html…)"
    if not single or args.json:
        return "--page-size splits one thread read from a file or stdin"
    if not args.output.parent.is_dir():
        return f"--output: no such folder: {args.output.parent}"
    return None


def to_output(args: argparse.Namespace, run: Callable[[], int]) -> int:
    """``run`` with its standard output written to ``args.output`` (when given)."""
    if args.output is None:
        return run()
    with args.output.open("w", encoding="utf-8") as out, contextlib.redirect_stdout(out):
        return run()


def draw_pages(items: Iterable[Item], args: argparse.Namespace) -> int:
    """Stream ``items`` into pages of ``args.page_size`` calls beside ``args.output``."""
    try:
        from toolview.render.html import REGISTRY
        from toolview.render.html.paging import Pager
    except ImportError as exc:
        print(f"toolview: the html surface is not available: {exc}", file=sys.stderr)
        return 2
    from toolview.render.stream import ThreadStream

    output: Path = args.output
    folder, name = output.parent, output.name.removesuffix(".html")
    limits = limits_of(args)
    title = "toolview" if args.path == "-" else os.path.basename(args.path)
    pager = Pager(name, title, args.page_size, _saver(folder), REGISTRY, limits)
    stream = ThreadStream(pager.shape(), _nothing, limits=limits)
    feed_items(items, stream.add, stream.note, lambda: stream.entries > 0)
    stream.close()
    pager.close()
    return 0


def _saver(folder: Path) -> Callable[[str, str], None]:
    def save(name: str, text: str) -> None:
        (folder / name).write_text(text, encoding="utf-8")

    return save


def _nothing(_text: str) -> None:
    """The pager saves the pages; the stream itself writes nothing."""
