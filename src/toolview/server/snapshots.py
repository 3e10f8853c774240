"""The whole-thread reads (``/events`` pages, AG-UI snapshots), bounded in time and memory.

Why: ``/events`` of a thread with ~20 MB of output blocked every client ~7 s,
and the AG-UI snapshot of a 780k-observation thread took 191 s and 1.87 GB,
all of it on the event loop. Now each is read a byte-sized batch at a time,
its decoding, redaction and encoding done in a worker (``server.offload``):

- an ``/events`` page stops at ``limit`` events or ``PAGE_BYTES`` of them
  (at least one), whichever comes first, and names the ``next`` cursor (the
  ``after`` of the next page; ``null`` at the end of the log);
- an AG-UI snapshot is streamed (SSE, or one JSON array) as it is read, so the
  server holds about one batch per snapshot, paced by the client's reading.
  It is not paged: what an event says (run boundaries, a reused call id's
  suffix) depends on the whole thread before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from functools import partial
from typing import Final

import msgspec

from toolview.server.live.streams import FIRST_BATCH, next_limit
from toolview.server.offload import OffLoopReplay, in_worker
from toolview.server.state import ServerState
from toolview.wire.agui import AguiTranslator, encode_sse
from toolview.wire.feed import LogItem
from toolview.wire.follow import Redactor, redact_observation

__all__ = ["PAGE_BYTES", "agui_snapshot", "events_page"]

PAGE_BYTES: Final = 4 * 1024 * 1024
_FIRST_READ: Final = 4  # records; then sized by bytes (a page may start mid-call, big)


async def events_page(state: ServerState, thread_id: str, after: int, limit: int) -> bytes:
    """The JSON body of one ``/events`` page: at most ``limit`` events and ~``PAGE_BYTES``."""
    replay = OffLoopReplay(state.log, thread_id, after, state.workers)
    listed: list[bytes] = []
    size, last, read = 0, after, _FIRST_READ
    while len(listed) < limit:
        items = await replay.next_batch(min(read, limit - len(listed)))
        if not items:
            break
        room, alone = PAGE_BYTES - size, not listed
        encode = partial(_encode_events, items, state.redactor, room, alone)
        encoded = await in_worker(state.workers, encode)
        listed += encoded
        size += sum(map(len, encoded))
        if encoded:
            last = items[len(encoded) - 1].seq
        if len(encoded) < len(items):
            break  # full: the rest of this batch starts the next page
        read = next_limit(read, sum(map(len, encoded)), len(encoded))
    info = await state.log.thread(thread_id)
    emitted = info.last_seq if info else 0
    head = {
        "thread": thread_id,
        "emitted": emitted,
        "sent": state.sent.get(thread_id).as_json(),
        "next": last if listed and last < emitted else None,
    }
    return msgspec.json.encode(head)[:-1] + b',"events":[' + b",".join(listed) + b"]}"


def _encode_events(
    items: Sequence[LogItem], redactor: Redactor, room: int, alone: bool
) -> list[bytes]:
    """Redacted and encoded, in order, until the next would not fit in ``room`` bytes.

    ``alone``: the page is empty so far, and its first event goes in whatever
    its size. Redaction stops with the page: what does not fit is not done.
    """
    encoded: list[bytes] = []
    for item in items:
        observation = redact_observation(item.observation, redactor)
        stored = {"stored": type(item.delta).__name__.lower()} if item.delta is not None else {}
        event = msgspec.json.encode({"seq": item.seq, "observation": observation, **stored})
        if len(event) > room and not (alone and not encoded):
            break
        encoded.append(event)
        room -= len(event)
    return encoded


async def agui_snapshot(state: ServerState, thread_id: str, form: str) -> AsyncIterator[bytes]:
    """The thread as AG-UI events, SSE frames or one JSON array, a batch at a time."""
    translator = AguiTranslator(thread_id, state.redactor)
    replay = OffLoopReplay(state.log, thread_id, 0, state.workers)
    as_json = form == "json"
    read, first = FIRST_BATCH, True
    if as_json:
        yield b"["
    while items := await replay.next_batch(read):
        chunk = await in_worker(state.workers, partial(_translate, translator, items, as_json))
        read = next_limit(read, len(chunk), len(items))
        if chunk:
            yield chunk if first or not as_json else b"," + chunk
            first = False
    tail = await in_worker(state.workers, partial(_translate, translator, None, as_json))
    if tail:
        yield tail if first or not as_json else b"," + tail
    if as_json:
        yield b"]"


def _translate(translator: AguiTranslator, items: Sequence[LogItem] | None, as_json: bool) -> bytes:
    """The events of ``items`` (``None``: the end of the thread) encoded and joined."""
    if items is None:
        events = translator.finish_implicit()
    else:
        events = [e for item in items for e in translator.push(item.seq, item.observation)]
    if as_json:
        dumped = (e.model_dump_json(by_alias=True, exclude_none=True) for e in events)
        return ",".join(dumped).encode()
    return "".join(map(encode_sse, events)).encode()
