"""A server's start: its newest threads drawn before anyone asks for them.

Why: a thread's first view paid for everything at once — reading and
folding every record of the thread (1.2 s at 5,000 calls, 5.1 s at 20,000,
``page.projection``), starting a render process (1.2-1.7 s) and drawing the
window's calls — 4.1 s before Chromium's ``load``, where the goal is 1.5 s.
A server started on a log is most likely opened on the thread that was
written last, so at its start it warms the render processes
(``pieces.warm``) and, meanwhile, projects its newest ``WARM_THREADS``
threads and draws their first window (``page.window``), as a view would —
in a worker thread of the server, not in the render processes: those run
at ``nice`` 10 and, on a machine whose cores are busy, got a few percent of
a core (a 60-call window took 10+ s there); at the start, nobody else's
request waits for the interpreter lock.

A view arriving meanwhile waits on the same projection's lock and drawing
lock, never doing the work twice: it gets what is left of the work, not all
of it. Only what a view would keep anyway is kept (the projections, at most
``PROJECTION_LIMIT``; the pieces in their bounded cache). An older thread's
first view still folds it then. A failing log is left to the first view to
report: warming says nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

from toolview.server.offload import warm_processes
from toolview.server.page.pieces.markup import thread_markup
from toolview.server.page.pieces.warm import warm_render
from toolview.server.page.window import PAGE_CALLS, CallWindow
from toolview.server.state import ServerState
from toolview.wire.log import UnknownThread

__all__ = ["WARM_THREADS", "open_warm", "warm_threads"]

WARM_THREADS: Final = 2  # the newest threads drawn at start (each one thread's memory)
_LOG: Final = logging.getLogger(__name__)


def open_warm(
    state: ServerState, done: Callable[[list[str]], None] | None = None
) -> asyncio.Task[None]:
    """Start warming: the render processes now, the newest threads in the returned task;
    ``done`` is told which threads were drawn (``toolview serve`` says so)."""
    warm_processes(warm_render)

    async def warm() -> None:
        drawn = await warm_threads(state)
        if done is not None:
            done(drawn)

    return asyncio.create_task(warm())


async def warm_threads(state: ServerState, count: int = WARM_THREADS) -> list[str]:
    """Project the ``count`` newest threads and draw their first window, newest first;
    the ids of those drawn."""
    try:
        newest = [info.id for info in (await state.log.threads())[-count:]]
    except Exception as exc:  # the first view reports it, to whoever asks
        _LOG.warning("threads not warmed: %r", exc)
        return []
    drawn: list[str] = []
    for thread_id in reversed(newest):
        window = CallWindow(last=PAGE_CALLS)
        try:
            await thread_markup(state.projections, state.pieces, thread_id, window, alone=True)
        except UnknownThread:
            continue  # deleted meanwhile
        except Exception as exc:
            _LOG.warning("thread %r not warmed: %r", thread_id, exc)
            continue
        drawn.append(thread_id)
    return drawn
