"""Which ASCII characters a regex's match can start with, when that is sure (else None).

``render.regexlex`` tries at a position only the rules that can match a text
starting with the character there. A rule is left out for a character only
when its parse proves the match consumes a first character from a known set:
the first item that consumes (after zero-width anchors such as ``\\b``) is one
character — a literal, a class, ``.`` — or a group, an alternation, an atomic
group or a repeat of at least one of such items. The set is found by asking
``re`` itself: that one item compiled alone (with the rule's flags, so case
folding is ``re``'s) is matched against each ASCII character. Anything else —
a rule that can match empty, a lookaround first, a group with its own flags —
is None: the rule is tried everywhere, as before.
"""

from __future__ import annotations

import re
from re import _compiler, _constants, _parser  # type: ignore[attr-defined]
from typing import Any, Final

__all__ = ["first_chars"]

_ONE_CHAR: Final = {_constants.LITERAL, _constants.NOT_LITERAL, _constants.IN, _constants.ANY}
_REPEATS: Final = {_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT}


def first_chars(source: str, flags: int) -> frozenset[int] | None:
    """The ASCII code points a match of ``source`` can start with, or None if unsure."""
    try:
        parsed = _parser.parse(source, flags)
        return _first(parsed.data, parsed.state, parsed.state.flags)
    except (re.error, RecursionError, TypeError, ValueError):
        return None


def _first(items: list[tuple[Any, Any]], state: Any, flags: int) -> frozenset[int] | None:
    for op, av in items:
        if op is _constants.AT:
            continue  # zero-width: the first character comes from what follows
        if op in _ONE_CHAR:
            return _matching(op, av, state, flags)
        if op is _constants.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            return None if add_flags or del_flags else _first(sub.data, state, flags)
        if op is _constants.ATOMIC_GROUP:
            return _first(av.data, state, flags)
        if op in _REPEATS:
            low, _high, sub = av
            return _first(sub.data, state, flags) if low >= 1 else None
        if op is _constants.BRANCH:
            found: set[int] = set()
            for branch in av[1]:
                chars = _first(branch.data, state, flags)
                if chars is None:
                    return None
                found |= chars
            return frozenset(found)
        return None
    return None  # nothing consumed: it can match empty


def _matching(op: Any, av: Any, state: Any, flags: int) -> frozenset[int]:
    """The ASCII characters one one-character item matches, by ``re`` itself."""
    item = _parser.SubPattern(state, [(op, av)])
    single = _compiler.compile(item, flags)
    return frozenset(code for code in range(128) if single.match(chr(code)))
