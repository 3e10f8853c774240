"""Session ids as a person types them: the shortest form that names one session.

Why: a session's id is a UUID, and a Codex id is a UUIDv7, whose first
characters are the time it started — sessions begun within a minute share
their first eight, so a listing of first eights named several sessions at
once. ``sessions`` prints for each session the shortest form that no other
session shares, never under ``MIN_CHARS``: its first characters, or its last
ones when they are shorter (a UUIDv7's tail is random). ``show`` takes an id
by the one rule here (``by_id``): the exact id, else the ids that start with
what it is given, else — from ``MIN_CHARS`` characters — the ids that end
with it. A form is printed only if that rule gives its session back alone, so
what ``sessions`` prints, ``show`` takes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from toolview.cli.inputs import InputError
from toolview.cli.session_find import Found, everywhere
from toolview.cli.session_hosts import SessionHost

__all__ = ["MIN_CHARS", "by_id", "named", "short_ids"]

MIN_CHARS: Final = 8
_LISTED: Final = 10


def by_id(word: str, sessions: Sequence[Found]) -> list[Found]:
    """The sessions ``word`` names: its exact id, else the ids it begins, else (from
    ``MIN_CHARS`` characters) the ids it ends."""
    exact = [found for found in sessions if found.id == word]
    if exact:
        return exact
    heads = [found for found in sessions if found.id.startswith(word)]
    if heads or len(word) < MIN_CHARS:
        return heads
    return [found for found in sessions if found.id.endswith(word)]


def named(word: str, places: list[tuple[SessionHost, Path]]) -> Found:
    """The one session ``word`` names under ``places``; ``InputError`` if none, or several, do."""
    found = by_id(word, everywhere(places))
    if len(found) > 1:
        listed = "; ".join(f"{match.id} ({match.path})" for match in found[:_LISTED])
        more = f" and {len(found) - _LISTED} more" if len(found) > _LISTED else ""
        raise InputError(f"{word!r} is ambiguous: {len(found)} sessions match: {listed}{more}")
    if not found:
        where = ", ".join(str(root) for _, root in places) or "no session host installed"
        raise InputError(f"cannot read {word}: no such file, nor a session id in {where}")
    return found[0]


def short_ids(ids: Sequence[str]) -> dict[str, str]:
    """Each id's shortest form that ``by_id`` gives back alone among ``ids``.

    An id held by two files names neither alone: it is printed whole (``show``
    then lists both). Sorted lists make it O(n log n): an id's shortest unique
    beginning is one past what it shares with its neighbours in order, and its
    ending likewise among the ids read backwards.
    """
    twice = {key for key, count in Counter(ids).items() if count > 1}
    heads = sorted(set(ids))
    tails = sorted(key[::-1] for key in heads)
    return {key: key if key in twice else _shortest(key, heads, tails) for key in heads}


def _shortest(key: str, heads: list[str], tails: list[str]) -> str:
    head = key[: _unique(key, heads)]
    tail = _tail(key, heads, tails)
    return tail if tail is not None and len(tail) < len(head) else head


def _tail(key: str, heads: list[str], tails: list[str]) -> str | None:
    """The shortest ending of ``key`` no other id ends with and no id begins with (that
    beginning would be taken first), if it is shorter than the whole id."""
    for size in range(_unique(key[::-1], tails), len(key)):
        tail = key[-size:]
        at = bisect_left(heads, tail)
        if at == len(heads) or not heads[at].startswith(tail):
            return tail
    return None


def _unique(key: str, ordered: list[str]) -> int:
    """How many first characters of ``key`` no other of ``ordered`` (sorted) begins with;
    the whole key if another begins with all of it (the exact id still names it)."""
    at = bisect_left(ordered, key)
    shared = max(
        (_common(key, ordered[near]) for near in (at - 1, at + 1) if 0 <= near < len(ordered)),
        default=0,
    )
    return min(len(key), max(MIN_CHARS, shared + 1))


def _common(one: str, other: str) -> int:
    size = 0
    for left, right in zip(one, other, strict=False):
        if left != right:
            break
        size += 1
    return size
