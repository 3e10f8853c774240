"""Every colour of the html surface as a CSS custom property, light and dark.

The fragments' sheet (``style.FRAGMENT_CSS``), the standalone page and the
web server's ``page.css`` never name a colour: they say ``var(--tv-…)``, and
this table gives each name its light and its dark value. The dark values
apply when the reader's system prefers dark (``prefers-color-scheme``) unless
the page says otherwise: ``<html data-theme="light"|"dark">`` (the live
page's toggle) wins over the media query both ways. In a Jupyter notebook the
notebook's own theme (``data-jp-theme-light`` on its body) decides.

Each pair is chosen for WCAG AA (4.5:1) text contrast on the backgrounds it
is drawn over, in both schemes; tests/server/test_page_contrast.py checks the
colours Chromium actually applies. Only hex colours, never an alpha: what
the browser computes is what the test measures.
"""

from __future__ import annotations

from typing import Final

from toolview.render.html.legible import cube_and_greys, legible, on_ground
from toolview.render.html.tool_colours import TOOL_COLOURS

__all__ = [
    "ANSI",
    "STATUS",
    "THEME",
    "THEME_CSS",
    "TOOL_COLOURS",
    "theme_block",
    "tool_colours_rule",
]

# name -> (light, dark); the property is ``--tv-<name>``.
THEME: Final = {
    "bg": ("#f3f4f6", "#0d1117"),  # the page
    "fg": ("#1f2328", "#e6edf3"),  # text
    "card": ("#ffffff", "#161b22"),  # a call, a message
    "card-head": ("#fafbfc", "#1c2128"),  # a call's header
    "border": ("#d8dde3", "#30363d"),
    "border-soft": ("#e5e8eb", "#262c33"),
    "muted": ("#57606a", "#9198a1"),  # labels, meta, notes about the text
    "code-bg": ("#f6f8fa", "#0d1117"),  # output, code, JSON, live output
    "gutter": ("#5f6872", "#8b949e"),  # line numbers
    "user-bg": ("#eef4ff", "#121d2f"),
    "note-bg": ("#fff8e1", "#2b2111"),
    "note-border": ("#bf8700", "#bb8009"),
    "note-fg": ("#6b4e00", "#e3b341"),
    "stderr-bg": ("#fff5f5", "#2d1214"),
    "stderr-fg": ("#8b1a1a", "#ffa198"),
    "accent": ("#8250df", "#a371f7"),  # a sub-agent's rule
    "accent-fg": ("#6639ba", "#d2a8ff"),
    "notice-bg": ("#eef4ff", "#121d2f"),
    "notice-border": ("#1d4f91", "#58a6ff"),
    "receipt-border": ("#d9a8a8", "#6e3b3b"),
    "receipt-bg": ("#fffafa", "#1f1416"),
    "snippet": ("#3b434b", "#c9d1d9"),
    "link": ("#0969da", "#58a6ff"),
    "focus": ("#1a5fb4", "#58a6ff"),
    "statusline-bg": ("#eef3fb", "#121d2f"),
    "statusline-border": ("#c9d6ea", "#2d4a75"),
    "live-bg": ("#f6f8fa", "#0d1117"),  # the live output box: the pre it becomes
    "live-fg": ("#1f2328", "#e6edf3"),
    "mark-bg": ("#fff8c5", "#5a4512"),  # a search match (the live page's viewer)
    "mark-fg": ("#1f2328", "#e6edf3"),
    # highlighted code and JSON
    "code-string": ("#0a3069", "#a5d6ff"),
    "code-comment": ("#5f6872", "#8b949e"),
    "code-constant": ("#0550ae", "#79c0ff"),
    "code-name": ("#8250df", "#d2a8ff"),
    "json-key": ("#8250df", "#d2a8ff"),
    # diffs: line colours, line backgrounds, a changed word's background
    "diff-add-fg": ("#116329", "#7ee787"),
    "diff-del-fg": ("#a40e26", "#ffa198"),
    "diff-hunk": ("#1b6c73", "#56d4dd"),
    "diff-add-bg": ("#e6ffec", "#12261e"),
    "diff-del-bg": ("#ffebe9", "#2d1517"),
    "diff-add-word": ("#abf2bc", "#1f5b33"),
    "diff-del-word": ("#ffcecb", "#6b2328"),
}

# The contract's status colour names -> ((light fg, bg), (dark fg, bg)); ``--tv-status-<name>-fg``.
STATUS: Final = {
    "cyan": (("#0b6e79", "#e0f5f7"), ("#56d4dd", "#0b2f33")),
    "green": (("#1a6b2c", "#e3f4e6"), ("#7ee787", "#12301b")),
    "magenta": (("#8a2a86", "#f6e5f5"), ("#f0a8ec", "#3a1838")),
    "yellow": (("#7a5b00", "#fdf3d1"), ("#e3b341", "#33270a")),
    "red": (("#a4161a", "#fbe4e4"), ("#ffa198", "#3d1416")),
    "bright_black": (("#4a4f55", "#eceef0"), ("#b1bac4", "#2a2f36")),
    "blue": (("#1d4f91", "#e4ecf8"), ("#79c0ff", "#13284a")),
}

# A tool's 16 terminal colours (``--tv-ansi-<n>``), light then dark: each readable on the code
# background of its scheme (black is drawn grey on dark, as white is on light).
ANSI: Final = (
    (
        "#24292f", "#cf222e", "#116329", "#7d4e00", "#0550ae", "#8250df", "#1b7c83", "#5f6872",
        "#57606a", "#a40e26", "#1a7f37", "#895d00", "#0a62c9", "#7d4bd0", "#1a6f80", "#5f6872",
    ),
    (
        "#8b949e", "#ff7b72", "#3fb950", "#d29922", "#58a6ff", "#bc8cff", "#39c5cf", "#b1bac4",
        "#8b949e", "#ffa198", "#56d364", "#e3b341", "#79c0ff", "#d2a8ff", "#56d4dd", "#f0f6fc",
    ),
)  # fmt: skip


_NOT_TEXT_GROUNDS: Final = ("mark-bg",)  # a search match draws its own text colour


def _grounds(scheme: int) -> list[str]:
    """The backgrounds text may sit on in ``scheme``."""
    return [
        pair[scheme]
        for name, pair in THEME.items()
        if name.endswith("bg") and name not in _NOT_TEXT_GROUNDS
    ]


def tool_colours_rule() -> dict[int, tuple[str, str]]:
    """Palette index -> (light, dark) text colour, for the tool's colours that one scheme
    must adjust to stay legible (``legible``): its exact ones (16-255), and the basic 16
    where one sits too close to a background it may be drawn over (magenta, cyan on the
    light diff and user backgrounds). The rest are drawn as is. ``TOOL_COLOURS`` is this
    answer kept as a table (``tool_colours``): the rule runs in its test, not at import."""
    light, dark = _grounds(0), _grounds(1)
    pairs = {}
    basic = list(zip(*ANSI, strict=True))
    exact = [(colour, colour) for colour in cube_and_greys()]
    for index, (one, other) in enumerate(basic + exact):
        pair = (legible(one, light, dark=False), legible(other, dark, dark=True))
        if pair != (one, other):
            pairs[index] = pair
    return pairs


def _values(scheme: int) -> dict[str, str]:
    """Every property's value in ``scheme`` (0 light, 1 dark)."""
    values = {name: pair[scheme] for name, pair in THEME.items()}
    for name, pairs in STATUS.items():
        fg, bg = pairs[scheme]
        values[f"status-{name}-fg"], values[f"status-{name}-bg"] = fg, bg
    values.update({f"ansi-{i}": colour for i, colour in enumerate(ANSI[scheme])})
    values.update({f"tc-{i}": pair[scheme] for i, pair in TOOL_COLOURS.items()})
    # text drawn over a tool's basic background, or inverse over the text colour (``pairs``)
    values.update({f"on-{i}": on_ground(colour) for i, colour in enumerate(ANSI[scheme])})
    values["on-x"] = on_ground(values["fg"])
    return values


def theme_block(scheme: int) -> str:
    """The declarations of ``scheme`` (0 light, 1 dark), ``--tv-name:value;`` each."""
    return "".join(f"--tv-{name}:{value};" for name, value in _values(scheme).items())


_DARK_SELECTORS: Final = ':root[data-theme="dark"],[data-jp-theme-light="false"]'
_LIGHT_SELECTORS: Final = ':root[data-theme="light"],[data-jp-theme-light="true"]'

THEME_CSS: Final = (
    f":root{{{theme_block(0)}}}\n"
    f'@media (prefers-color-scheme: dark){{:root:not([data-theme="light"]){{{theme_block(1)}}}}}\n'
    f"{_DARK_SELECTORS}{{{theme_block(1)}}}\n"
    f"{_LIGHT_SELECTORS}{{{theme_block(0)}}}\n"
)
