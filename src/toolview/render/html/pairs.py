"""A tool's text colour over a background it chose, kept readable in both schemes.

``legible`` keeps each text colour readable on the page's own backgrounds. A
tool may also paint the background (``tv-g<n>``), or swap the two (inverse
video, SGR 7): then its text sits on *its* colour, and the pair may not read —
red on red, white text inverse (the page's background as text, on white),
near-white on white in the dark scheme, where the text was lightened and the
background stays exact. Each pair is checked in the light and in the dark
scheme with the colours the browser will draw; a pair under the minimum
contrast in either is drawn with ``tv-k<bg>`` instead of its text colour: the
end (black or white) that reads best on that background, per scheme. A pair
that reads is drawn exact (``tv-e<fg>``), as the tool paired it.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from toolview.render.html.legible import MINIMUM_CONTRAST, contrast, cube_and_greys, on_ground
from toolview.render.html.theme import ANSI, THEME

__all__ = ["PAIR_CSS", "clashes", "ground_value", "text_values"]

_EXACT: Final = cube_and_greys()
_SCHEMES: Final = (0, 1)  # light, dark


def text_values(fg: str | None, scheme: int) -> list[str]:
    """The colours text ``fg`` over a tool's background may be drawn in, in ``scheme``.

    A tool's own colour is drawn as it is there (``tv-e<n>``): ``legible``
    adjusts it for the page's grounds, which it is not on (white text on the
    tool's black stays white in the light scheme).
    ``None`` (no colour of the tool's) is the text it inherits: the output's
    own, or stderr's; ``x`` (inverse of the default) is the code background.
    """
    if fg is None:
        return [THEME["fg"][scheme], THEME["stderr-fg"][scheme]]
    if fg == "x":
        return [THEME["code-bg"][scheme]]
    return [ground_value(fg, scheme)]  # drawn exact (``tv-e<n>``): it is on the tool's ground


def ground_value(bg: str, scheme: int) -> str:
    """The colour a ``tv-g<bg>`` background is drawn in, in ``scheme`` (``x``: the text's)."""
    if bg == "x":
        return THEME["fg"][scheme]
    index = int(bg)
    return ANSI[scheme][index] if index < 16 else _EXACT[index - 16]


@cache
def clashes(fg: str | None, bg: str) -> bool:
    """Whether text ``fg`` on background ``bg`` is under the minimum contrast in a scheme."""
    return any(
        contrast(text, ground_value(bg, scheme)) < MINIMUM_CONTRAST
        for scheme in _SCHEMES
        for text in text_values(fg, scheme)
    )


def _css() -> str:
    """``.tv-k<n>``: the best text on each background (the basic 16 and ``x`` per scheme);
    ``.tv-e<n>``: a tool's text colour exact, over a background of its own."""
    rules = [f".tv-k{i}{{color:var(--tv-on-{i})}}" for i in range(16)]
    rules += [f".tv-k{i}{{color:{on_ground(c)}}}" for i, c in enumerate(_EXACT, start=16)]
    rules.append(".tv-kx{color:var(--tv-on-x)}")
    rules += [f".tv-e{i}{{color:var(--tv-ansi-{i})}}" for i in range(16)]
    rules += [f".tv-e{i}{{color:{c}}}" for i, c in enumerate(_EXACT, start=16)]
    return "".join(rules) + "\n" + _colours_for_script()


def _colours_for_script() -> str:
    """The colours ``clashes`` reads, both schemes' in either (``--tv-pair-<0|1>-<name>``):
    the live page's script decides its pairs as this module does (live.js, ``clashes``)."""
    values = []
    for scheme in _SCHEMES:
        named = {name: THEME[name][scheme] for name in ("fg", "stderr-fg", "code-bg")}
        named.update({f"ansi-{i}": colour for i, colour in enumerate(ANSI[scheme])})
        values += [f"--tv-pair-{scheme}-{name}:{colour};" for name, colour in named.items()]
    return ":root{" + "".join(values) + "}\n"


PAIR_CSS: Final = _css()
