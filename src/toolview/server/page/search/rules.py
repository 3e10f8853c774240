"""What a reader's regex may not hold, checked before anything compiles it.

Why before: the ``regex`` module's ``timeout=`` bounds matching, not
compiling, and compiling is where a pattern did its worst: ``(?fi)ß{200000}``
(full case folding of a character that folds to two) crashed the server with
SIGSEGV inside ``regex``; ``(?:a{10000000})`` held the loop 3.6-5.9 s and
~1.4 GB (a counted repeat is compiled out; nested ones multiply:
``(?:(?:a{1000}){1000})`` was 280 MB). The search runs in a worker process
(``server.page.search.worker``) that may crash instead of the server, but a
pattern refused here costs nothing at all, and the reader learns why.

Refused, each with a 400 naming the rule:

- a counted repeat above ``REPEAT_LIMIT`` (``{n}``, ``{m,n}``, ``{m,}``),
  or nested counted repeats whose product is above it;
- inline full case folding (``(?f)``) and version 1 (``(?V1)``, whose nested
  sets and full folding are what crashed);
- a quantified group that holds an unbounded quantifier (``(a+)+``,
  ``(a*)*``, ``(?:\\w+\\s?)*``): the classic exponential backtracking;
  a quantified group whose alternatives repeat one another (``(?:a|a)*``);
- recursion (``(?R)``, ``(?1)``, ``(?&name)``): unbounded by nature.

A scan, not a parser: it reads escapes, sets, groups and quantifiers well
enough to err on the side of a refusal; what it lets through still runs
under the worker's time and memory limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

__all__ = ["REPEAT_LIMIT", "refusal"]

REPEAT_LIMIT: Final = 1000  # the largest count one repeat, or repeats nested, may reach
_COUNTED: Final = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")
_FLAGS: Final = re.compile(r"\(\?([a-zA-Z0-9-]*)[:)]")
_RECURSION: Final = re.compile(r"\(\?(?:R|[+-]?\d|&|P>)")
_PREFIX: Final = re.compile(r"\((?:\?(?::|>|=|!|<=|<!|\||P?<\w+>|'\w+'|[a-zA-Z-]+:))?")
_NAMED_ESCAPE: Final = frozenset("pPNxuUgkL")


class Refused(ValueError):
    """A pattern this server will not compile; the message says which rule."""


@dataclass
class _Group:
    """What one open group holds so far."""

    start: int
    unbounded: bool = False  # an unbounded quantifier somewhere inside
    product: int = 1  # the largest product of counted repeats inside
    alternatives: list[str] = field(default_factory=list)
    branch: int = 0  # where the current alternative starts


def refusal(pattern: str) -> str | None:
    """Why ``pattern`` is refused, or ``None`` when it may be compiled."""
    try:
        _scan(pattern)
    except Refused as exc:
        return str(exc)
    return None


def _scan(pattern: str) -> None:
    stack = [_Group(0)]
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if char in ("\\", "["):
            atom_end = (
                _skip_escape(pattern, position) if char == "\\" else _skip_set(pattern, position)
            )
            position = _quantified(pattern, atom_end, stack[-1], None)
        elif char == "(":
            position = _open(pattern, position, stack)
        elif char == ")" and len(stack) > 1:
            group = stack.pop()
            group.alternatives.append(pattern[group.branch : position])
            position = _quantified(pattern, position + 1, stack[-1], group)
        elif char == "|":
            stack[-1].alternatives.append(pattern[stack[-1].branch : position])
            stack[-1].branch = position + 1
            position += 1
        else:
            position = _quantified(pattern, position + 1, stack[-1], None)


def _skip_escape(pattern: str, position: int) -> int:
    """Past ``\\x`` and its braces or angle brackets (``\\p{L}``, ``\\g<1>``): never a repeat."""
    end = position + 2
    if pattern[position + 1 : end] in _NAMED_ESCAPE and pattern[end : end + 1] in ("{", "<"):
        close = pattern.find("}" if pattern[end] == "{" else ">", end)
        end = len(pattern) if close < 0 else close + 1
    return end


def _skip_set(pattern: str, position: int) -> int:
    """Past a ``[...]`` set (a ``]`` first, or after ``^``, is a member)."""
    end = position + 1
    if pattern[end : end + 1] == "^":
        end += 1
    if pattern[end : end + 1] == "]":
        end += 1
    while end < len(pattern) and pattern[end] != "]":
        end += 2 if pattern[end] == "\\" else 1
    return end + 1


def _open(pattern: str, position: int, stack: list[_Group]) -> int:
    """A group opens: its flags and kind checked; a comment skipped whole."""
    if pattern.startswith("(?#", position):
        close = pattern.find(")", position)
        return len(pattern) if close < 0 else close + 1
    if _RECURSION.match(pattern, position):
        raise Refused("recursion ((?R), (?1), (?&name)) is not allowed in a search")
    flags = _FLAGS.match(pattern, position)
    if flags and ("f" in flags.group(1) or "V1" in flags.group(1)):
        raise Refused("the full case-folding (?f) and version 1 (?V1) flags are not allowed")
    if flags and pattern[flags.end() - 1] == ")":
        return flags.end()  # flags alone open no group
    prefix = _PREFIX.match(pattern, position)
    end = prefix.end() if prefix else position + 1
    stack.append(_Group(end, branch=end))
    return end


def _quantified(pattern: str, position: int, parent: _Group | None, group: _Group | None) -> int:
    """Read the quantifier (if any) at ``position`` after an atom or ``group``; check it."""
    low, high, end = _quantifier(pattern, position)
    inner = group.product if group is not None else 1
    if group is not None and high is not None and (high == -1 or high > 1):
        if group.unbounded:
            raise Refused(
                "a repeated group may not hold an unbounded quantifier ((a+)+, (a*)*):"
                " it backtracks exponentially"
            )
        if high == -1 and len(set(group.alternatives)) < len(group.alternatives):
            raise Refused("a repeated group's alternatives repeat one another ((?:a|a)*)")
    count = high if high is not None and high >= 0 else low
    product = inner * max(count, 1)
    if product > REPEAT_LIMIT:
        raise Refused(f"counted repeats may reach at most {REPEAT_LIMIT} (nested, multiplied)")
    if parent is not None:
        parent.unbounded |= high == -1 or (group is not None and group.unbounded)
        parent.product = max(parent.product, product)
    return end


def _quantifier(pattern: str, position: int) -> tuple[int, int | None, int]:
    """``(low, high, end)``: ``high`` is ``-1`` for unbounded, ``None`` for no quantifier."""
    char = pattern[position : position + 1]
    if char in ("*", "+"):
        low, high, end = (0 if char == "*" else 1), -1, position + 1
    elif char == "?":
        low, high, end = 0, 1, position + 1
    elif (counted := _COUNTED.match(pattern, position)) is not None and any(counted.groups()):
        low_text, comma, high_text = counted.groups()
        low = int(low_text or 0)
        high = int(high_text) if high_text else (-1 if comma else low)
        end = counted.end()
        if low > REPEAT_LIMIT or high > REPEAT_LIMIT:
            raise Refused(f"a counted repeat may be at most {{{REPEAT_LIMIT}}}")
    else:
        return 0, None, position
    if pattern[end : end + 1] in ("?", "+"):
        end += 1  # lazy or possessive: the same count
    return low, high, end
