"""Delta encoding of accumulated text: append, slide or reset.

A partial tool-result carries ALL output so far, so sending (or storing) each
one whole costs O(output × updates). Between two consecutive texts of one call
only three things happen in practice: the text grew (``append``), a producer's
tail window dropped its head and grew (``slide``, what pi does past 2,000
lines / 50 KB), or anything else (``reset``: the whole text). ``apply`` of
``diff(old, new)`` to ``old`` gives ``new`` exactly, always.
"""

from __future__ import annotations

from typing import Annotated, Final, TypeAlias

import msgspec

__all__ = ["Append", "Delta", "DeltaError", "Reset", "Slide", "apply", "diff", "size"]

_PROBE: Final = 64  # characters of the new head searched for inside the old text
_MAX_CANDIDATES: Final = 16  # bounds the work on repetitive text; past it, reset


class Append(msgspec.Struct, frozen=True, tag_field="op", tag="append"):
    """The new text is the old text followed by ``text``."""

    text: str


class Slide(msgspec.Struct, frozen=True, tag_field="op", tag="slide"):
    """Drop ``drop`` characters from the head of the old text, then append ``text``."""

    drop: Annotated[int, msgspec.Meta(ge=1)]
    text: str


class Reset(msgspec.Struct, frozen=True, tag_field="op", tag="reset"):
    """The new text is ``text``, whatever came before."""

    text: str


Delta: TypeAlias = Append | Slide | Reset


class DeltaError(ValueError):
    """A delta that cannot apply to the text it was given (a gap in the stream)."""


def diff(old: str | None, new: str) -> Delta:
    """The smallest of append / slide / reset that turns ``old`` into ``new``."""
    if old is None:
        return Reset(new)
    if new.startswith(old):
        return Append(new[len(old) :])
    drop = _slide_offset(old, new)
    if drop is None:
        return Reset(new)
    return Slide(drop, new[len(old) - drop :])


def apply(old: str | None, delta: Delta) -> str:
    """The text after ``delta``; raises ``DeltaError`` if it cannot follow ``old``."""
    if isinstance(delta, Reset):
        return delta.text
    if old is None:
        raise DeltaError(f"{type(delta).__name__.lower()} delta without a base text")
    if isinstance(delta, Append):
        return old + delta.text
    if delta.drop > len(old):
        raise DeltaError(f"slide drops {delta.drop} of {len(old)} characters")
    return old[delta.drop :] + delta.text


def size(delta: Delta) -> int:
    """Characters of text the delta carries: what it costs on the wire or in the log."""
    return len(delta.text)


def _slide_offset(old: str, new: str) -> int | None:
    """Smallest ``d ≥ 1`` with ``old[d:]`` a prefix of ``new`` (worth it), else ``None``.

    Searches for the head of ``new`` inside ``old``; each candidate is checked
    exactly, and the search gives up after a few, so the cost stays linear.
    """
    probe = new[:_PROBE]
    if not probe:
        return None
    start = 1
    for _ in range(_MAX_CANDIDATES):
        index = old.find(probe, start)
        if index < 0:
            return None
        overlap = len(old) - index
        if overlap >= len(probe) and new.startswith(old[index:]):
            return index
        start = index + 1
    return None
