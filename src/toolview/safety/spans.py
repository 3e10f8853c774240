"""Secret spans merged, and a text rebuilt with a mark in place of each.

The last step of every redaction (``safety.secrets``): the spans of all
patterns, found in the text as written and as a reader sees it, are united
(the earliest pattern names a merged span) and the text is rebuilt once.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.safety.noted import note
from toolview.safety.patterns import mark

__all__ = ["merge_spans", "rebuild"]

_SGR: Final = re.compile(r"\x1b\[[0-9;:]*m")


def merge_spans(spans: list[tuple[int, int, int, str]]) -> list[tuple[int, int, str]]:
    """Union overlapping ranked spans; the earliest pattern's name wins."""
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    best = -1
    for start, end, rank, name in spans:
        if merged and start < merged[-1][1]:
            last_start, last_end, last_name = merged[-1]
            if rank < best:
                last_name, best = name, rank
            merged[-1] = (last_start, max(last_end, end), last_name)
        else:
            merged.append((start, end, name))
            best = rank
    return merged


def rebuild(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each of the merged ``spans`` replaced by its mark, and
    the colour codes the span held after it (:func:`kept_styles`); each mark is noted
    (``safety.noted``: a share's review of what it hid)."""
    parts: list[str] = []
    position = 0
    for start, end, name in spans:
        note(name)
        parts.append(text[position:start])
        parts.append(mark(name) + kept_styles(text, start, end))
        position = end
    parts.append(text[position:])
    return "".join(parts)


def kept_styles(text: str, start: int, end: int) -> str:
    """The SGR codes within ``text[start:end]`` (none in text with no ``ESC``).

    Why: ``grep`` resets its highlight inside the token it coloured; a mark
    that swallowed the reset would leave the rest of the output red. An SGR
    holds digits, ``;`` and ``:`` only, never a character of the secret.
    """
    if text.find("\x1b", start, end) < 0:
        return ""
    return "".join(_SGR.findall(text, start, end))
