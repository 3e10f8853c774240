"""``toolview show FOLDER`` (or an id prefix): coding-agent sessions, each under a heading.

Why each session is a thread of its own, drawn one after the other: they are
separate conversations, so each gets its own summary (calls, failures, time,
tokens), and each is streamed (``load_observations`` yields as it reads) so a
folder of large sessions costs the largest call, not the folder. The heading
names the agent, the session id and the file, cleaned and redacted like any
other field (a file name is the user's, but a folder can hold anything).
An HTML page is one document: its head once, then each session's heading
and thread fragment, then its closing tags.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path
from typing import Any, Final

from toolview.cli.inputs import InputError
from toolview.cli.jsonl import Item, feed_items
from toolview.cli.output import SurfaceUnavailable, limits_of, stream_shape
from toolview.cli.session_find import Found, in_folder, roots
from toolview.cli.session_hosts import as_items
from toolview.cli.session_ids import named
from toolview.render.clean import clean_field
from toolview.render.limits import Limits
from toolview.render.stream import StreamShape, ThreadStream

__all__ = ["LABELS", "draw_sessions", "show_sessions", "title"]

LABELS: Final = {
    "claude-code": "Claude Code",
    "codex": "Codex",
    "gemini": "Gemini CLI",
    "qwen": "Qwen Code",
    "opencode": "OpenCode",
    "copilot": "Copilot CLI",
    "cursor": "Cursor agent",
}
_TITLE_CHARS: Final = 300


def show_sessions(
    args: argparse.Namespace, out: Callable[[Iterable[Item], argparse.Namespace], int]
) -> int:
    """``args.path`` is a folder (each session in it) or an id prefix (the one it names);
    ``out`` draws or prints one stream of items."""
    folder: Path | None = Path(args.path)
    if folder is not None and folder.is_dir():
        found, none = in_folder(folder), f"{args.path} holds no session"
    else:
        folder, found, none = None, [named(args.path, roots(args))], ""
    wanted = [match for match in found if args.source in ("auto", match.host.name)]
    if not wanted:
        raise InputError(none or f"no {args.source} session matches {args.path!r}")
    if args.json:  # each session's observations in turn
        return out(chain.from_iterable(_items(match) for match in wanted), args)
    if len(wanted) == 1 and folder is None:
        return out(_items(wanted[0]), args)
    return draw_sessions(wanted, args, folder)


def _items(found: Found) -> Iterable[Item]:
    """One session's items: streamed by its host, its sub-agents' files included."""
    return as_items(found.load())


def title(found: Found, folder: Path | None = None) -> str:
    """``Claude Code session 3f2a… · project/3f2a….jsonl``, cleaned, on one line."""
    where = found.path
    if folder is not None and where.is_relative_to(folder):
        where = where.relative_to(folder)
    label = LABELS.get(found.host.name, found.host.title)  # a plug-in says its own
    return clean_field(f"{label} session {found.id} · {where}", _TITLE_CHARS)


def draw_sessions(
    sessions: list[Found], args: argparse.Namespace, folder: Path | None = None
) -> int:
    """Draw each session in turn on ``args.surface``, under its heading; 2 if the surface is
    missing."""
    limits = limits_of(args)
    try:
        page = stream_shape(args.surface, width=args.width, color=args.color, limits=limits)
        shape = stream_shape(
            args.surface, width=args.width, color=args.color, page=False, limits=limits
        )
    except SurfaceUnavailable as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    _write(page.opening.removesuffix(shape.opening))
    bare = dataclasses.replace(shape, opening="", closing="")
    for number, found in enumerate(sessions):
        _write(("\n" if number else "") + _heading(args, title(found, folder)))
        _write(shape.opening)
        _draw(found, bare, limits)
        _write(shape.closing)
    _write(page.closing.removeprefix(shape.closing))
    return 0


def _draw(found: Found, shape: StreamShape[Any], limits: Limits) -> None:
    stream = ThreadStream(shape, _write, limits=limits)
    feed_items(_items(found), stream.add, stream.note, lambda: stream.entries > 0)
    stream.close()


def _heading(args: argparse.Namespace, text: str) -> str:
    """The heading line on the surface: its own markup, escaped for it."""
    match args.surface:
        case "markdown":
            from toolview.render.markdown.escape import inline

            return f"## {inline(text)}\n\n"
        case "html":
            from toolview.safety.html import escape_html

            return f'\n<h2 class="tv-session">{escape_html(text)}</h2>\n'
        case "terminal" if args.color or (args.color is None and sys.stdout.isatty()):
            return f"\x1b[1m══ {text} ══\x1b[0m\n\n"
    return f"══ {text} ══\n\n"


def _write(text: str) -> None:
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()
