"""``MAX_BATCH``: the most observations one posted batch holds, kept by both ends.

Why a module of its own in ``wire``: the server refuses a bigger batch (413,
``server.ingest.batch``) and a producer's outbox never forms one (``remote.outbox``).
One number, one definition, where both may import it: the server never
imports ``remote``, and ``remote`` builds on ``wire``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_BATCH"]

MAX_BATCH: Final = 10_000
"""A batch is validated and stored in one piece: its count bounds one request's cost."""
