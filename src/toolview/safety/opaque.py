"""An opaque stand-in for an id that redaction would change.

An id pairs things: a call with its result and its live frames, an AG-UI
start with its result, a frame with the fragment the live page fetches by
that id. Redacting an id in place would break the pairing (two calls whose
ids differ only in their secret would redact to one id), so an id holding a
secret is replaced whole by ``redacted-<hash>``: unique per id, stable
within a process, and saying nothing of the id.

Why keyed (HMAC): an id is short; a plain hash of ``deploy-hunter2`` is
undone offline by anyone who sees the hash in a browser. Why a key per
process: it never leaves memory and is never stored next to the log, and
nothing has to be set up. The price: opaque ids change when the server
restarts, and processes sharing one Redis log spell them differently, so
a browser must send a process the ids that process gave it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Final

__all__ = ["OPAQUE_PREFIX", "crossing_id", "opaque_id"]

OPAQUE_PREFIX: Final = "redacted-"
_KEY: Final = secrets.token_bytes(32)


def opaque_id(value: str) -> str:
    """``redacted-`` and 32 hex digits of the keyed hash of ``value``."""
    digest = hmac.new(_KEY, value.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return OPAQUE_PREFIX + digest.hexdigest()[:32]


def crossing_id(value: str, redact: Callable[[str], str]) -> str:
    """What an id crosses to a browser as: itself, or its opaque id when ``redact`` would change it.

    The one rule for every place an id leaves the server (frames, AG-UI, the
    page's element ids and pending map), so they all name a call alike.
    """
    return value if redact(value) == value else opaque_id(value)
