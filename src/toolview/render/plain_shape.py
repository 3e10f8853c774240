"""The stream shape the text and Markdown surfaces share: blocks, a blank line between.

Why here and not in ``render.plain``: the shape is how a thread is *framed*
(what joins two entries, what ends the thread), which the stream and the
whole-thread render must agree on byte for byte; ``plain`` says how each piece
is written. Both surfaces draw a whole thread through ``render_whole`` with
this shape, and stream through ``ThreadStream`` with the same one.
"""

from __future__ import annotations

from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import Limits
from toolview.render.plain import PlainStyle, render_view
from toolview.render.registry import Registry
from toolview.render.stream import StreamShape
from toolview.render.threadwalk import ThreadParts

__all__ = ["plain_shape"]


def plain_shape(
    registry: Registry[list[str]], style: PlainStyle, limits: Limits
) -> StreamShape[str]:
    """Each entry a block in ``style``, a blank line between, the thread ending in a newline."""
    parts = ThreadParts(
        call=lambda view, _entry: render_view(view, registry, style),
        message=lambda entry: style.message(
            entry.message.role, shown_text(entry.message.text, limits)
        ),
        note=lambda entry: style.note(clean_field(entry.text, limits.max_chars, "space")),
        summary=style.summary,
    )
    return StreamShape(parts, show=_as_is, separator="\n\n", closing="\n")


def _as_is(text: str) -> str:
    return text
