"""A stable, safe element id for each call, derived from its ``toolCallId``.

The web page (issue 5) patches calls in place by id, so the id must be the
same every time the call is rendered and unique per ``toolCallId``: every
character outside ``[A-Za-z0-9-]`` (``_`` included) is spelled ``_hex_``, which
keeps the mapping one-to-one and leaves nothing that could break out of an
attribute or a CSS selector. Overlong ids are hashed to keep the DOM small.
An id is redacted first: a secret in a ``toolCallId`` must not reach the DOM
spelled out (nor hashed, which a short password would not survive).
"""

from __future__ import annotations

import hashlib
import string
from typing import Final

from toolview.safety import redact

__all__ = ["ID_PREFIX", "call_element_id"]

ID_PREFIX: Final = "tv-call-"
_PLAIN: Final = frozenset(string.ascii_letters + string.digits + "-")
_MAX_PLAIN: Final = 96


def call_element_id(tool_call_id: str) -> str:
    """``tv-call-`` plus ``tool_call_id`` (redacted) spelled in id-safe characters."""
    safe = redact(tool_call_id)
    spelled = "".join(ch if ch in _PLAIN else f"_{ord(ch):x}_" for ch in safe[: _MAX_PLAIN + 1])
    if len(safe) <= _MAX_PLAIN and len(spelled) <= 2 * _MAX_PLAIN:
        return ID_PREFIX + spelled
    digest = hashlib.sha256(safe.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{ID_PREFIX}h-{digest}"
