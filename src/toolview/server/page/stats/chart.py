"""A bar chart drawn as SVG on the server, and the table of its numbers beside it.

Why SVG from here and no chart library: the page's CSP allows no inline
script or style and no other origin, and a chart of a few dozen bars needs
neither. Bars and words are drawn in ``currentColor`` (presentation
attributes, which the CSP allows), so the chart follows the page's text
colour in the light and the dark scheme alike. The chart is one image to a
screen reader (``role="img"``, its ``<title>``); its numbers are the table
that follows it, every row, read like any table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from toolview.safety import escape_html

__all__ = ["bar_chart", "number_table"]

_WIDTH: Final = 480  # drawn at most 40rem wide (page.css): ~1.3× on a desktop, ~0.8× at 390 px
_LABEL: Final = 130
_VALUE: Final = 100
_ROW: Final = 24
_LABEL_CHARS: Final = 16


def bar_chart(chart_id: str, title: str, bars: Sequence[tuple[str, float, str]]) -> str:
    """Horizontal bars, one per ``(label, value, value_text)``, scaled to the largest."""
    top = max((value for _, value, _ in bars), default=0.0) or 1.0
    span = _WIDTH - _LABEL - _VALUE
    rows = []
    for n, (label, value, text) in enumerate(bars):
        y = n * _ROW
        width = max(0.0, value) / top * span
        shown = escape_html(
            label if len(label) <= _LABEL_CHARS else label[: _LABEL_CHARS - 1] + "…"
        )
        rows.append(
            f'<text x="0" y="{y + 16}" fill="currentColor" font-size="15">{shown}</text>'
            f'<rect x="{_LABEL}" y="{y + 4}" width="{width:.1f}" height="{_ROW - 8}" '
            f'fill="currentColor" fill-opacity="0.55"></rect>'
            f'<text x="{_LABEL + width + 6:.1f}" y="{y + 16}" fill="currentColor" '
            f'font-size="15">{escape_html(text)}</text>'
        )
    height = max(_ROW, len(bars) * _ROW)
    safe_id = escape_html(chart_id)
    return (
        f'<svg class="tv-chart" role="img" aria-labelledby="{safe_id}" width="100%" '
        f'viewBox="0 0 {_WIDTH} {height}" preserveAspectRatio="xMinYMin meet">'
        f'<title id="{safe_id}">{escape_html(title)}</title>{"".join(rows)}</svg>'
    )


def number_table(caption: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of the chart's numbers (every cell text, escaped here), in a box that
    scrolls sideways on a narrow screen rather than the page."""
    cells = "".join(f'<th scope="col">{escape_html(h)}</th>' for h in head)
    body = "".join(
        "<tr>"
        + f'<th scope="row">{escape_html(row[0])}</th>'
        + "".join(f'<td class="tv-num">{escape_html(cell)}</td>' for cell in row[1:])
        + "</tr>"
        for row in rows
    )
    safe = escape_html(caption)
    return (  # a region that scrolls is focusable, so a keyboard can scroll it
        f'<div class="tv-stats-wrap" role="region" aria-label="{safe}" tabindex="0">'
        f'<table class="tv-index tv-stats"><caption>{safe}</caption>'
        f"<thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table></div>"
    )
