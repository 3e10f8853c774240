"""One finished call as the tool mappers see it, and what a mapper gives back.

Every mapper reads the same few facts (the call's name and input, the result's
clean text, ``is_error``, Claude Code's ``toolUseResult`` and any images) and
returns a descriptor with the text to carry beside it, or ``None``: the tool's
own text is then shown as it is. A mapper never raises on a wrong shape; it
returns ``None`` and the text stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from toolview.contract import Descriptor
from toolview.hosts.claude_code.content import ImageData

__all__ = ["Finished", "Mapped", "get_int", "get_str"]


@dataclass(frozen=True)
class Finished:
    """A call and its result, as read from the session."""

    name: str
    args: Mapping[str, object]
    text: str
    is_error: bool
    detail: object = None
    images: list[ImageData] = field(default_factory=list)
    stored: bool | None = None
    """``None``: the output was kept whole; else it was stored apart and read (``True``) or not."""

    @property
    def details(self) -> Mapping[str, object]:
        """``toolUseResult`` when it is an object (it may be a string, or absent)."""
        return self.detail if isinstance(self.detail, Mapping) else {}


Mapped: TypeAlias = tuple[Descriptor, str]
"""A descriptor and the result's text to keep beside it."""


def get_str(source: Mapping[str, object], key: str) -> str | None:
    """``source[key]`` when it is a string, else ``None``."""
    value = source.get(key)
    return value if isinstance(value, str) else None


def get_int(source: Mapping[str, object], key: str) -> int | None:
    """``source[key]`` when it is a non-negative int (not a bool, not 3.0), else ``None``."""
    value = source.get(key)
    return value if type(value) is int and value >= 0 else None
