"""A thread written to standard output on a surface: shared by ``show`` and ``mcp``.

Why a module of its own: ``show`` (a file, a server thread once or followed)
and ``mcp call`` all draw a thread the same way, and before this module they
reached into each other for it (a loop of imports). Each surface is imported
only when it is drawn on, so ``show --surface text`` never pays for Rich.

``open_stream`` is how ``show`` writes: a ``render.stream.ThreadStream`` whose
every piece goes to standard output and is flushed at once, so the first call
is on screen while the input is still being read (see docs/surfaces.md,
"Streaming").
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Final

from toolview.contract.thread import Thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from toolview.render.limits import Limits
    from toolview.render.stream import StreamShape, ThreadStream

__all__ = [
    "SURFACES",
    "SurfaceUnavailable",
    "limits_of",
    "open_stream",
    "render",
    "stream_shape",
]

SURFACES: Final = ("text", "terminal", "html", "markdown")


class SurfaceUnavailable(RuntimeError):
    """A surface this installation does not have."""


def open_stream(args: argparse.Namespace) -> ThreadStream[Any] | None:
    """A stream drawing on ``args.surface`` to stdout; ``None`` (said on stderr) if the surface
    is missing, before anything is written."""
    from toolview.render.stream import ThreadStream

    limits = limits_of(args)
    try:
        shape = stream_shape(args.surface, width=args.width, color=args.color, limits=limits)
    except SurfaceUnavailable as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return None
    return ThreadStream(shape, _write, limits=limits)


def limits_of(args: argparse.Namespace) -> Limits:
    """The surfaces' limits: every sub-agent's every entry (an export has nothing behind it to
    fetch the rest from) unless cut by ``--depth`` (levels of sub-agents drawn),
    ``--max-sub-entries`` (entries drawn of each) or ``--max-lines`` (lines of each output)."""
    from dataclasses import replace

    from toolview.render.limits import DEFAULT_LIMITS

    cuts = {
        "depth": getattr(args, "depth", None),
        "max_sub_entries": getattr(args, "max_sub_entries", None),
        "max_lines": getattr(args, "max_lines", None),
    }
    return replace(DEFAULT_LIMITS, **{name: n for name, n in cuts.items() if n is not None})


def stream_shape(
    surface: str,
    *,
    width: int | None,
    color: bool | None,
    page: bool = True,
    limits: Limits | None = None,
) -> StreamShape[Any]:
    """How a stream writes on ``surface`` (one of ``SURFACES``): the same bytes as ``render``
    (``page=False``: html's thread fragment alone, for a page of several threads)."""
    from toolview.render.limits import DEFAULT_LIMITS

    bounds = limits or DEFAULT_LIMITS
    match surface:
        case "text":
            from toolview.render.text import stream_shape as text_shape

            return text_shape(limits=bounds)
        case "markdown":
            from toolview.render.markdown import stream_shape as markdown_shape

            return markdown_shape(limits=bounds)
        case "terminal":
            from toolview.render.terminal import stream_shape as terminal_shape

            columns, use_color = _terminal_options(width, color)
            return terminal_shape(width=columns, color=use_color, limits=bounds)
        case "html":
            try:
                from toolview.render.html import stream_shape as html_shape
            except ImportError as exc:
                raise SurfaceUnavailable(f"the html surface is not available: {exc}") from None
            return html_shape(limits=bounds) if page else html_shape(title=None, limits=bounds)
    raise ValueError(f"unknown surface {surface!r}; choose from {', '.join(SURFACES)}")


def _write(text: str) -> None:
    """One piece out, at once: the reader sees each call as it is drawn."""
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()


def render(
    thread: Thread,
    surface: str,
    *,
    width: int | None,
    color: bool | None,
    limits: Limits | None = None,
) -> str:
    """The thread rendered on ``surface`` (one of ``SURFACES``)."""
    from toolview.render.limits import DEFAULT_LIMITS

    bounds = limits or DEFAULT_LIMITS
    match surface:
        case "text":
            from toolview.render.text import render_thread as render_text

            return render_text(thread, limits=bounds)
        case "markdown":
            from toolview.render.markdown import render_thread as render_markdown

            return render_markdown(thread, limits=bounds)
        case "terminal":
            return _terminal(thread, width=width, color=color, limits=bounds)
        case "html":
            return _html_page(thread, bounds)
    raise ValueError(f"unknown surface {surface!r}; choose from {', '.join(SURFACES)}")


def _terminal(thread: Thread, *, width: int | None, color: bool | None, limits: Limits) -> str:
    """The terminal surface at ``width`` (else the terminal's, else 80), coloured on a tty."""
    from toolview.render.terminal import render_thread

    columns, use_color = _terminal_options(width, color)
    return render_thread(thread, width=columns, color=use_color, limits=limits)


def _terminal_options(width: int | None, color: bool | None) -> tuple[int, bool]:
    """``width`` (else the terminal's, else 80), and colour when asked or on a tty."""
    import shutil  # a few ms of start-up that the other surfaces need not pay

    tty = sys.stdout.isatty()
    columns = width or (shutil.get_terminal_size().columns if tty else 80)
    use_color = color if color is not None else tty and "NO_COLOR" not in os.environ
    return columns, use_color


def _html_page(thread: Thread, limits: Limits) -> str:
    try:
        from toolview.render.html import render_page
    except ImportError as exc:
        raise SurfaceUnavailable(f"the html surface is not available: {exc}") from None
    return render_page(thread, limits=limits)
