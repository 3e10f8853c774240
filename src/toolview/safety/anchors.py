"""The literal starts of a regex: every match begins with one of them.

Read from the regex itself (its parse tree), not written by hand beside it,
so a pattern edited later can never drift from the prefilter that skips it:
a literal, a small character class, an alternation or an optional item
expands into the strings a match must start with. Anything else (a repeat,
a category, a look-around) ends the start there. When no start can be read,
``None`` says so and the caller scans the whole text with the regex, as
before: the anchors may only narrow where a pattern runs, never hide a match.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolview.safety.patterns import SourceRegex

from toolview.safety.starts import KNOWN_STARTS

__all__ = ["literal_starts", "read_starts"]

_UNKNOWN: Any = object()

# The stdlib's own regex parser: what ``re`` compiles is what is read here.
_PARSER: Any = importlib.import_module("re._parser")
_MAX_STARTS = 64  # an alternation that expands further is anchored on less
_MAX_CLASS = 8  # a character class wider than this ends the start
_REPEATS = frozenset({_PARSER.MAX_REPEAT, _PARSER.MIN_REPEAT, _PARSER.POSSESSIVE_REPEAT})

_Heads = set[tuple[str, bool]]  # (start read so far, can it still grow)


def literal_starts(regex: SourceRegex) -> tuple[str, ...] | None:
    """The shortest set of strings every match of ``regex`` starts with, or ``None``.

    Read once ahead for the secret patterns (``safety.starts``, keyed by the
    regex's source and flags, so an edited pattern is never looked up under its
    old source: it is read here, as any other regex): parsing ~50 regexes cost
    every command that redacts ~15 ms of start-up.
    """
    known = KNOWN_STARTS.get((regex.pattern, regex.flags), _UNKNOWN)
    return read_starts(regex) if known is _UNKNOWN else known


def read_starts(regex: SourceRegex) -> tuple[str, ...] | None:
    """``literal_starts`` read from the regex's parse tree."""
    if regex.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    heads = _extend({("", True)}, _PARSER.parse(regex.pattern, regex.flags))
    starts = sorted({head for head, _ in heads})
    if not starts or "" in starts:
        return None
    # "sk-" covers "sk-ant-": a start that extends another is found with it.
    return tuple(s for s in starts if not any(s != o and s.startswith(o) for o in starts))


def _extend(heads: _Heads, items: Any) -> _Heads:
    """``heads`` grown by the items of a sequence, as far as they are literal."""
    for op, av in items:
        options = _options(op, av)
        if options is None:
            return {(head, False) for head, _ in heads}
        grown = {(head + s, more) for head, open_ in heads if open_ for s, more in options}
        grown |= {(head, False) for head, open_ in heads if not open_}
        if len(grown) > _MAX_STARTS:
            return {(head, False) for head, _ in heads}
        heads = grown
    return heads


def _options(op: Any, av: Any) -> _Heads | None:
    """The strings one item can start with (and whether each is the whole item)."""
    if op is _PARSER.LITERAL:
        return {(chr(av), True)}
    if op is _PARSER.IN:
        chars = _class_chars(av)
        return None if chars is None else {(c, True) for c in chars}
    if op is _PARSER.BRANCH:
        found: _Heads = set()
        for alternative in av[1]:
            found |= _extend({("", True)}, alternative)
        return found
    if op is _PARSER.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _extend({("", True)}, sub)
    if op in _REPEATS:
        low, high, sub = av
        once = _extend({("", True)}, sub)
        if low == 0 and high == 1:
            return {("", True)} | once
        if low >= 1:  # one repetition is certain, what follows it is not
            return {(head, False) for head, _ in once}
    return None


def _class_chars(items: Any) -> list[str] | None:
    """The characters of a small class of literals and ranges, else ``None``."""
    chars: list[str] = []
    for op, av in items:
        if op is _PARSER.LITERAL:
            chars.append(chr(av))
        elif op is _PARSER.RANGE and av[1] - av[0] < _MAX_CLASS:
            chars.extend(chr(c) for c in range(av[0], av[1] + 1))
        else:
            return None
    return chars if len(chars) <= _MAX_CLASS else None
