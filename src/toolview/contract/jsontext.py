"""Small JSON and size helpers (the MCP mapping, ``describe``); none of them raises.

Untrusted JSON may hold anything (non-string keys from a Python caller, values
nested past a recursion limit), so every helper has a visible fallback rather
than an exception.
"""

from __future__ import annotations

from typing import Final

import msgspec

__all__ = ["MISSING", "canonical_json", "compact_json", "decode_json", "human_size", "pretty_json"]

MISSING: Final = object()
"""Stands for "not valid JSON" / "absent", distinct from a JSON ``null``."""

_ENCODER: Final = msgspec.json.Encoder(order="sorted")
_PLAIN_ENCODER: Final = msgspec.json.Encoder()


def compact_json(value: object) -> str:
    """Compact JSON text for ``value``, or its ``repr`` if it is not JSON-encodable."""
    try:
        return _PLAIN_ENCODER.encode(value).decode("utf-8")
    except Exception:  # unencodable or nested too deeply: still show something
        return _repr(value)


def pretty_json(value: object) -> str:
    """Indented JSON text for ``value`` (``repr`` as the fallback)."""
    try:
        return msgspec.json.format(_PLAIN_ENCODER.encode(value), indent=2).decode("utf-8")
    except Exception:
        return _repr(value)


def _repr(value: object) -> str:
    try:
        return repr(value)
    except Exception:  # e.g. an int too long to print, or a hostile __repr__
        return f"<unprintable {type(value).__name__}>"


def canonical_json(value: object) -> bytes | None:
    """Key-sorted JSON bytes, so two values compare equal only if JSON says so.

    Python's ``==`` would call ``true`` equal to ``1`` and ``1`` equal to
    ``1.0``; comparing encodings does not.
    """
    try:
        return _ENCODER.encode(value)
    except Exception:
        return None


def decode_json(text: str | bytes) -> object:
    """The JSON value in ``text``, or ``MISSING`` if it is not JSON."""
    try:
        return msgspec.json.decode(text)
    except Exception:
        return MISSING


def human_size(size: int) -> str:
    """A byte count in words: ``512 B``, ``4.0 KB``, ``1.5 MB`` (powers of 1024)."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover - the loop always returns
