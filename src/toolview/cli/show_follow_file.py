"""``toolview show --follow FILE``: a session file (or observations) followed as it grows.

The file may be named by its session's id, as ``toolview sessions`` lists it.

Why it draws like ``show --follow URL`` (``cli.show_follow.follow_items``):
on a terminal the running call is live (spinner, elapsed time, its output's
tail) and each call is printed once it is final; in a pipe each entry is
printed once, when final. The file is read by ``cli.show_tail`` (a watcher,
not a sleep loop; a half-written last line waits for its newline) and each
complete line goes through the host's mapper as it arrives, so memory holds
the calls still open. The format is told from the first line (or ``--from``).
It ends when the file has been idle for ``--idle SECONDS`` (the calls still
open then are drawn as they stand) or on Ctrl-C (exit 130, as everywhere).
Sub-agents write files of their own: following reads the session's file only.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path

from toolview.cli.inputs import InputError, refuse_binary, strip_bom
from toolview.cli.jsonl import Item, read_toolview, sniff_toolview
from toolview.cli.session_find import may_be_an_id, roots
from toolview.cli.session_hosts import HOSTS, host, host_names, map_lines
from toolview.cli.session_ids import named
from toolview.cli.show_follow import follow_items
from toolview.cli.show_tail import TailError, tail_lines

__all__ = ["follow_file"]

PROG = "toolview show"
FOLLOWED = ("toolview", *HOSTS)


def follow_file(args: argparse.Namespace) -> int:
    """Follow ``args.path`` until idle or interrupted; 2 when it cannot be followed."""
    problem = _usage_problem(args)
    if problem is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return 2
    path, session = Path(args.path), ""
    if not path.exists() and may_be_an_id(args.path):  # an id as ``sessions`` lists it
        found = named(args.path, roots(args))
        path, session = found.path, found.session
    if not path.is_file():
        raise InputError(f"cannot follow {args.path}: not a file")
    if session or _is_database(path):  # OpenCode's: rows rewritten in place, not lines
        from toolview.cli.show_follow_db import follow_database

        return follow_database(path, session or None, args)
    try:
        items = _items(tail_lines(path, args.idle), args.source, args.path)
        if items is None:
            return 2
        follow_items(items, args)
    except TailError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    return 0


def _is_database(path: Path) -> bool:
    """Whether ``path`` is an SQLite database (OpenCode's is the one toolview reads)."""
    try:
        with path.open("rb") as stream:
            return stream.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _usage_problem(args: argparse.Namespace) -> str | None:
    if args.path == "-":
        return "--follow needs a file (or a server thread's URL), not standard input"
    if args.surface == "html":
        return "--follow draws on a terminal or as text, not html"
    if args.json:
        return "--follow draws; --json prints a file's observations once (drop --follow)"
    if args.source not in ("auto", *FOLLOWED):
        return f"--follow reads a session or observations as they grow, not --from {args.source}"
    return None


def _items(lines: Iterator[bytes], source: str, name: str) -> Iterable[Item] | None:
    """The file's items, its format told from its first line (waited for); None if it cannot
    be told (said on stderr)."""
    head: list[bytes] = []
    for line in lines:
        if not head:
            refuse_binary(line, name)
            line = strip_bom(line)[0]
        head.append(line)
        if not line.isspace():
            break
    rest = chain(head, lines)
    first = head[-1] if head else b""
    kind = source if source != "auto" else _format(first)
    if kind == "toolview" or not head:
        return read_toolview(rest)
    found = host(kind) if kind is not None else None
    if found is None:
        told = (
            "none of toolview observations, a Claude Code, Codex, Gemini CLI, Qwen Code, "
            "Copilot CLI session, a Cursor agent run"
        )
        what = f"the {kind} host is not available" if kind else f"its first line is {told}"
        print(f"{PROG}: cannot follow {name}: {what}; name it with --from", file=sys.stderr)
        return None
    return map_lines(found, rest, finish=False)  # idle is not the session's end


def _format(first: bytes) -> str | None:
    if sniff_toolview(first):
        return "toolview"
    for name in host_names():
        found = host(name)
        try:
            if found is not None and found.sniff(first):
                return name
        except Exception:  # a sniffer failing is its "no"
            continue
    return None
