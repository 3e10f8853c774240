"""Small pieces of markup every html renderer shares: text blocks and omissions.

Every function here takes *cleaned* text (secrets redacted, controls
neutralised — see ``toolview.render.clean``) and escapes it; nothing a tool
sent is ever concatenated into markup unescaped; colours command output
carried (``Window.styles``) become ``<span>``s whose classes come from the
stylesheet (``palette``), never a ``style`` attribute. What was left out is a
``<details>`` disclosure whose summary reads like every other surface
("… 4,000 more lines") and whose body gives the counts.
"""

from __future__ import annotations

import html as _html
from functools import lru_cache

from toolview.contract import Truncation
from toolview.render.html.palette import style_classes
from toolview.render.limits import Omission, Window, omission_text, truncation_omission
from toolview.render.words import omission_line
from toolview.safety import escape_html
from toolview.safety.sgr import Run

__all__ = [
    "cut_html",
    "esc",
    "omission_html",
    "pre_block",
    "styled_html",
    "truncation_html",
    "window_block",
]

# Command output repeats a handful of styles on every line: each one's classes once.
_classes = lru_cache(maxsize=512)(style_classes)

_SINGULAR = {"lines": "line", "bytes": "byte", "items": "item", "chars": "character"}
_PLURAL = {"lines": "lines", "bytes": "bytes", "items": "items", "chars": "characters"}


def esc(text: str) -> str:
    """Escape cleaned text for an element body or a quoted attribute.

    ASCII text holds no invisible or bidi character to reveal, so it needs only
    the five entities (what ``escape_html`` then does), without the search.
    """
    return _html.escape(text, quote=True) if text.isascii() else escape_html(text)


def _count(count: int, unit: str) -> str:
    """``1 line``, ``10,000 lines``: the count in words."""
    noun = (_SINGULAR if count == 1 else _PLURAL).get(unit, unit)
    return f"{count:,} {noun}"


def omission_html(omission: Omission | None, where: str = "", noun: str | None = None) -> str:
    """A disclosure for what this surface left out of the page, or nothing.

    The summary is the shared wording ("… 7 more lines"); the body names what
    and where ("7 lines below were left out to keep the page light.").
    """
    if omission is None or omission.count <= 0:
        return ""
    if noun:  # a plural ("rows"); one of them reads singular
        what = f"{omission.count:,} {noun[:-1] if omission.count == 1 else noun}"
    else:
        what = _count(omission.count, omission.unit)
    place = f" {where}" if where else ""
    return (
        '<details class="tv-trunc"><summary>'
        f"{esc(str(omission))}</summary>"
        f"{esc(what)}{esc(place)} left out to keep the page light.</details>"
    )


def truncation_html(truncated: Truncation | None) -> str:
    """A disclosure for the tool's own truncation: shown of total, in its unit."""
    omission = truncation_omission(truncated)
    if truncated is None or omission is None:
        return ""
    return (
        '<details class="tv-trunc tv-trunc-tool"><summary>'
        f"{esc(omission_text(omission.count, omission.unit))}</summary>"
        f"The tool sent {truncated.shown:,} of {_count(truncated.total, truncated.unit)}; "
        "the rest never reached toolview.</details>"
    )


def cut_html(shown: Omission | None, where: str, truncated: Truncation | None) -> str:
    """One disclosure for what this surface (``shown``) and the tool left out, side by side.

    The summary reads like every surface ("… 9,900 more lines (9,000 not in
    the result)"); the body gives both counts. Only one of them: its own
    disclosure, as before.
    """
    tool = truncation_omission(truncated)
    if shown is None or shown.count <= 0 or truncated is None or tool is None:
        return omission_html(shown, where) + truncation_html(truncated)
    place = f" {where}" if where else ""
    return (
        '<details class="tv-trunc tv-trunc-tool"><summary>'
        f"{esc(omission_line(shown, tool) or '')}</summary>"
        f"{esc(_count(shown.count, shown.unit))}{esc(place)} left out to keep the page light; "
        f"the tool sent {truncated.shown:,} of {_count(truncated.total, truncated.unit)}, "
        "the rest never reached toolview.</details>"
    )


def pre_block(text: str, extra_class: str = "", styles: tuple[Run, ...] = ()) -> str:
    """Cleaned text in a preformatted block, its styled runs as classed spans."""
    classes = f"tv-pre {extra_class}".strip()
    return f'<pre class="{classes}">{styled_html(text, styles)}</pre>'


def styled_html(text: str, styles: tuple[Run, ...]) -> str:
    """Cleaned text escaped, each run in a ``<span class="tv-f1 tv-sb">``."""
    parts: list[str] = []
    position = 0
    for run in styles:
        end = min(run.end, len(text))
        if run.start >= end:
            continue
        classes = _classes(run.style)
        parts.append(esc(text[position : run.start]))
        chunk = esc(text[run.start : end])
        parts.append(f'<span class="{classes}">{chunk}</span>' if classes else chunk)
        position = end
    parts.append(esc(text[position:]))
    return "".join(parts)


def window_block(
    window: Window,
    extra_class: str = "",
    *,
    end: bool = False,
    truncated: Truncation | None = None,
) -> str:
    """A shown window with a disclosure before and/or after it for what was cut.

    ``end=True`` (a tail: a log's last lines) opens the block scrolled to its
    bottom, by CSS alone (a reversed flex column), so the verdict is in view;
    the tool's own truncation (``truncated``) is then said with the cut above,
    else with the cut below — one disclosure, not two.
    """
    block = pre_block(window.text, extra_class, window.styles)
    if end:
        # it scrolls inside its card: focusable, so a keyboard can scroll it (axe's
        # scrollable-region-focusable), and named, so a screen reader says what it is
        block = (
            '<div class="tv-scroll-end" tabindex="0" role="region" aria-label="output, '
            f'scrolled to its end">{block}</div>'
        )
    above = cut_html(window.before, "above", truncated if end else None)
    below = cut_html(window.after, "below", None if end else truncated)
    return above + block + below
