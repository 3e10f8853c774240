"""A stable, safe element id for each call, derived from its ``toolCallId``.

The web page (issue 5) patches calls in place by id, so the id must be the
same every time the call is rendered and unique per ``toolCallId``: every
character outside ``[A-Za-z0-9-]`` (``_`` included) is spelled ``_hex_``, which
keeps the mapping one-to-one and leaves nothing that could break out of an
attribute or a CSS selector. Overlong ids are hashed to keep the DOM small.
An id that redaction would change is replaced by its opaque id first (a
keyed hash, ``safety.opaque``): a secret in a ``toolCallId`` must not reach the
DOM spelled out (nor plainly hashed, which a short password would not
survive), and it is the same opaque id the server's frames and AG-UI events
carry for that call, so two calls differing only in their secret stay two.
"""

from __future__ import annotations

import hashlib
import re
import string
from typing import Final

from toolview.safety import redact
from toolview.safety.opaque import crossing_id

__all__ = ["ID_PREFIX", "call_element_id"]

ID_PREFIX: Final = "tv-call-"
_PLAIN: Final = frozenset(string.ascii_letters + string.digits + "-")
_MAX_PLAIN: Final = 96
# ids as hosts write them (``toolu_01…``, ``call_…``): only ``_`` needs spelling (``_5f_``)
_USUAL: Final = re.compile(f"[A-Za-z0-9_-]{{1,{2 * _MAX_PLAIN // 4}}}")


def call_element_id(tool_call_id: str) -> str:
    """``tv-call-`` plus ``tool_call_id`` (opaque if it holds a secret) in id-safe characters."""
    safe = crossing_id(tool_call_id, redact)
    if _USUAL.fullmatch(safe):  # a character at a time costs ~1 % of a page, for this
        return ID_PREFIX + safe.replace("_", "_5f_")
    spelled = "".join(ch if ch in _PLAIN else f"_{ord(ch):x}_" for ch in safe[: _MAX_PLAIN + 1])
    if len(safe) <= _MAX_PLAIN and len(spelled) <= 2 * _MAX_PLAIN:
        return ID_PREFIX + spelled
    digest = hashlib.sha256(safe.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{ID_PREFIX}h-{digest}"
