"""The live AG-UI hub's loop: a thread's new events, translated and encoded once.

An AG-UI translator's state (the open run, call ids, occurrence suffixes)
is a function of everything before: so the hub replays the thread from its
start silently (``AguiTranslator.skip``) up to the log's end, once, and
translates from there on. A follower catching up (``server.live.agui_follow``)
replays from the start with its own translator, exactly as before the hub;
its state at the hub's seq is the hub's, so it joins with nothing to mend.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ag_ui.core import BaseEvent
from sse_starlette import ServerSentEvent

from toolview.contract import Message, Observation, ToolResult
from toolview.server.live.batches import BATCH, FIRST_BATCH, next_limit
from toolview.server.live.chunk import Chunk
from toolview.wire.agui import AguiTranslator
from toolview.wire.follow import Redactor
from toolview.wire.log import ObservationLog, Replay

__all__ = ["AguiHubLoop", "encode_events", "weight"]


class AguiHubLoop:
    """Reads one thread from the log's end on, as AG-UI events (ids ``<seq>.<n>``)."""

    mode = "agui"

    def __init__(
        self, reads: ObservationLog, thread_id: str, redactor: Redactor, keepalive: float
    ) -> None:
        self.reads = reads
        self.thread_id = thread_id
        self.keepalive = keepalive
        self.translator = AguiTranslator(thread_id, redactor)
        self.position: int | None = None
        self.stopped = False  # the hub stopped: return at the next step

    async def run(self, publish: Callable[[Chunk | None], None]) -> None:
        """Forever: each step's events to ``publish`` as one chunk (``None`` when started)."""
        info = await self.reads.thread(self.thread_id)
        end = info.last_seq if info else 0
        replay = Replay(self.reads, self.thread_id, 0)
        while replay.position < end:  # the translator's state at the log's end
            items = await replay.next_batch(min(BATCH, end - replay.position))
            if not items:
                break
            for item in items:
                self.translator.skip(item.seq, item.observation)
        self.position = replay.position
        publish(None)
        limit = FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
        while not self.stopped:
            asked = limit
            items = await replay.next_batch(asked)
            parts: list[bytes] = []
            size = 0
            for item in items:
                events = self.translator.push(item.seq, item.observation)
                pairs = [(f"{item.seq}.{n}", event) for n, event in enumerate(events, 1)]
                size += encode_events(pairs, parts) if pairs else weight(item.observation)
            self.position = replay.position
            publish(Chunk.events(b"".join(parts), replay.position) if parts else None)
            if items:
                limit = next_limit(limit, size, len(items))
            if len(items) < asked:  # the end: wait for more
                await self.reads.wait(self.thread_id, replay.position, self.keepalive)


def encode_events(pairs: Sequence[tuple[str, BaseEvent]], into: list[bytes]) -> int:
    """Each ``(id, event)`` as an SSE event appended to ``into``; the JSON's length in all."""
    size = 0
    for event_id, event in pairs:
        data = event.model_dump_json(by_alias=True, exclude_none=True)
        size += len(data)
        into.append(ServerSentEvent(data=data, id=event_id).encode())
    return size


def weight(observation: Observation) -> int:
    """What an observation that sent nothing (skipped, or partial) held: mostly its text.

    Why: sizing batches by sent bytes alone would leave a replay of a long
    thread at the first, small batch size.
    """
    text = observation.text if isinstance(observation, ToolResult | Message) else ""
    return 64 + len(text)
