"""``toolview show``'s own source: observation JSON Lines, read forgivingly.

Why forgiving, unlike ``toolview check``: a person looking at a thread wants
the rest of it even when a line is broken. Each line that breaks the contract
is kept as a ``Skipped`` item and a result whose descriptor alone is broken as
a ``BadDescriptor``; ``build_thread`` turns both into visible notes, never
dropping a line silently. ``read_toolview`` reads lines lazily, one at a time,
and ``feed_items`` gives items to a ``Thread`` or to a stream alike, so the
streamed ``show`` reads a line exactly as the whole-input one did.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeAlias

from toolview.cli.session_hosts import Note
from toolview.contract import Observation, ObservationError, ToolResult, decode_observation
from toolview.contract.thread import Thread
from toolview.hosts.cut_lines import with_cuts

__all__ = [
    "BadDescriptor",
    "Item",
    "Note",
    "Skipped",
    "build_thread",
    "feed_items",
    "load_toolview",
    "meant_as_observations",
    "read_toolview",
    "sniff_toolview",
]


@dataclass(frozen=True)
class Skipped:
    """A line that broke the contract: shown in the thread as a note."""

    line_number: int
    error: ObservationError

    def __str__(self) -> str:
        return f"line {self.line_number} skipped: {self.error.path}: {self.error.reason}"


@dataclass(frozen=True)
class BadDescriptor:
    """A result whose descriptor broke the contract: kept, shown as text with a note."""

    result: ToolResult
    error: ObservationError

    @property
    def reason(self) -> str:
        return f"{self.error.path}: {self.error.reason}"


Item: TypeAlias = Observation | Skipped | BadDescriptor | Note


def sniff_toolview(data: bytes) -> bool:
    """Whether the first non-blank line is an observation."""
    for line in data[:65536].split(b"\n"):
        if line.strip():
            try:
                decode_observation(line)
            except ObservationError:
                return False
            return True
    return False


def meant_as_observations(data: bytes) -> bool:
    """Whether the first non-blank line, though no observation, was meant as one: a JSON
    object naming a ``"kind"`` (cut off, or breaking the contract). Read as observations,
    its broken lines are notes naming the fault, as ``toolview check`` names them."""
    for line in data[:65536].split(b"\n"):
        if line.strip():
            return line.lstrip().startswith(b"{") and b'"kind"' in line
    return False


def load_toolview(data: bytes) -> list[Item]:
    """Observation JSON Lines; a line that breaks the contract becomes ``Skipped``."""
    return list(read_toolview(data.split(b"\n")))


def read_toolview(lines: Iterable[bytes]) -> Iterator[Item]:
    """The items of ``lines`` (numbered from 1, blank ones counted), decoded one at a time.

    Each line is let go of before its item is handed on (no ``enumerate``,
    which keeps its last tuple; no ``strip``, which copies): a 100 MB line is
    then held once, not two or three times, while its call is drawn.
    """
    number = 0
    for line in lines:
        number += 1  # noqa: SIM113 - enumerate keeps its last tuple, and so the line, alive
        if line and not line.isspace():  # what ``line.strip()`` says, without a copy
            item = _decode_line(number, line)
            del line
            yield item


def _decode_line(number: int, line: bytes) -> Item:
    try:
        return with_cuts([decode_observation(line)], line)[0]
    except ObservationError as error:
        if error.path.startswith("$.descriptor"):
            salvaged = _without_descriptor(line)
            if salvaged is not None:
                return BadDescriptor(salvaged, error)
        return Skipped(number, error)


def _without_descriptor(line: bytes) -> ToolResult | None:
    """The result on ``line`` read again without its broken descriptor, if that works."""
    try:
        document = json.loads(line)
        document.pop("descriptor", None)
        result = decode_observation(json.dumps(document))
    except (ValueError, AttributeError, ObservationError, RecursionError):
        return None
    return result if isinstance(result, ToolResult) else None


def build_thread(items: Iterable[Item]) -> Thread:
    """A thread from loaded items; unreadable lines become visible notes."""
    thread = Thread()
    feed_items(items, thread.add, thread.note, lambda: bool(thread.entries))
    return thread


def feed_items(
    items: Iterable[Item],
    add: Callable[[Observation, str | None], None],
    note: Callable[[str], None],
    has_entries: Callable[[], bool],
) -> None:
    """Give each item to ``add`` (with its descriptor's error, if broken) or, unreadable, to
    ``note``; at the end a note says so when nothing would be drawn."""
    observations = 0
    for item in items:
        if isinstance(item, Skipped | Note):
            note(str(item))
            continue
        observations += 1
        if isinstance(item, BadDescriptor):
            add(item.result, item.reason)
        else:
            add(item, None)
    if not has_entries():  # say so: a blank page would look like a failure
        note(_nothing_to_draw(observations))


def _nothing_to_draw(observations: int) -> str:
    if observations == 0:
        return "the input held no observations"
    held = f"{observations} observation{'' if observations == 1 else 's'}"
    return f"the input held {held} but no tool call or message to draw (run events only)"
