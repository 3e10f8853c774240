"""The live hubs of one server process: one per (thread, mode) someone follows.

Modes: ``elide`` and ``live`` (``/follow``, ``server.live.hub_loop``), ``agui``
(the live AG-UI stream, ``server.live.agui_hub``).
"""

from __future__ import annotations

import dataclasses
from typing import Final, Literal

from toolview.server.live.agui_hub import AguiHubLoop
from toolview.server.live.hub import QUEUE_BYTES, Hub, Source
from toolview.server.live.hub_loop import HubLoop
from toolview.wire.follow import Mode, Redactor
from toolview.wire.log import ObservationLog

__all__ = ["HUB_MEMO", "Hubs"]

HUB_MEMO: Final = 1024 * 1024  # the hubs' own redaction memo: names and ids, not frames


class Hubs:
    """The live hubs of one server process, one per (thread, mode) followed.

    With Redis several processes serve one thread: each has its own hubs,
    fed by its own reads of the shared log.

    Hubs redact with a redactor of their own whose memo keeps only small
    results (``HUB_MEMO``): a hub redacts each frame once anyway, and keeping
    every frame in the shared 32 MiB memo (key and value) is what doubled a
    server's memory under stalled followers (``docs/reliability.md``).
    Followers catching up still share the big memo between them.
    """

    def __init__(
        self,
        reads: ObservationLog,
        redactor: Redactor,
        keepalive: float,
        *,
        queue_bytes: int = QUEUE_BYTES,
    ) -> None:
        self.reads = reads
        self.redactor = redactor
        self.hub_redactor = dataclasses.replace(redactor, budget=HUB_MEMO)
        self.keepalive = keepalive
        self.queue_bytes = queue_bytes
        self._hubs: dict[tuple[str, str], Hub] = {}

    def use(self, thread_id: str, mode: Mode | Literal["agui"]) -> Hub:
        """The thread's hub in ``mode`` (started if none runs), counted as one more user."""
        hub = self._hubs.get((thread_id, mode))
        if hub is None:
            redactor, keepalive = self.hub_redactor, self.keepalive
            loop: Source = (
                AguiHubLoop(self.reads, thread_id, redactor, keepalive)
                if mode == "agui"
                else HubLoop(self.reads, thread_id, mode, redactor, keepalive)
            )
            hub = self._hubs[thread_id, mode] = Hub(loop, self._forget)
        hub.users += 1
        return hub

    def running(self, thread_id: str, mode: str) -> Hub | None:
        """The hub serving ``thread_id`` in ``mode``, if one runs."""
        return self._hubs.get((thread_id, mode))

    def _forget(self, hub: Hub) -> None:
        key = (hub.loop.thread_id, hub.mode)
        if self._hubs.get(key) is hub:
            del self._hubs[key]
