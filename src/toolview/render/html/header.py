"""A call's header in HTML, read from the one status table.

The badge's words, glyph and colour come from ``STATUS_DISPLAY`` through the
core's ``Header``: the colour name becomes a CSS class (``tv-colour-green``),
the ARIA text the badge's ``aria-label`` on a ``role="status"`` element, so a
screen reader hears "Tool call succeeded" rather than a glyph. This module
never looks at the status itself.
"""

from __future__ import annotations

import re

from toolview.render.html.markup import esc
from toolview.render.view import Header
from toolview.render.words import duration_text

__all__ = ["header_html", "status_badge"]

_CLASS_SAFE = re.compile(r"[^a-z0-9_-]")


def status_badge(header: Header) -> str:
    """The status badge: icon and label, coloured by class, labelled for ARIA."""
    display = header.display
    colour = _CLASS_SAFE.sub("", display.colour.lower())
    return (
        f'<span class="tv-status tv-colour-{colour}" role="status" '
        f'aria-label="{esc(display.aria)}">'
        f'<span aria-hidden="true">{esc(display.icon)}</span> {esc(display.label)}</span>'
    )


def header_html(header: Header) -> str:
    """Badge, tool name, kind and duration; then the call's arguments, if any."""
    meta = [header.kind] if header.kind else []
    if header.duration_ms is not None:
        meta.append(duration_text(header.duration_ms))
    meta_html = f'<span class="tv-meta">{esc(" · ".join(meta))}</span>' if meta else ""
    args = f'<pre class="tv-args">{esc(header.args)}</pre>' if header.args else ""
    return (
        '<header class="tv-header">'
        f"{status_badge(header)}"
        f'<span class="tv-tool">{esc(header.tool_name)}</span>{meta_html}'
        f"</header>{args}"
    )
