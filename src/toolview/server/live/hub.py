"""One hub per followed thread and mode: each frame read, redacted and encoded ONCE.

Modes: ``elide`` and ``live`` (``/follow``, ``server.live.hub_loop``) and ``agui``
(the live AG-UI stream, ``server.live.agui_hub``).

Before the hub every follower ran its own loop: read the log, turn records
into frames (``wire.follow.Follower``), encode them, write them; shared
reads and the redaction memo made the first steps cheaper, but each was
still done once per follower (0.28–0.34 ms of server CPU per follower-frame
live: 500 followers at 5 updates a second filled a core). A hub does them
once for the thread and hands the same encoded bytes (a ``Chunk``) to every
``Member``; what is left per follower is a queue append and a socket write.

A member joins only where its client's view equals the hub's: it catches up
from the log on its own (``live.follower``; AG-UI: ``live.agui_follow``) to the hub's
exact seq, then ``Follower.join`` sends the few deltas that make its live text the
hub's. From there every chunk applies to it as it is.

A member never holds the hub back: ``offer`` is an append to its queue, no
wait. A queue over ``QUEUE_BYTES`` (or ``QUEUE_CHUNKS``) means the member
fell behind: it is dropped from the hub and its queue freed at once, and it
catches up from the log from the last seq it wrote, alone, at its own pace
(a stalled client then holds one batch until ``send_timeout`` drops it).
Chunks are shared bytes, so members lagging together hold them once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Protocol

from toolview.server.live.chunk import Chunk
from toolview.server.live.hub_loop import HubLoop
from toolview.server.live.member_queue import QUEUE_BYTES, QUEUE_CHUNKS, Member
from toolview.wire.follow import Follower

__all__ = ["QUEUE_BYTES", "QUEUE_CHUNKS", "Chunk", "Hub", "Member", "Source"]


class Source(Protocol):
    """What a hub runs: a thread read from the log's end on, as chunks (``live.hub_loop``)."""

    @property
    def thread_id(self) -> str:
        """The thread it reads."""
        ...

    @property
    def mode(self) -> str:
        """What its chunks are: ``elide``, ``live`` or ``agui``."""
        ...

    @property
    def position(self) -> int | None:
        """The seq the chunks have reached; ``None`` until started."""
        ...

    stopped: bool  # set when the hub stops: the loop returns at its next step

    async def run(self, publish: Callable[[Chunk | None], None]) -> None:
        """Forever: each step's chunk (``None``: nothing to send) to ``publish``."""
        ...


class Hub:
    """The frames of one thread in one mode, made once and offered to every member.

    ``users`` counts members and followers catching up to join; at zero the
    hub stops (``on_idle`` forgets it), so a thread nobody follows costs nothing.
    """

    def __init__(self, loop: Source, on_idle: Callable[[Hub], None]) -> None:
        self.loop = loop
        self.mode = loop.mode
        self.members: dict[Member, None] = {}  # insertion-ordered: first come, first written
        self.users = 0
        self.drops = 0  # members that fell behind and left
        self.failed: BaseException | None = None  # why the hub stopped, if it failed
        self._on_idle = on_idle
        self._moved: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._task = asyncio.ensure_future(loop.run(self._publish))
        self._task.add_done_callback(self._stopped)

    @property
    def position(self) -> int | None:
        """The seq the hub's frames have reached; ``None`` until it has started."""
        return self.loop.position

    @property
    def follower(self) -> Follower:
        """The hub's own follower (``/follow`` hubs): what every member's client has been sent."""
        if not isinstance(self.loop, HubLoop):
            raise TypeError(f"a {self.mode} hub has no follower")
        return self.loop.follower

    def join(self, member: Member) -> None:
        """Start offering chunks to ``member`` (already counted in ``users``).

        A member joining a hub that has failed fails at once: no chunk would
        ever come, and its client would wait on pings alone.
        """
        if self.failed is not None:
            member.fail(self.failed)
        self.members[member] = None

    def leave(self, member: Member) -> None:
        """Stop offering chunks to ``member``."""
        self.members.pop(member, None)

    def release(self) -> None:
        """One user fewer; the last one stops the hub."""
        self.users -= 1
        if self.users == 0:
            self.loop.stopped = True  # a loop whose cancellation was lost ends at its next step
            self._task.cancel()
            self._on_idle(self)

    async def moved(self, timeout: float) -> None:
        """Until the hub's position changes (or ``timeout`` passes); raises if it failed."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):  # wait_for may drop a cancellation (3.11)
                await asyncio.shield(self._moved)

    def _publish(self, chunk: Chunk | None) -> None:
        """Called by the loop after each step: offer its chunk, wake who waits to join."""
        if chunk is not None:
            for member in list(self.members):
                member.offer(chunk)
                if member.dropped:
                    del self.members[member]
                    self.drops += 1
        moved, self._moved = self._moved, asyncio.get_running_loop().create_future()
        moved.set_result(None)

    def _stopped(self, task: asyncio.Task[None]) -> None:
        error = None if task.cancelled() else task.exception()
        if error is None:
            return
        self.failed = error
        self._on_idle(self)  # a failed hub is forgotten: the next follower starts a new one
        for member in self.members:
            member.fail(error)
        self._moved.set_exception(error)
        self._moved.add_done_callback(lambda done: done.exception())  # retrieved once
