"""``GET /api/threads/{id}/agui?follow=1``: the thread as a live AG-UI stream, resumable.

The events of the thread from the start (or after ``Last-Event-ID``), then
live as observations are appended, until the client goes; no implicit finish,
since the thread may go on. As ``/follow`` does, a follower catches up from
the log at its own pace, then writes what the thread's AG-UI hub translated
and encoded once (``server.live.agui_hub``; one that falls behind leaves it and
catches up again), and holds a slot of the client's follow limit
(``server.live.streams``).

Event ids are ``<seq>.<n>``: the n-th (from 1) AG-UI event of observation
``seq``. Why not ``<seq>`` on the last event of each observation's group only:
an SSE client keeps the last id it saw, so a connection cut inside a group
would resume from the group before and repeat the events it already had. With
``<seq>.<n>`` every event is named, so a resume sends exactly the events after
it. A bare ``<seq>`` (``0``: from the start) means after all of that
observation's events.

Resuming replays the log from the start through the translator silently
(``AguiTranslator.skip``), so the runs, ids and occurrence suffixes after the
resume point are the ones an uninterrupted stream would have sent.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Final

from ag_ui.core import BaseEvent
from starlette.requests import Request
from starlette.responses import Response

from toolview.contract import Observation
from toolview.server.errors import ApiError
from toolview.server.live.agui_hub import encode_events, weight
from toolview.server.live.batches import FIRST_BATCH, next_limit
from toolview.server.live.chunk import Chunk
from toolview.server.live.hub import Hub, Member
from toolview.server.live.hubs import Hubs
from toolview.server.live.resume import SEQ_MAX, last_event_id
from toolview.server.live.streams import limited_stream
from toolview.server.state import ServerState, server_state
from toolview.wire.agui import AguiTranslator
from toolview.wire.follow import Redactor
from toolview.wire.log import Replay

__all__ = ["AguiCursor", "Position", "follow_agui", "parse_position"]

_EVENT_ID: Final = re.compile(r"([0-9]{1,19})(?:\.([0-9]{1,9}))?")  # ASCII digits only


@dataclass(frozen=True)
class Position:
    """Where a client is: after ``shown`` events of ``seq`` (``None``: after all of them)."""

    seq: int
    shown: int | None = None


def parse_position(raw: str) -> Position:
    """``<seq>`` or ``<seq>.<n>`` as a ``Position``; ``ValueError`` says what is wrong."""
    match = _EVENT_ID.fullmatch(raw.strip())
    if match is None or int(match[1]) > SEQ_MAX:
        raise ValueError(
            f"Last-Event-ID must be an AG-UI event id (<seq>.<n>) or a seq (0 to {SEQ_MAX}), "
            f"not {raw[:40]!r}"
        )
    seq, shown = match.groups()
    return Position(int(seq), None if shown is None else int(shown))


class AguiCursor:
    """The translator resumed after a position: ``(id, event)`` pairs past it only."""

    def __init__(self, thread_id: str, redactor: Redactor, after: Position) -> None:
        self.translator = AguiTranslator(thread_id, redactor)
        self.after = after

    def push(self, seq: int, observation: Observation) -> list[tuple[str, BaseEvent]]:
        """The events of one observation that lie after the position, each with its id."""
        after = self.after
        if seq < after.seq or (seq == after.seq and after.shown is None):
            self.translator.skip(seq, observation)
            return []
        events = self.translator.push(seq, observation)
        first = after.shown if seq == after.seq and after.shown is not None else 0
        return [(f"{seq}.{n}", event) for n, event in enumerate(events, 1)][first:]


def follow_agui(request: Request, thread_id: str) -> Response:
    """The live stream of an existing thread; ``ApiError`` 400 (a bad parameter) or 429."""
    follow = request.query_params.get("follow")
    if follow != "1":
        raise ApiError(400, f"follow must be '0' or '1', not {follow!r}")
    form = request.query_params.get("format", "sse")
    if form != "sse":
        raise ApiError(400, f"follow=1 streams over SSE only: format must be 'sse', not {form!r}")
    try:
        after = parse_position(last_event_id(request))
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    return limited_stream(request, _events(server_state(request), thread_id, after))


async def _events(state: ServerState, thread_id: str, after: Position) -> AsyncIterator[bytes]:
    """Every event after ``after``, forever: caught up from the log, then the thread's hub."""
    hubs = state.hubs
    hub = hubs.use(thread_id, "agui")
    try:
        while True:
            member = Member(hubs.queue_bytes)
            async with aclosing(_catch_up(hubs, hub, after, member)) as caught:
                async for chunk in caught:
                    yield chunk.data
                    after = Position(chunk.seq)
            try:
                while (chunk_or_none := await member.next()) is not None:
                    yield chunk_or_none.data
                    after = Position(chunk_or_none.seq)
            finally:
                hub.leave(member)  # dropped (fell behind): catch up again after ``after``
    finally:
        hub.release()


async def _catch_up(
    hubs: Hubs, hub: Hub, after: Position, member: Member
) -> AsyncGenerator[Chunk, None]:
    """The log from its start (events after ``after`` only) to the hub's seq; then join.

    It joins only past ``after``: the hub's events before it were sent already.
    """
    thread_id = hub.loop.thread_id
    cursor = AguiCursor(thread_id, hubs.redactor, after)
    replay = Replay(hubs.reads, thread_id, 0)  # identical reads of many followers made once
    limit = FIRST_BATCH  # grown (or shrunk) to the byte budget after each batch
    while True:
        target = hub.position
        if target is not None and target == replay.position >= after.seq:
            hub.join(member)  # no await since the check: the hub is where this follower is
            return
        if target is None or target <= replay.position:
            await hub.moved(hubs.keepalive)  # the hub has not read this far yet
            continue
        asked = min(limit, target - replay.position)  # seqs are gapless: never past the hub
        items = await replay.next_batch(asked)
        parts: list[bytes] = []
        size = 0
        for item in items:
            pairs = cursor.push(item.seq, item.observation)
            size += encode_events(pairs, parts) if pairs else weight(item.observation)
        if parts:
            yield Chunk.events(b"".join(parts), replay.position)
        if items:
            limit = next_limit(limit, size, len(items))
        if len(items) < asked:  # the log holds less than the hub read: wait for it
            await hubs.reads.wait(thread_id, replay.position, hubs.keepalive)
