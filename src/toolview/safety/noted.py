"""What a redaction hid, told as it is hidden: no second scan to find out.

Why a context variable and not a return value: redaction is reached from a
dozen places (a text, a JSON value's strings, an id made opaque, a live
output's styled runs) and each returns the redacted value its callers
expect. A caller that must tell the user what was hidden (``toolview
share``'s review) opens :func:`noting` around its redaction; the one place a
mark replaces a secret (``safety.spans.rebuild``, and a sensitive key's
value in ``safety.structured``) calls :func:`note` with the pattern's name.
Outside :func:`noting` a note costs one context-variable read, and only
where something WAS redacted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["note", "noting"]

_NOTES: ContextVar[list[str] | None] = ContextVar("toolview_redaction_notes", default=None)


@contextmanager
def noting() -> Iterator[list[str]]:
    """A list that receives the name of every secret redacted inside the ``with``
    (one name per mark, in the order they were made); nested, the inner one receives them."""
    names: list[str] = []
    token = _NOTES.set(names)
    try:
        yield names
    finally:
        _NOTES.reset(token)


def note(name: str) -> None:
    """A mark named ``name`` replaced a secret: told to the open :func:`noting`, if any."""
    names = _NOTES.get()
    if names is not None:
        names.append(name)
