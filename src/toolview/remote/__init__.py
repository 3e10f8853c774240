"""Talking to a toolview server from another process: publish a thread, read it back.

Why a package apart from ``toolview.wire``: the wire is what the server itself
runs (the log, follow frames, AG-UI); this is what a producer (``toolview run
--to``, ``pi --to``) or a reader (``toolview show URL``) runs against a server
over HTTP — a publisher and its outbox, retry schedule and cut-to-fit, and a
reader that rebuilds live output from follow frames. It builds on ``wire``
(log items, deltas, follow frames, idempotency keys, the batch cap) and the
contract; ``wire`` and the server never import it (import-linter contracts).
"""

from toolview.remote.async_client import AsyncPublisher
from toolview.remote.client import BatchTooLarge, Publisher, PublishError
from toolview.remote.reader import ReadError, ThreadReader
from toolview.remote.sender import BackgroundPublisher

__all__ = [
    "AsyncPublisher",
    "BackgroundPublisher",
    "BatchTooLarge",
    "PublishError",
    "Publisher",
    "ReadError",
    "ThreadReader",
]
