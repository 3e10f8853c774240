"""A thread written to standard output on a surface: shared by ``show`` and ``mcp``.

Why a module of its own: ``show`` (a file, a server thread once or followed)
and ``mcp call`` all draw a thread the same way, and before this module they
reached into each other for it (a loop of imports). Each surface is imported
only when it is drawn on, so ``show --surface text`` never pays for Rich.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Final

from toolview.contract.thread import Thread

__all__ = ["SURFACES", "SurfaceUnavailable", "render", "write_thread"]

SURFACES: Final = ("text", "terminal", "html", "markdown")


class SurfaceUnavailable(RuntimeError):
    """A surface this installation does not have."""


def write_thread(thread: Thread, args: argparse.Namespace) -> int:
    """Render ``thread`` on ``args.surface`` to stdout; 2 if the surface is missing."""
    try:
        output = render(thread, args.surface, width=args.width, color=args.color)
    except SurfaceUnavailable as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(output)
    sys.stdout.flush()
    return 0


def render(thread: Thread, surface: str, *, width: int | None, color: bool | None) -> str:
    """The thread rendered on ``surface`` (one of ``SURFACES``)."""
    match surface:
        case "text":
            from toolview.render.text import render_thread as render_text

            return render_text(thread)
        case "markdown":
            from toolview.render.markdown import render_thread as render_markdown

            return render_markdown(thread)
        case "terminal":
            return _terminal(thread, width=width, color=color)
        case "html":
            return _html_page(thread)
    raise ValueError(f"unknown surface {surface!r}; choose from {', '.join(SURFACES)}")


def _terminal(thread: Thread, *, width: int | None, color: bool | None) -> str:
    """The terminal surface at ``width`` (else the terminal's, else 80), coloured on a tty."""
    import shutil  # a few ms of start-up that the other surfaces need not pay

    from toolview.render.terminal import render_thread

    tty = sys.stdout.isatty()
    columns = width or (shutil.get_terminal_size().columns if tty else 80)
    use_color = color if color is not None else tty and "NO_COLOR" not in os.environ
    return render_thread(thread, width=columns, color=use_color)


def _html_page(thread: Thread) -> str:
    try:
        from toolview.render.html import render_page
    except ImportError as exc:
        raise SurfaceUnavailable(f"the html surface is not available: {exc}") from None
    return render_page(thread)
