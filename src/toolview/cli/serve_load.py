"""``toolview serve --load FILE.jsonl``: a file's observations into a thread, once.

Why apart: loading is done before the server starts, on the log alone — no
socket, no app — and has its own rules (the thread is named after the file,
spelled as a reachable id; a thread that already has observations is left
as it is, so a restart does not load the file twice).
"""

from __future__ import annotations

import re
from pathlib import Path

from toolview.cli.inputs import InputError, open_input, strip_bom
from toolview.server.ingest.batch import BadBatch, parse_observations
from toolview.server.params import THREAD_ID
from toolview.wire.log import ObservationLog

__all__ = ["load_file", "thread_id_for"]


def thread_id_for(path: Path) -> str:
    """The thread a loaded file goes to: its name, spelled as a reachable thread id."""
    spelled = re.sub(r"[^A-Za-z0-9._-]", "-", path.stem)[:64]
    return spelled if THREAD_ID.fullmatch(spelled) else "loaded"


async def load_file(log: ObservationLog, path: Path) -> str:
    """Load ``path`` into the thread named after it, unless that thread has observations."""
    thread_id = thread_id_for(path)
    try:
        with open_input(str(path)) as stream:
            data, _ = strip_bom(stream.read())  # an editor's mark is no part of line 1
            observations = parse_observations(data, most=None)
    except BadBatch as exc:
        raise InputError(f"{path}: {exc}") from None
    try:
        await log.create_thread(thread_id)
        info = await log.thread(thread_id)
        if info is not None and info.last_seq > 0:
            return f"toolview: thread {thread_id!r} already loaded ({info.last_seq} observations)"
        await log.append(thread_id, observations)
    finally:
        await log.aclose()
    return f"toolview: loaded {len(observations)} observations into thread {thread_id!r}"
