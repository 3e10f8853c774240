"""Bounds, slicing before layout, and the one wording for what was left out.

Rendering costs what is *shown*, not what was produced: every surface cuts a
text to its shown window here, in time proportional to the window (the line
ends are found by scanning from the window's edge, never by splitting the
whole text), before it builds anything. Truncation a tool reported in its
descriptor and truncation a surface applies itself read the same way:
"… 4,000 more lines".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from toolview.contract import Truncation
from toolview.render.gap_marker import output_lines
from toolview.safety.sgr import Run

__all__ = [
    "DEFAULT_LIMITS",
    "EXACT_COUNT_CHARS",
    "LIVE_SUB_ENTRIES",
    "WINDOWED_LIMITS",
    "Limits",
    "Omission",
    "OmissionUnit",
    "Window",
    "clip",
    "counted",
    "head",
    "omission_text",
    "tail",
    "truncation_omission",
]

# A surface may also leave out characters of an over-long line, and rows or
# columns of a table; the contract's three units stay the ones a tool can report.
OmissionUnit: TypeAlias = Literal["lines", "bytes", "items", "chars", "rows", "columns"]
_SINGULAR: Final = {
    "lines": "line",
    "bytes": "byte",
    "items": "item",
    "chars": "character",
    "rows": "row",
    "columns": "column",
}
_PLURAL: Final = {unit: f"{noun}s" for unit, noun in _SINGULAR.items()}

# Counting the lines of what is left out costs a scan of it; past this size the
# surface words the omission in characters instead, so the cost stays bounded.
EXACT_COUNT_CHARS: Final = 1 << 20


@dataclass(frozen=True)
class Limits:
    """How much one call may lay out on a surface."""

    max_lines: int = 100
    max_chars: int = 64_000
    max_rows: int = 50
    max_columns: int = 20
    max_cell_chars: int = 200
    max_json_depth: int = 6
    max_json_items: int = 50
    max_links: int = 20
    max_args_chars: int = 300
    depth: int = 2
    """Levels of sub-agents drawn under their calls; below that, one line counts their calls."""
    max_sub_entries: int | None = None
    """Entries of one sub-agent's thread drawn under its call, the rest counted; ``None``:
    every one. An export (a page, a Markdown or text file) has nothing behind it to fetch
    the rest from, so it draws them all unless the user asks for a cut; only the live
    page, which has its server, windows them (``WINDOWED_LIMITS``)."""
    open_calls: int = 50
    """A thread of at most this many calls shows its successful calls open; a longer one
    shows them collapsed (failed, running, refused and cancelled calls are open either way)."""


DEFAULT_LIMITS: Final = Limits()
LIVE_SUB_ENTRIES: Final = 50
WINDOWED_LIMITS: Final = Limits(max_sub_entries=LIVE_SUB_ENTRIES)
"""The live page's: a sub-agent's first entries under its call, the rest counted."""


@dataclass(frozen=True)
class Omission:
    """``count`` units left out; ``str()`` gives the shared wording."""

    count: int
    unit: OmissionUnit

    def __str__(self) -> str:
        return omission_text(self.count, self.unit)


@dataclass(frozen=True)
class Window:
    """The shown part of a text and what was left out before and after it.

    ``styles``: the colours command output carried (``safety.sgr``), as runs
    over ``text``; a surface with colour draws them, the others ignore them.
    """

    text: str
    before: Omission | None = None
    after: Omission | None = None
    styles: tuple[Run, ...] = ()


def counted(count: int, unit: OmissionUnit) -> str:
    """``4,000 lines``, ``1 line`` — thousands separators, singular for one."""
    return f"{count:,} {_noun(count, unit)}"


def omission_text(count: int, unit: OmissionUnit) -> str:
    """``… 4,000 more lines`` — thousands separators, singular for one."""
    return f"… {count:,} more {_noun(count, unit)}"


def _noun(count: int, unit: OmissionUnit) -> str:
    return _SINGULAR[unit] if count == 1 else _PLURAL[unit]


def truncation_omission(truncated: Truncation | None) -> Omission | None:
    """What a tool's own truncation left out, or ``None`` if nothing."""
    if truncated is None or truncated.total <= truncated.shown:
        return None
    return Omission(truncated.total - truncated.shown, truncated.unit)


def head(text: str, max_lines: int, max_chars: int) -> Window:
    """The first ``max_lines`` lines within ``max_chars``, found in O(window)."""
    end = min(len(text), max_chars)
    pos = -1
    for _ in range(max_lines):
        pos = text.find("\n", pos + 1, end)
        if pos < 0:
            break
    cut = end if pos < 0 else pos
    if cut >= len(text) or (cut == len(text) - 1 and text.endswith("\n")):
        return Window(text)
    if pos < 0 and end < len(text):
        return Window(text[:end], after=Omission(len(text) - end, "chars"))
    return Window(text[:cut], after=_left_out(text, cut + 1, len(text)))


def tail(text: str, max_lines: int, max_chars: int) -> Window:
    """The last ``max_lines`` lines within ``max_chars``, found in O(window)."""
    stop = len(text) - 1 if text.endswith("\n") else len(text)
    start_limit = max(0, stop - max_chars)
    pos = stop
    for _ in range(max_lines):
        pos = text.rfind("\n", start_limit, pos)
        if pos < 0:
            break
    if pos < 0:
        if start_limit == 0:
            return Window(text)
        return Window(text[start_limit:], before=Omission(start_limit, "chars"))
    return Window(text[pos + 1 :], before=_left_out(text, 0, pos))


def clip(text: str, max_chars: int) -> tuple[str, Omission | None]:
    """A single value cut to ``max_chars`` characters, and what was cut."""
    if len(text) <= max_chars:
        return text, None
    return text[:max_chars], Omission(len(text) - max_chars, "chars")


def _left_out(text: str, start: int, end: int) -> Omission | None:
    """Lines in ``text[start:end]``, or characters when counting would cost too much."""
    if end <= start:
        return None
    if end - start > EXACT_COUNT_CHARS:
        return Omission(end - start, "chars")
    lines = text.count("\n", start, end)
    if end < len(text) or not text.endswith("\n"):
        lines += 1
    return Omission(output_lines(text, start, end, lines), "lines")  # a gap marker is no output
