"""The index's cards kept in the Redis log: one hash, a field per thread.

Why: as ``sqlite_cards`` — a restarted server (or another process serving
the same store) takes the cards back instead of reading every record. A
field's value is ``[created, seq, card]`` as JSON; a value of another shape
is not a card (``taken``), and its thread is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec

from toolview.wire.log.sqlite_cards import KeptCard

__all__ = ["card_fields", "taken"]

_VALUE: Final = msgspec.json.Decoder(tuple[float, int, str])


def card_fields(cards: Sequence[KeptCard]) -> dict[str, bytes]:
    """The hash's fields for ``cards``: thread -> ``[created, seq, card]``."""
    return {
        thread: msgspec.json.encode((created, seq, card.decode()))
        for thread, created, seq, card in cards
    }


def taken(fields: Mapping[bytes, bytes]) -> list[KeptCard]:
    """The well-formed cards of the hash ``HGETALL`` read, the others left out."""
    kept: list[KeptCard] = []
    for thread, value in fields.items():
        try:
            created, seq, card = _VALUE.decode(value)
            kept.append((bytes(thread).decode(), created, seq, card.encode()))
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
            continue
    return kept
