"""A tool's exact colours kept legible: a minimum contrast, as terminals enforce one.

Colours 16-255 of the 256 (xterm's cube and grey ramp, and every 24-bit colour,
drawn as the nearest of them) are the tool's choice, not the theme's, and most
of them are unreadable on one scheme or the other: pure red on the light error
background is 4.0:1, navy on the dark page 1.3:1. VS Code's terminal answers
this with a minimum contrast ratio of 4.5 by default; so does the html surface:
each such colour, used as text, is darkened (light scheme) or lightened (dark
scheme) just enough to reach WCAG AA (4.5:1) on every background of that
scheme, its hue kept (the theme's basic 16 too, where one sits too close to a
ground). As a background (``tv-g<n>``) a colour stays exact; the text the tool
paints on it is checked as a pair (``pairs``), and drawn in ``on_ground``'s
colour when the pair does not read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["MINIMUM_CONTRAST", "contrast", "cube_and_greys", "legible", "on_ground"]

MINIMUM_CONTRAST: Final = 4.6  # WCAG AA's 4.5, with room for rounding in the browser
_LEVELS: Final = (0, 95, 135, 175, 215, 255)


def cube_and_greys() -> list[str]:
    """Colours 16-255 of the 256, as ``#rrggbb``: xterm's 6x6x6 cube, then its 24 greys."""
    cube = [
        f"#{_LEVELS[r]:02x}{_LEVELS[g]:02x}{_LEVELS[b]:02x}"
        for r in range(6)
        for g in range(6)
        for b in range(6)
    ]
    return cube + [f"#{8 + 10 * i:02x}{8 + 10 * i:02x}{8 + 10 * i:02x}" for i in range(24)]


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    a, b = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _mix(colour: str, toward: int, share: float) -> str:
    channels = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (toward - c) * share):02x}" for c in channels)


def legible(colour: str, grounds: Sequence[str], *, dark: bool) -> str:
    """``colour`` (``#rrggbb``) as text on ``grounds`` (a scheme's backgrounds): itself
    when it reads at ``MINIMUM_CONTRAST`` on each, else mixed toward black (a light
    scheme) or white (``dark``) in 5 % steps until it does."""
    toward = 255 if dark else 0
    for step in range(21):
        mixed = _mix(colour, toward, step / 20)
        if all(contrast(mixed, ground) >= MINIMUM_CONTRAST for ground in grounds):
            return mixed
    return _mix(colour, toward, 1.0)


def on_ground(ground: str) -> str:
    """The text colour that reads best on ``ground`` (black or white, the two ends).

    For a pair a tool chose that does not read (``pairs``): no colour does
    better on any ground, and the worst ground still gets 4.58:1, above AA.
    """
    return max(("#000000", "#ffffff"), key=lambda text: contrast(text, ground))
