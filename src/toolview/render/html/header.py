"""A call's summary line in HTML, read from the one status table.

The summary of a call's ``<details>`` holds its heading (``<h3
class="tv-call-title">``): the status badge, the tool name, the gist (one
line: the command, the path, the first line of the result), the duration and
the time (``<time datetime>``, the absolute UTC time as text; the live
page's script may say it relatively). The badge's words, glyph and colour
come from ``STATUS_DISPLAY`` through the core's ``Header``: the colour name
becomes a CSS class (``tv-colour-green``); glyph and label are what is seen,
the ARIA text ("Tool call failed") what a screen reader reads, as text.
Nothing here announces itself (no ``role="status"``, no live region): a page
has one, its status line. This module never looks at the status itself.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolview.contract import StatusDisplay
from toolview.render.clean import clean_field
from toolview.render.html.kinds.data import json_text_html
from toolview.render.html.markup import esc
from toolview.render.view import Body, ErrorBody, Header, KindBody
from toolview.render.words import duration_text

__all__ = [
    "args_html",
    "body_kind",
    "permalink_html",
    "status_badge",
    "summary_line",
    "time_html",
]

_CLASS_SAFE = re.compile(r"[^a-z0-9_-]")
_KIND_CHARS = 200


def status_badge(header: Header) -> str:
    """The status badge: icon and label as seen, the status table's ARIA text as read aloud."""
    return _badge(header.display)


@lru_cache(maxsize=64)
def _badge(display: StatusDisplay) -> str:
    """Once per status (a handful, drawn on every call), not escaped again for each call."""
    colour = _CLASS_SAFE.sub("", display.colour.lower())
    return (
        f'<span class="tv-status tv-colour-{colour}">'
        f'<span aria-hidden="true">{esc(display.icon)} {esc(display.label)}</span>'
        f'<span class="tv-sr">{esc(display.aria)}</span></span>'
    )


def summary_line(header: Header) -> str:
    """``<summary>`` holding the call's heading: badge, tool, gist, kind, duration, time."""
    gist = f'<span class="tv-gist">{esc(header.gist)}</span>' if header.gist else ""
    kind = f'<span class="tv-meta tv-kind">{esc(header.kind)}</span>' if header.kind else ""
    duration = ""
    if header.duration_ms is not None:
        took = esc(duration_text(header.duration_ms))
        duration = f'<span class="tv-meta tv-duration">{took}</span>'
    return (
        '<summary class="tv-call-summary tv-header"><h3 class="tv-call-title">'
        f'{status_badge(header)}<span class="tv-tool">{esc(header.tool_name)}</span>'
        f"{gist}{kind}{duration}{time_html(header.at)}</h3></summary>"
    )


def time_html(at: str | None) -> str:
    """``<time datetime="…Z">2026-05-01 12:00:00 UTC</time>``; nothing when the time is unknown.

    ``at`` is in the contract's form (``call_header`` read it back), so it is
    safe in an attribute; it is escaped all the same.
    """
    if at is None:
        return ""
    shown = f"{at[:10]} {at[11:19]} UTC"
    return f'<time class="tv-meta tv-time" datetime="{esc(at)}">{esc(shown)}</time>'


def args_html(header: Header) -> str:
    """The call's arguments, bounded and redacted, on their line under the summary,
    highlighted as JSON (``kinds.data.json_text_html``)."""
    if not header.args:
        return ""
    return f'<pre class="tv-args tv-json">{json_text_html(header.args)}</pre>'


def permalink_html(element_id: str, tool_name: str) -> str:
    """A link to the call itself (``element_id`` is safe), named for screen readers."""
    return (
        f'<a class="tv-permalink" href="#{element_id}" '
        f'aria-label="{esc(f"Link to this {tool_name} call")}">#</a>'
    )


def body_kind(body: Body) -> str:
    """The kind the call's body is drawn with (an error's too), cleaned, else ``""``."""
    kind = body.kind if isinstance(body, ErrorBody) else body
    return clean_field(kind.kind, _KIND_CHARS) if isinstance(kind, KindBody) else ""
