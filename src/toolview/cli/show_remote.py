"""``toolview show URL``: a thread read back from a ``toolview serve``, once or followed.

Why here and not a command of its own: a server thread is one more place a
thread lives, so it renders exactly like a file of the same observations (the
same ``draw_items``, streamed as a file is; each sub-agent before the result
of the call that ran it, as a session file is read: ``remote.sub_agents_first``).
The URL is the one ``--to`` takes; the token comes from ``$TOOLVIEW_TOKEN``
only, as for the publishing commands (a command line is visible to every
user of the machine), and goes only where ``remote.token`` allows
(loopback, https, ``$TOOLVIEW_TOKEN_HOSTS``); when it is withheld, stderr
says why. Exit codes: 2 for a URL that names no thread (or options that
cannot apply), 1 when the server cannot be read (unreachable, token
refused, no such thread, a frame that breaks the API), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Final

from toolview.cli.jsonl import Item, feed_items
from toolview.cli.output import open_stream
from toolview.contract import Observation

__all__ = ["EXIT_UNREADABLE", "EXIT_USAGE", "draw_items", "is_url", "show_url"]

EXIT_UNREADABLE: Final = 1
EXIT_USAGE: Final = 2


def is_url(path: str) -> bool:
    """Whether ``show``'s input names a server thread rather than a file."""
    return path.startswith(("http://", "https://"))


def show_url(args: argparse.Namespace) -> int:
    """Render the thread at ``args.path`` (``--follow``: live until interrupted)."""
    from toolview.remote.reader import NotAThreadURL, ReadError, ThreadReader
    from toolview.remote.sub_agents_first import sub_agents_first

    problem = _usage_problem(args)
    if problem is not None:
        print(f"toolview show: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        with ThreadReader(args.path, notify=_say) as reader:
            if args.follow:
                from toolview.cli.show_follow import follow

                return follow(reader, args)
            return _show_once(sub_agents_first(reader.observations), args)
    except NotAThreadURL as exc:
        print(f"toolview show: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ReadError as exc:
        print(f"toolview show: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE


def _say(message: str) -> None:
    print(f"toolview show: {message}", file=sys.stderr, flush=True)


def _usage_problem(args: argparse.Namespace) -> str | None:
    """Why these options cannot apply to a server thread, if they cannot."""
    if args.source not in ("auto", "toolview"):
        return f"a server thread holds toolview observations; --from {args.source} cannot apply"
    if args.follow and args.surface == "html":
        return "--follow draws on a terminal or as text; watch the thread's page in a browser"
    return None


def _show_once(observations: Iterable[Observation], args: argparse.Namespace) -> int:
    return draw_items(observations, args)


def draw_items(items: Iterable[Item], args: argparse.Namespace) -> int:
    """Stream ``items`` (a file's or a server's) onto ``args.surface``; 2 if it is missing."""
    stream = open_stream(args)
    if stream is None:
        return EXIT_USAGE
    feed_items(items, stream.add, stream.note, lambda: stream.entries > 0)
    stream.close()
    return 0
