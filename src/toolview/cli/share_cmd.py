"""``toolview share SESSION [-o FILE]``: one self-contained page (or Markdown) to hand on.

Why a command of its own and not ``show --surface html``: a page shown on
your own screen may hold what your session printed; a page handed to
someone must not, and its author must be able to check that. So ``share``
writes the same standalone page (no script, sub-agents inlined) from
observations redacted one by one (``server.share``), hides the user's own
words too (``--redact REGEX``, ``--strip-home``), and prints a REVIEW of every
redaction: what kind of secret, in which call and field, never the value.
Nothing leaves the machine, unless ``--gist`` asks: the document goes to a file or
standard output, or, with ``--gist``, to a gist through the user's own ``gh``
once its review was printed and its author said yes (``cli.share_gist``).

SESSION is read as ``show`` reads one: a file (observations, a Claude Code,
Codex or pi session), ``-`` for standard input, or a session id (its first
characters) under the agents' homes. The review goes to standard error when
the document goes to standard output, else to standard output.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from toolview.cli.inputs import InputError, path_arg
from toolview.cli.jsonl import BadDescriptor, Item, Note, Skipped
from toolview.cli.session_find import add_root_options, roots
from toolview.cli.session_hosts import as_items
from toolview.cli.session_ids import named
from toolview.cli.sources import SourceError, opened_items

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``share`` subcommand."""
    parser = subparsers.add_parser(
        "share",
        help="write one session as a redacted, self-contained page or Markdown, with a review",
        description=(
            "Write one session as a self-contained page (no script, sub-agents inlined) or "
            "Markdown, every credential redacted, and print a review of each redaction (its "
            "kind and where: the call and field; never the value). Nothing is sent anywhere."
        ),
    )
    parser.add_argument(
        "session",
        help="a session file (observations, Claude Code, Codex, pi), - for stdin, or a "
        "session id (or its first characters)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", type=path_arg, default=None,
        help="write the document to FILE (default: standard output)",
    )  # fmt: skip
    parser.add_argument(
        "--format", choices=("html", "md"), default=None,
        help="html (default; md when FILE ends in .md) or md (Markdown)",
    )  # fmt: skip
    parser.add_argument(
        "--redact", metavar="REGEX", action="append", default=[],
        help="also hide what REGEX matches (your hostnames, customers, paths); repeatable",
    )  # fmt: skip
    parser.add_argument(
        "--strip-home", action="store_true", help="write your home folder's path as ~"
    )
    parser.add_argument(
        "--gist", action="store_true",
        help="send it as a secret GitHub gist through your `gh` (Markdown unless --format), "
        "after the review and your yes",
    )  # fmt: skip
    parser.add_argument("--public", action="store_true", help="with --gist: a public gist")
    parser.add_argument(
        "--yes", action="store_true", help="with --gist: send without asking (read the review)"
    )
    add_root_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build the document, write it, print the review; 2 for what cannot be shared as asked."""
    from toolview.server.share.build import Format, build_share
    from toolview.server.share.review import review_lines
    from toolview.server.share.words import ShareError, UserWords

    if args.gist:
        return _gist(args)
    fmt: Format = args.format or ("md" if args.output and args.output.suffix == ".md" else "html")
    try:
        words = UserWords(args.redact, strip_home=args.strip_home)
        with _items(args) as items, _target(args.output) as write:
            shared = build_share(
                _share_items(items), fmt=fmt, title=_title(args), words=words, write=write
            )
    except ShareError as exc:
        print(f"toolview share: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(shared.text)
        sys.stdout.flush()
    review = sys.stderr if args.output is None else sys.stdout
    for line in review_lines(shared.findings):
        print(line, file=review)
    if args.output is not None:
        print(f"wrote {args.output} ({fmt}); read the review above before you send it")
    return 0


def _gist(args: argparse.Namespace) -> int:
    """``--gist``: no ``gh``, no share; else the document built to a temporary file, its
    review printed, and ``gh gist create`` run once the author said yes."""
    from toolview.cli.share_gist import GistRefused, find_gh, send_gist
    from toolview.server.share.build import Format, build_share
    from toolview.server.share.review import review_lines
    from toolview.server.share.words import ShareError, UserWords

    fmt: Format = args.format or "md"

    def build(document: Path) -> list[str]:
        words = UserWords(args.redact, strip_home=args.strip_home)
        with _items(args) as items, _target(document) as write:
            shared = build_share(
                _share_items(items), fmt=fmt, title=_title(args), words=words, write=write
            )
        return list(review_lines(shared.findings))

    try:
        if args.output is not None:
            raise GistRefused("--gist sends the document; -o writes it: choose one")
        gh = find_gh()
        return send_gist(gh, build, suffix=fmt, public=args.public, yes=args.yes)
    except (ShareError, GistRefused) as exc:
        print(f"toolview share: {exc}", file=sys.stderr)
        return 2


@contextmanager
def _target(output: Path | None) -> Iterator[Callable[[str], None] | None]:
    """Where the document is written as it is drawn: a file beside ``output``, renamed to it
    once whole (a refused share leaves no file, and no half of one); ``None`` for stdout,
    which is written once the share is whole, for the same reason."""
    if output is None:
        yield None
        return
    partial = output.with_name(f".{output.name}.{os.getpid()}.partial")
    try:
        with partial.open("w", encoding="utf-8") as file:

            def write(text: str) -> None:
                file.write(text)

            yield write
        os.replace(partial, output)
    finally:
        partial.unlink(missing_ok=True)


@contextmanager
def _items(args: argparse.Namespace) -> Iterator[Iterable[Item]]:
    """The session's items, read as ``show`` reads one session (a file, stdin or an id)."""
    path: str = args.session
    if path != "-" and not os.path.exists(path):
        found = named(path, roots(args))
        yield as_items(found.load())
        return
    try:
        with opened_items(path) as items:
            yield items
    except SourceError as exc:
        raise InputError(str(exc)) from None


def _share_items(items: Iterable[Item]) -> Iterator[Any]:
    """``show``'s items as a share takes them: a broken descriptor's result with its reason,
    a skipped line or a host's note as its text."""
    for item in items:
        if isinstance(item, BadDescriptor):
            yield (item.result, item.reason)
        elif isinstance(item, Skipped | Note):
            yield str(item)
        else:
            yield item


def _title(args: argparse.Namespace) -> str:
    """The page's title: the session's file name (redacted with the rest) or its id."""
    return "toolview share" if args.session == "-" else os.path.basename(args.session)
