"""``message.usage`` → one ``usage`` observation per model turn.

Claude Code writes one record per content block of an assistant message, each
with the message's id and a copy of its usage. A turn is counted once: its
usage is held while records of the same message id go on arriving (the last
copy is the most complete) and given out when another record comes, or at
the end. A turn given out is never counted again, even if a record of it
reappears later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Usage
from toolview.hosts.claude_code.records import Stamp

__all__ = ["UsageCounter"]

_SYNTHETIC: Final = "<synthetic>"


def _tokens(usage: Mapping[str, object], key: str) -> int | None:
    value = usage.get(key)
    return value if type(value) is int and value >= 0 else None


def usage_of(message: Mapping[str, object], run_id: str | None, stamp: Stamp) -> Usage | None:
    """The ``usage`` of one assistant message, stamped (its time, its sub-agent's parent),
    or ``None`` if it has none worth counting. Built once: a copy to stamp it validated
    every field again, on every assistant record."""
    model, usage = message.get("model"), message.get("usage")
    if not isinstance(model, str) or not model or model == _SYNTHETIC:
        return None
    if not isinstance(usage, Mapping):
        return None
    tokens_in, tokens_out = _tokens(usage, "input_tokens"), _tokens(usage, "output_tokens")
    if tokens_in is None or tokens_out is None:
        return None
    cache_read = _tokens(usage, "cache_read_input_tokens")
    cache_write = _tokens(usage, "cache_creation_input_tokens")
    return Usage(
        model=model,
        input_tokens=tokens_in,
        output_tokens=tokens_out,
        cache_read_tokens=msgspec.UNSET if cache_read is None else cache_read,
        cache_write_tokens=msgspec.UNSET if cache_write is None else cache_write,
        run_id=run_id or msgspec.UNSET,
        **stamp,
    )


class UsageCounter:
    """Holds the current turn's usage until its last record has been seen."""

    def __init__(self) -> None:
        self._held_id: str | None = None
        self._held: Usage | None = None
        self._counted: set[str] = set()

    def see(self, message: Mapping[str, object], run_id: str | None, stamp: Stamp) -> list[Usage]:
        """One assistant record: what an earlier turn now gives out (this one is held)."""
        message_id = message.get("id")
        key = message_id if isinstance(message_id, str) and message_id else None
        if key is not None and key in self._counted:
            return []
        out = self.flush() if key is None or key != self._held_id else []
        usage = usage_of(message, run_id, stamp)
        if usage is None:
            return out
        if key is None:
            return [*out, usage]  # no id to match copies by: counted as it comes
        self._held_id, self._held = key, usage
        return out

    def flush(self) -> list[Usage]:
        """The held turn, now complete (another record came, or the input ended)."""
        held, key = self._held, self._held_id
        self._held, self._held_id = None, None
        if held is None or key is None:
            return []
        self._counted.add(key)
        return [held]
