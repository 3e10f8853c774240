"""One session file forwarded by ``toolview sync``: read, stamp, redact, key, send, save.

Why the watcher's readers: the files are read exactly as ``serve
--watch-agents`` reads them (``server.ingest.watch``: the same formats,
thread ids, read positions and idle finishing), so a session on the team
server is the thread a local ``serve`` would make of it. What differs is
where a batch goes: through the network, so each one is

* stamped: its run-started says the ``machine`` and ``user`` (the index's
  card and the page header show them, from ``contract.session_facts``);
* redacted here, before it leaves the machine (``wire.memo.redact_observation``,
  what every surface and ``share`` apply): the server never holds a secret;
* keyed by (machine, thread, version, start, end, finish): a resend after a
  kill is answered from the server's idempotency keys and stores nothing;
* written ahead: the end is saved before the POST (``sync_state``), so a
  restart resends exactly the same bytes before reading on. One save per
  batch: the commit is saved with the next batch's write-ahead, or at the
  file's end (the whole state is written each time: O(files) bytes).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from toolview.cli.sync_joins import Joins
from toolview.cli.sync_state import Entry, SyncState
from toolview.contract import Observation, RunStarted
from toolview.safety import redact, redact_json
from toolview.server.ingest.watch.formats import SessionFormat
from toolview.server.ingest.watch.opening import open_reader
from toolview.server.ingest.watch.reader import Batch, FileReader, FileReplaced
from toolview.wire.memo import Redactor, redact_observation

__all__ = ["Context", "Identity", "Send", "batch_key", "outgoing", "sync_file"]

# a batch's thread and observations, under its key (raises ``PublishError``)
Send = Callable[[str, list[Observation], str], None]
_REDACTOR = Redactor(text=redact, json=redact_json, budget=0)  # each text is seen once


@dataclass(frozen=True)
class Identity:
    """Where the sessions run: the machine's name and the user's, as declared."""

    machine: str
    user: str


def batch_key(machine: str, batch: Batch, start: int) -> str:
    """The batch's idempotency key: the same bytes of the same file give the same key."""
    after = batch.after
    words = f"{machine}\0{after.thread}\0{after.version}\0{start}\0{after.offset}\0{after.finished}"
    return "sync-" + hashlib.sha256(words.encode()).hexdigest()[:48]


def outgoing(observations: list[Observation], who: Identity) -> list[Observation]:
    """The batch as it leaves: each run-started stamped with ``who``, everything redacted."""
    stamped = [
        msgspec.structs.replace(o, machine=who.machine, user=who.user)
        if isinstance(o, RunStarted)
        else o
        for o in observations
    ]
    return [redact_observation(o, _REDACTOR) for o in stamped]


@dataclass
class Context:
    """What every file's pass shares: the formats, who, the idle seconds, the sub-agents' links."""

    formats: tuple[SessionFormat, ...]
    who: Identity
    idle: float  # seconds a file stays unchanged before it is finished (its run's end sent)
    joins: Joins


def sync_file(
    path: Path, readers: dict[Path, FileReader], state: SyncState, send: Send, context: Context
) -> int | None:
    """Send what ``path`` holds past its saved position: the number of batches sent, ``None``
    for a sub-agent's file whose session or call is not known yet (asked again next pass)."""
    entry = state.files.setdefault(str(path), Entry())
    reader = readers.get(path)
    if reader is None:
        sub, join = context.joins.join(path, state)
        if sub and join is None and entry.stored is None:
            return None
        reader = open_reader(path, entry.stored, context.formats, join)
        if reader is None:
            return 0
        readers[path] = reader
        context.joins.learned(reader.position.thread, reader.take_links())
    sent = 0
    try:
        while (batch := _next(reader, entry, context.idle)) is not None:
            _send(reader, batch, state, entry, (send, context.who))
            context.joins.learned(batch.after.thread, batch.links)
            sent += 1
    except FileReplaced:
        del readers[path]  # replaced or cut: opened again, as new, on the next pass
    if sent:
        state.save()
    return sent


def _next(reader: FileReader, entry: Entry, idle: float) -> Batch | None:
    """The batch in flight when the last run stopped, else the next lines, else a finish."""
    if entry.sending is not None:
        end, finish = entry.sending
        if finish:
            return reader.finish()
        if end > reader.position.offset:
            return reader.read_batch(until=end)
    batch = reader.read_batch()
    if batch is None and _quiet(reader.path, idle):
        return reader.finish()
    return batch


def _quiet(path: Path, idle: float) -> bool:
    try:
        return time.time() - path.stat().st_mtime >= idle
    except OSError:
        return True  # gone: what was read of it is all there is


def _send(
    reader: FileReader, batch: Batch, state: SyncState, entry: Entry, how: tuple[Send, Identity]
) -> None:
    """Saved ahead (with the batches committed before it), sent, committed — saved by the
    next batch's write-ahead or at the file's end (a kill between: the same batch again)."""
    send, who = how
    start = reader.position.offset
    if batch.observations:
        entry.sending = (batch.after.offset, batch.after.finished)
        state.save()
        key = batch_key(who.machine, batch, start)
        send(batch.after.thread, outgoing(batch.observations, who), key)
    reader.commit(batch)
    entry.stored, entry.sending = reader.stored, None
