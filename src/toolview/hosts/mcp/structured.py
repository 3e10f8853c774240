"""``structuredContent`` → one of the built-in views, and which text blocks mirror it.

The view itself is the contract's (``contract.structured.structured_view``),
the one rule ``describe`` follows too; what is MCP's own is the mirror: the
text block a server adds as the usual JSON copy of ``structuredContent`` — and
the SDK's wrapping: a tool that returns a plain value (a string, a list) gets
``structuredContent`` ``{"result": value}`` beside the value's own text
blocks, one per item of a list. Shown as they came, that value would show
twice; ``unwrap`` says to show it once (a string as its text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolview.contract.jsontext import MISSING, canonical_json, decode_json
from toolview.contract.structured import MAX_TABLE_ROWS, structured_view

__all__ = ["MAX_TABLE_ROWS", "is_mirror", "structured_view", "unwrap"]


def is_mirror(text: str, value: object) -> bool:
    """Whether a text block is the usual JSON copy of ``structuredContent``."""
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["-0123456789tfn':
        return False
    decoded = decode_json(stripped)
    expected = canonical_json(value)
    return expected is not None and canonical_json(decoded) == expected


def unwrap(structured: object, content: object) -> tuple[object, int]:
    """``(structuredContent to show, how many leading text blocks it already shows)``.

    ``{"result": value}`` whose value the text blocks repeat is the SDK's
    wrapping: a string is then shown as its text alone (``MISSING``: no
    structured view), any other value as the view of the value itself, its
    text blocks skipped. Anything else is returned as it came, with 0.
    """
    if not isinstance(structured, Mapping) or list(structured) != ["result"]:
        return structured, 0
    value = structured["result"]
    texts = _texts(content)
    if isinstance(value, str):
        return (MISSING, 0) if texts == [value] else (structured, 0)
    if (
        isinstance(value, list)
        and value
        and len(texts) == len(value)
        and all(_repeats(text, item) for text, item in zip(texts, value, strict=True))
    ):
        return value, len(texts)
    if len(texts) == 1 and _repeats(texts[0], value):
        return value, 1
    return structured, 0


def _texts(content: object) -> list[str | None]:
    """The text of each block (``None`` for a block that is not text)."""
    if not isinstance(content, Sequence) or isinstance(content, str):
        return []
    return [
        block.get("text") if isinstance(block, Mapping) and block.get("type") == "text" else None
        for block in content
    ]


def _repeats(text: str | None, item: object) -> bool:
    if text is None:
        return False
    return text == item if isinstance(item, str) else is_mirror(text, item)
