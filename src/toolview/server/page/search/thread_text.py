"""A thread's text as a reader may search or fetch it: redacted and cleaned, per field.

Why one module: the thread search, the output chunks and the cross-thread
index must all read the same text the page shows (``safety.clean_text``:
terminal controls neutralised, then secrets redacted), never the raw record,
so a planted secret is never matched, spelled in a snippet or sent in a chunk.

Texts are made in a worker (redaction is CPU work) from a snapshot taken under
the projection's lock (``snapshot``: references to frozen observations), and
kept in a byte-bounded cache under the call's version (``server.tally``), so a
second search of a 5,000-call thread redacts nothing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

import msgspec

from toolview.contract import CallEntry, MessageEntry, ToolRefused, ToolResult
from toolview.render.html import call_element_id
from toolview.safety import clean_text, redact, redact_json
from toolview.safety.opaque import crossing_id
from toolview.safety.partial import redact_partial
from toolview.safety.terminal import neutralize_terminal
from toolview.server.page.projection import Projection
from toolview.wire.byte_lru import ByteLRU

__all__ = [
    "TEXT_BUDGET",
    "Field",
    "Item",
    "TextCache",
    "TextKey",
    "args_text",
    "item_text",
    "output_text",
    "snapshot",
]

TEXT_BUDGET: Final = 256 * 1024 * 1024  # characters of redacted text kept for searches
Field: TypeAlias = Literal["args", "output", "message"]
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
    """The item's redacted, cleaned text (cached under its version)."""
    text = cache.get(item.key)
    if text is None:
        text = _make(item)
        cache.put(item.key, text, len(text))
    return text


def _make(item: Item) -> str:
    source = item.source
    if item.field == "args":
        return args_text(source)
    if isinstance(source, ToolRefused):
        return clean_text(source.reason)
    if isinstance(source, ToolResult):
        return _result_text(source)
    return clean_text(getattr(source, "text", ""))


def _result_text(result: ToolResult) -> str:
    """A running call's text holds back its last token (``safety.partial``): never half a secret."""
    if result.complete:
        return clean_text(result.text)
    return redact_partial(neutralize_terminal(result.text))


def args_text(args: object) -> str:
    """A call's arguments as indented JSON, every string redacted (keys too)."""
    return msgspec.json.format(msgspec.json.encode(redact_json(args)), indent=2).decode()


def output_text(entry: CallEntry) -> str:
    """A call's whole output as the page would show it, uncut: redacted and cleaned."""
    result = entry.result
    if result is None:
        return ""
    if isinstance(result, ToolRefused):
        return clean_text(result.reason)
    return _result_text(result)
