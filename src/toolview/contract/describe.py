"""``describe(value)``: any Python value a tool returned → its text and a descriptor.

Why in the contract: it is pure (no I/O) and both sides of a producer need it —
``capture()`` and the framework adapters map a tool's return value through it,
and the MCP host infers the view of ``structuredContent`` with the same rules.
"""

from __future__ import annotations

import json
from typing import Any

from toolview.contract.descriptor import Descriptor

__all__ = ["describe"]


def describe(
    value: object, *, tool: str | None = None, args: object = None
) -> tuple[str, Descriptor | None]:
    """``(text, descriptor or None)`` for ``value``; never raises."""
    try:
        return _describe(value)
    except Exception as exc:  # a hostile __repr__ or property: a visible fallback
        return f"<{type(value).__name__}: could not describe: {type(exc).__name__}>", None


def _describe(value: Any) -> tuple[str, Descriptor | None]:
    if isinstance(value, str):
        return str(value), None
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}", None
    if isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
        return text, Descriptor("json", {"value": json.loads(text)})
    return str(value), None
