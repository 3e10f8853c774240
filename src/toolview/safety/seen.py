"""The text a reader sees: escape sequences taken out, every position traceable back.

Why: redaction that scans the raw string misses a secret cut by colour codes.
``grep --color=always`` writes ``ghp_\\x1b[m\\x1b[K…``: no pattern matches
the raw text, yet a terminal, and every toolview surface (they remove escape
sequences), shows the token whole. So ``safety.secrets`` also scans the text
as it is seen, and maps what it finds back onto the original string.

What is taken out is exactly what ``safety.terminal`` removes: the sequences
of ``safety.sequences``. Not taken out, because every surface SHOWS them (so
they split what a reader sees too): a lone ``ESC`` or an unterminated
string's introducer (``␛]``), other C0/C1 controls (BEL, BS, NUL: control
pictures), invisible and bidi characters (``<U+200B>``). ``\\r`` and ``\\b``
overwrite only on a terminal; the call card applies them (``safety.ansi``)
before its own redaction.

Cost: text with no sequence (most text) costs ``has_sequence``'s ``memchr``
tests. Otherwise one ``re.sub`` and a scan of the seen text (plus, only if a
string sequence is there, a scan as written); and, only when the seen text
holds a secret, a walk of the lines it is on: linear.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate

from toolview.safety.prefilter import RankedSpan
from toolview.safety.sequences import (
    CODES,
    CODES_7BIT,
    STRINGS,
    TAKEN_OUT,
    TAKEN_OUT_7BIT,
    around_sequences,
    has_sequence,
    has_string,
)

__all__ = ["Seen", "reader_view", "written_and_seen"]


class Seen:
    """``original`` as a reader sees it (``text``); positions in it map back.

    No sequence holds a newline, so the seen text has the original's lines,
    each shortened: a position maps back through its line alone, and only
    the lines a secret is on are walked, each once (a walk over every
    sequence of the text costs more than scanning it twice).
    """

    __slots__ = ("_ascii", "_pattern", "_written", "original", "strings", "text")

    def __init__(self, original: str, text: str, ascii: bool) -> None:
        self.original, self.text, self._ascii = original, text, ascii
        self._pattern = TAKEN_OUT_7BIT if ascii else TAKEN_OUT
        self._written: str | None = None
        self.strings = (
            [m.span() for m in STRINGS.finditer(original)] if has_string(original) else []
        )
        """Where the string sequences are: their bodies are text no reader sees."""

    def written(self) -> str:
        """The original to scan for what string sequences carry: each code (CSI,
        two-byte escape) a blank of its length, so none reads as text
        (``\\x1b=`` an ``=``, ``\\x1b[mpassword`` a key ``mpassword``). Same
        positions as the original."""
        if self._written is None:
            self._written = (CODES_7BIT if self._ascii else CODES).sub(_blank, self.original)
        return self._written

    def union(self, written: list[RankedSpan], seen: list[RankedSpan]) -> list[RankedSpan]:
        """The spans of the seen text, and those of ``written()`` that reach into
        a string sequence (a secret in a link's target, a title: not seen, but
        in every byte the raw paths send), on the original.

        Only those: elsewhere a blank splits what a reader sees joined
        (``os.environ\\x1b[m['KEY']``), and the seen text decides.
        """
        original, strings = self.original, self.strings
        kept = [
            (*around_sequences(original, start, end), rank, name)
            for start, end, rank, name in written
            if _overlaps(strings, start, end) and not CODES.fullmatch(original, start, end)
        ]
        return kept + self.spans(seen)

    def spans(self, spans: list[RankedSpan]) -> list[RankedSpan]:
        """Ranked spans of the seen text, on the original: from the first hidden
        character to the last, so every sequence between them is inside."""
        spans = [span for span in spans if span[1] > span[0]]
        origin = self._origins(sorted({p for s, e, _, _ in spans for p in (s, e - 1)}))
        return [
            (origin[start], origin[end - 1] + 1, rank, name) for start, end, rank, name in spans
        ]

    def _origins(self, positions: list[int]) -> dict[int, int]:
        """Each of the ascending seen ``positions``: where that character is in the original."""
        if not positions:
            return {}
        seen_lines, lines = _line_starts(self.text), _line_starts(self.original)
        found: dict[int, int] = {}
        walk: _LineWalk | None = None
        for position in positions:
            line = bisect_right(seen_lines, position) - 1
            if walk is None or walk.line != line:
                matches = self._pattern.finditer(self.original, lines[line], lines[line + 1] - 1)
                walk = _LineWalk(line, matches, lines[line], seen_lines[line])
            found[position] = walk.origin(position)
        return found


class _LineWalk:
    """One line of the original, walked forward over its sequences."""

    def __init__(self, line: int, matches: Iterator[re.Match[str]], at: int, seen: int) -> None:
        self.line, self.matches = line, matches
        self.at, self.seen = at, seen  # a position in the original, and in the seen text
        self.next = next(matches, None)

    def origin(self, position: int) -> int:
        """The original position of seen ``position`` (never before the last one asked)."""
        while self.next is not None and self.seen + self.next.start() - self.at <= position:
            self.seen += self.next.start() - self.at
            self.at = self.next.end()
            self.next = next(self.matches, None)
        return self.at + position - self.seen


def _line_starts(text: str) -> list[int]:
    """Where each line starts, then one past the end plus one: split and summed in C."""
    return list(accumulate((len(line) + 1 for line in text.split("\n")), initial=0))


def reader_view(text: str) -> Seen | None:
    """``text`` with its escape sequences taken out; None if it has none (most text)."""
    if not has_sequence(text):
        return None
    ascii = text.isascii()
    seen = (TAKEN_OUT_7BIT if ascii else TAKEN_OUT).sub("", text)
    return Seen(text, seen, ascii) if len(seen) != len(text) else None


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Does ``[start, end)`` overlap one of the sorted, disjoint ``spans``? Only
    the last to start before ``end`` can."""
    index = bisect_left(spans, (end,)) - 1
    return index >= 0 and spans[index][1] > start


def _blank(codes: re.Match[str]) -> str:
    return " " * (codes.end() - codes.start())


def written_and_seen(text: str, spans_of: Callable[[str], list[RankedSpan]]) -> list[RankedSpan]:
    """``spans_of`` the text as written and as seen, all on the original (:meth:`Seen.union`)."""
    seen = reader_view(text)
    if seen is None:
        return spans_of(text)
    return seen.union(spans_of(seen.written()) if seen.strings else [], spans_of(seen.text))
