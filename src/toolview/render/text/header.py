"""A call's header as plain text: icon, tool name and label from the one status table."""

from __future__ import annotations

from toolview.render.bodies import Header
from toolview.render.text.lines import INDENT
from toolview.render.words import duration_text

__all__ = ["header_lines"]


def header_lines(header: Header) -> list[str]:
    """``✓ bash — Success · shell · 12 ms`` then the arguments, if any."""
    parts = [f"{header.display.icon} {header.tool_name} — {header.display.label}"]
    if header.kind:
        parts.append(header.kind)
    if header.duration_ms is not None:
        parts.append(duration_text(header.duration_ms))
    lines = [" · ".join(parts)]
    if header.args:
        lines.append(f"{INDENT}args: {header.args}")
    return lines
