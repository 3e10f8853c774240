"""A line whose huge strings were cut, and its cuts put on the results it maps to.

Why apart from ``long_lines`` (which reads such a line): every reader of lines
checks each line for cuts, and this costs no import beyond the contract, so
start-up and normal lines pay nothing for the rare huge one.

A line with a cut is a ``CutLine``: ``bytes`` (every decoder takes it as the
line it is) with the ``Truncation`` of each string that was cut. The cut is
data, never only words in a string: once the line is mapped, ``with_cuts``
puts it on the results the line produced — on their descriptor, or, for a
text-only result, on a built-in ``text`` descriptor made for it (the
contract's ``TEXT_KIND``) — so every surface says how much was cut.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import msgspec

from toolview.contract import TEXT_KIND, Descriptor, ToolResult, Truncation

__all__ = ["CutLine", "cuts_of", "with_cuts"]

_Item = TypeVar("_Item")


class CutLine(bytes):
    """A line some of whose strings were cut to their head and tail: ``cuts`` says each cut."""

    cuts: tuple[Truncation, ...] = ()


def cuts_of(line: bytes) -> tuple[Truncation, ...]:
    """The cuts made in ``line`` (none for a line read whole)."""
    return line.cuts if isinstance(line, CutLine) else ()


def with_cuts(items: Iterable[_Item], line: bytes) -> list[_Item]:
    """``items`` (mapped from ``line``), each result carrying the line's largest cut.

    The largest: a host may hold the output twice (Claude Code's text and its
    ``toolUseResult.stdout``), and the result's text is the output. A
    descriptor that already says a truncation (the tool's own) keeps it.
    """
    cuts = cuts_of(line)
    if not cuts:
        return list(items)
    largest = max(cuts, key=lambda cut: cut.total)
    return [_cut(item, largest) for item in items]


def _cut(item: _Item, cut: Truncation) -> _Item:
    if not isinstance(item, ToolResult):
        return item
    descriptor = item.descriptor
    if not isinstance(descriptor, Descriptor):
        descriptor = Descriptor(TEXT_KIND, {}, cut)
    elif isinstance(descriptor.truncated, msgspec.UnsetType):
        descriptor = Descriptor(descriptor.kind, descriptor.props, cut)
    else:
        return item
    result: _Item = msgspec.structs.replace(item, descriptor=descriptor)
    return result
