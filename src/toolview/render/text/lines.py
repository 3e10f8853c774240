"""Plain lines: a window of output, and what was left out, written as they are.

Plain text escapes nothing: every string arrives cleaned by the core (secrets
redacted, controls made visible), so this surface only says where output was
cut, in the words every surface uses, and how far a call's lines are indented.
"""

from __future__ import annotations

from typing import Final

from toolview.contract import Truncation
from toolview.render.limits import Omission, Window, truncation_omission
from toolview.render.words import omission_line

__all__ = ["INDENT", "cut_lines", "truncation_lines", "window_lines"]

INDENT: Final = "  "
"""What each line of a call starts with under its header (the header alone at column 0)."""


def window_lines(
    window: Window, tool: Omission | None = None, *, tool_before: bool = False
) -> list[str]:
    """A cleaned window as lines, with the omission wording where text was cut.

    ``tool`` is what the tool's own truncation left out: it is said in the same
    line as this surface's cut on that side (before for a tail, after for a
    head), so the reader sees one honest count, not two stacked lines.
    """
    text = window.text[:-1] if window.text.endswith("\n") else window.text
    before = omission_line(window.before, tool if tool_before else None)
    after = omission_line(window.after, None if tool_before else tool)
    return [*([before] if before else []), *text.split("\n"), *([after] if after else [])]


def cut_lines(shown: Omission | None, tool: Omission | None) -> list[str]:
    """The one line for what this surface and the tool left out, or nothing."""
    line = omission_line(shown, tool)
    return [line] if line else []


def truncation_lines(truncated: Truncation | None) -> list[str]:
    """The descriptor's truncation as a line (``… 4,000 more lines``), or nothing."""
    omission = truncation_omission(truncated)
    return [str(omission)] if omission else []
