"""How one secret pattern is run once the prefilter knows where its literals are.

``anchored`` is ``regex.finditer`` restricted to the positions where a match
can begin: the regex is tried at each start in order, a start inside the last
match skipped, so it finds the same matches in the same order -- and reads the
text only from those positions on. ``whole`` is the plain ``finditer``, for a
pattern no literal tells.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolview.safety.patterns import SecretPattern, Span

__all__ = ["Route", "anchored", "occurrences", "positions", "whole"]


@dataclass(frozen=True, slots=True)
class Route:
    """How one pattern is run: its rank, starts and gates (literal ids)."""

    rank: int
    pattern: SecretPattern
    starts: tuple[int, ...]  # where a match may begin; for a scanner, its trigger
    gates: tuple[int, ...]  # one of the pattern's own literals must occur
    shorts: tuple[str, ...] = ()  # starts too short to scan for: a whole run needs one
    direct: bool = False  # run as SecretPattern.spans does, its own literal checks included
    late: tuple[str, ...] = ()  # starts looked for only once a gate occurs


def positions(starts: tuple[int, ...], found: dict[int, list[int]]) -> list[int]:
    """Where any of ``starts`` (literal ids) occurs, ascending, each once."""
    lists = [found[start] for start in starts if start in found]
    if len(lists) == 1:
        return lists[0]
    return sorted({position for found_at in lists for position in found_at})


def occurrences(hay: str, literals: tuple[str, ...]) -> list[int]:
    """Where any of ``literals`` occurs in ``hay``, ascending, each once."""
    found: set[int] = set()
    for literal in literals:
        position = hay.find(literal)
        while position >= 0:
            found.add(position)
            position = hay.find(literal, position + 1)
    return sorted(found)


def anchored(pattern: SecretPattern, hay: str, starts_at: list[int]) -> list[Span]:
    """``finditer`` from the starts only: the same matches, the same order."""
    found: list[Span] = []
    match_at = pattern.regex.match
    locate = pattern.locate
    resume = 0
    for position in starts_at:
        if position < resume:
            continue  # inside the last match: finditer would not start there
        match = match_at(hay, position)
        if match is None:
            continue
        resume = match.end()
        span = locate(hay, match, pattern.name)
        if span is not None:
            found.append(span)
    return found


def whole(pattern: SecretPattern, hay: str) -> list[Span]:
    """Every span of ``pattern``'s matches anywhere in ``hay``."""
    found: list[Span] = []
    for match in pattern.regex.finditer(hay):
        span = pattern.locate(hay, match, pattern.name)
        if span is not None:
            found.append(span)
    return found
