"""A call's header in Markdown: a heading with icon, tool name and label, then details.

The icon and label come from the one status table; the tool name is escaped
inline, the kind and the arguments are code spans.
"""

from __future__ import annotations

from toolview.render.bodies import Header
from toolview.render.markdown.escape import code_span, inline
from toolview.render.words import duration_text

__all__ = ["header_md"]


def header_md(header: Header) -> list[str]:
    """``### ✓ bash — Success`` then kind, duration and arguments."""
    title = f"### {header.display.icon} {inline(header.tool_name)} — {header.display.label}"
    details = [code_span(header.kind)] if header.kind else []
    if header.duration_ms is not None:
        details.append(duration_text(header.duration_ms))
    if header.args:
        details.append(f"args: {code_span(header.args)}")
    return [title, " · ".join(details)] if details else [title]
