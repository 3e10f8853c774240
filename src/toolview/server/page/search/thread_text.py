"""A thread's text as a reader may search or fetch it: redacted and cleaned, per field.

Why one module: the thread search and the output chunks must read the text
the page shows (``safety.clean_text``: terminal controls neutralised, then
secrets redacted), never the raw record, so a planted secret is never matched,
spelled in a snippet or sent in a chunk. What a search sees of a field is
``wire.log.searchable``'s, the maker the cross-thread index uses too (same
fields, same cut), so one word finds the same calls on both search routes; a
chunk reads the whole output (``whole_text``).

Texts are made in a worker (redaction is CPU work) from a snapshot taken under
the projection's lock (``snapshot``: references to frozen observations), and
kept in a byte-bounded cache under the call's version (``server.page.tally``), so a
second search of a 5,000-call thread redacts nothing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from toolview.contract import CallEntry, Message, MessageEntry, ToolRefused, ToolResult
from toolview.render.html import call_element_id
from toolview.safety import redact
from toolview.safety.opaque import crossing_id
from toolview.server.page.projection import Projection
from toolview.wire.byte_lru import ByteLRU
from toolview.wire.log.searchable import Field, args_text, message_text, output_text

__all__ = [
    "TEXT_BUDGET",
    "Field",
    "Item",
    "TextCache",
    "TextKey",
    "item_text",
    "snapshot",
    "whole_text",
]

TEXT_BUDGET: Final = 256 * 1024 * 1024  # characters of redacted text kept for searches
TextKey: TypeAlias = tuple[int, int, int, str]  # (epoch, entry position, version, field)
TextCache: TypeAlias = ByteLRU[TextKey, str]


@dataclass(frozen=True)
class Item:
    """One searchable field of a thread: which call (or message) and where it stands.

    ``index`` is the call's position among the thread's calls (for a message:
    how many calls come before it), what the live page's window counts in.
    """

    index: int
    field: Field
    key: TextKey
    source: object  # the frozen observation (or args mapping) the text comes from
    call_id: str | None = None  # the raw id: crossed on the way out only

    @property
    def element_id(self) -> str | None:
        """The call's article id on the page (``None`` for a message)."""
        return call_element_id(self.call_id) if self.call_id is not None else None

    @property
    def crossing(self) -> str | None:
        """The call's id as it crosses to a browser (opaque if it holds a secret)."""
        return crossing_id(self.call_id, redact) if self.call_id is not None else None


def snapshot(projection: Projection) -> list[Item]:
    """Every searchable field of the thread, in thread order (the caller holds the lock)."""
    thread, tally = projection.thread, projection.tally
    items: list[Item] = []
    calls = 0
    for position, entry in enumerate(thread.entries):
        if isinstance(entry, MessageEntry):
            key = (tally.epoch, position, 0, "message")
            items.append(Item(calls, "message", key, entry.message))
        elif isinstance(entry, CallEntry):
            version = tally.versions.get(entry.tool_call_id, 0)
            raw = entry.tool_call_id
            if entry.call is not None:
                key = (tally.epoch, position, version, "args")
                items.append(Item(calls, "args", key, entry.call.args, raw))
            if entry.result is not None:
                key = (tally.epoch, position, version, "output")
                items.append(Item(calls, "output", key, entry.result, raw))
            calls += 1
    return items


def item_text(item: Item, cache: TextCache) -> str:
    """The item's searchable text (``wire.log.searchable``), cached under its version."""
    text = cache.get(item.key)
    if text is None:
        text = _searchable(item.source, item.field)
        cache.put(item.key, text, len(text))
    return text


def _searchable(source: object, field: Field) -> str:
    if field == "args":
        return args_text(source)
    if isinstance(source, ToolResult | ToolRefused):
        return output_text(source)
    return message_text(source) if isinstance(source, Message) else ""


def whole_text(item: Item, cache: TextCache) -> str:
    """A call's whole output as the page would show it, uncut (for its chunks), cached."""
    key = (*item.key[:3], "whole")
    text = cache.get(key)
    if text is None:
        result = item.source
        text = output_text(result, None) if isinstance(result, ToolResult | ToolRefused) else ""
        cache.put(key, text, len(text))
    return text
