"""SGR (``ESC[…m``) colours and attributes as data: what toolview keeps of a terminal's styling.

Command output carries colour (``ls --color``, pytest, cargo) as SGR
sequences. A surface must never pass a tool's escape sequence through, but it
may redraw the *style* with its own means (Rich styles, CSS classes). So the
parser reads an SGR into a ``Style`` -- a closed set of fields, nothing else
survives -- and every surface re-emits only those: 16 and 256-colour palette
indexes, 24-bit colour, bold, dim, italic, underline, inverse. Everything an
SGR can say beyond that (blink, conceal, fonts, strike) is ignored.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple, TypeAlias

__all__ = [
    "PLAIN",
    "Colour",
    "Run",
    "Style",
    "Styled",
    "apply_sgr",
    "nearest_256",
    "palette_index",
    "wire_params",
]

Colour: TypeAlias = int | tuple[int, int, int]
"""A palette index 0-255, or a 24-bit ``(r, g, b)``."""


class Style(NamedTuple):
    """The styling toolview keeps of a character; ``PLAIN`` is the terminal's default."""

    fg: Colour | None = None
    bg: Colour | None = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    inverse: bool = False


PLAIN: Final = Style()


class Run(NamedTuple):
    """``text[start:end]`` is drawn in ``style`` (never ``PLAIN``)."""

    start: int
    end: int
    style: Style


class Styled(NamedTuple):
    """Cleaned text and its styled runs: sorted, disjoint, within the text."""

    text: str
    runs: tuple[Run, ...] = ()


_ATTRIBUTES: Final = {
    1: {"bold": True},
    2: {"dim": True},
    3: {"italic": True},
    4: {"underline": True},
    7: {"inverse": True},
    21: {"underline": True},
    22: {"bold": False, "dim": False},
    23: {"italic": False},
    24: {"underline": False},
    27: {"inverse": False},
    39: {"fg": None},
    49: {"bg": None},
}


def _number(field: str) -> int:
    return int(field) if field.isdigit() and len(field) <= 3 else -1


def _extended(fields: list[str], index: int) -> tuple[Colour | None, int]:
    """A ``5;n`` or ``2;r;g;b`` colour after a 38/48; the next index to read."""
    mode = _number(fields[index]) if index < len(fields) else -1
    if mode == 5 and index + 1 < len(fields):
        value = _number(fields[index + 1])
        return (value if 0 <= value <= 255 else None), index + 2
    if mode == 2 and index + 3 < len(fields):
        rgb = tuple(_number(field) for field in fields[index + 1 : index + 4])
        ok = all(0 <= part <= 255 for part in rgb)
        return ((rgb[0], rgb[1], rgb[2]) if ok else None), index + 4
    return None, len(fields)  # malformed: the rest of the sequence is not trusted


@lru_cache(maxsize=1024)
def apply_sgr(params: str, style: Style) -> Style:
    """``style`` after the SGR with parameter string ``params`` (``"1;31"``).

    Cached: output repeats the same few sequences, and a ``Style`` is a value.
    """
    fields = params.replace(":", ";").split(";")
    index = 0
    while index < len(fields):
        code = _number(fields[index]) if fields[index] else 0
        index += 1
        if code == 0:
            style = PLAIN
        elif code in _ATTRIBUTES:
            style = style._replace(**_ATTRIBUTES[code])  # type: ignore[arg-type]
        elif 30 <= code <= 37 or 90 <= code <= 97:
            style = style._replace(fg=code - 30 if code < 90 else code - 82)
        elif 40 <= code <= 47 or 100 <= code <= 107:
            style = style._replace(bg=code - 40 if code < 100 else code - 92)
        elif code in (38, 48):
            colour, index = _extended(fields, index)
            if colour is not None:
                style = style._replace(fg=colour) if code == 38 else style._replace(bg=colour)
    return style


_LEVELS: Final = (0, 95, 135, 175, 215, 255)  # the xterm 6x6x6 cube's channel values


def _level(value: int) -> int:
    return min(range(6), key=lambda index: abs(_LEVELS[index] - value))


def nearest_256(rgb: tuple[int, int, int]) -> int:
    """The xterm palette index (16-255: cube or grey ramp) nearest to a 24-bit colour.

    The first 16 are left out: their colours are the theme's, not fixed.
    """
    red, green, blue = (_level(part) for part in rgb)
    cube = 16 + 36 * red + 6 * green + blue
    cube_rgb = (_LEVELS[red], _LEVELS[green], _LEVELS[blue])
    grey = min(23, max(0, (sum(rgb) // 3 - 3) // 10))
    grey_value = 8 + 10 * grey
    cube_distance = sum((a - b) ** 2 for a, b in zip(rgb, cube_rgb, strict=True))
    grey_distance = sum((a - grey_value) ** 2 for a in rgb)
    return 232 + grey if grey_distance < cube_distance else cube


def palette_index(colour: Colour) -> int:
    """A colour as a palette index: 24-bit mapped to the nearest of the 256."""
    return colour if isinstance(colour, int) else nearest_256(colour)


def wire_params(style: Style) -> str:
    """A canonical SGR parameter string for ``style``, reset first: ``0;1;38;5;1``.

    Colours always as palette indexes (24-bit mapped to the nearest), so a
    reader of it (the live page's script) needs no colour arithmetic.
    """
    parts = ["0"]
    flags = (style.bold, style.dim, style.italic, style.underline, style.inverse)
    parts += [code for code, on in zip(("1", "2", "3", "4", "7"), flags, strict=True) if on]
    if style.fg is not None:
        parts.append(f"38;5;{palette_index(style.fg)}")
    if style.bg is not None:
        parts.append(f"48;5;{palette_index(style.bg)}")
    return ";".join(parts)
