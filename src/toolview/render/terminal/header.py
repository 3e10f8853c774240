"""The call header: icon, label and colour read from the one status table."""

from __future__ import annotations

from toolview.render.terminal.fit import FitText
from toolview.render.terminal.jsontext import highlight_json
from toolview.render.view import Header
from toolview.render.words import duration_text

__all__ = ["header_text"]


def header_text(header: Header) -> FitText:
    """``✓ Success  bash · shell · 12 ms`` then, dimmed, the arguments.

    Drawn through ``Hanging``, which indents every line after the first (the
    arguments' line included) so that only the header starts at column 0.
    """
    display = header.display
    text = FitText()
    text.append(f"{display.icon} {display.label}", style=f"bold {display.colour}")
    text.append("  ")
    text.append(header.tool_name, style="bold")
    details = [part for part in (header.kind,) if part]
    if header.duration_ms is not None:
        details.append(duration_text(header.duration_ms))
    if details:
        text.append(" · " + " · ".join(details), style="dim")
    if header.args:
        text.append("\nargs: ", style="dim")
        text.append(highlight_json(FitText(header.args, style="dim")))
    return text
