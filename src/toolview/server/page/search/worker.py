"""The server's side of its search processes: a job sent, its answer awaited, an overrun killed.

Why: a reader's pattern is compiled and matched in a process of its own
(``server.page.search.child``), never in the server's, under a hard wall-clock
limit (``KILL_AFTER``, past the matching budget) and an address-space limit
(``MEMORY``). A process that overruns is killed and replaced; one that dies
(a crash inside ``regex``) is replaced: either costs that one search, which
answers ``Stopped``, never the server.

``SEARCHERS`` processes, shared by every app of the server process (they are
started on first use, and the keys of the texts they keep are unique within
it). A job waits in a thread for one of them: the thread comes from the
searches' own limiter (``ServerState.searchers``), never from the workers
ingest uses, and the processes run at a lower priority than the server.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import queue
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from toolview.server.page.search import child as search_child

__all__ = ["KILL_AFTER", "MEMORY", "SEARCHERS", "TIME_BUDGET", "Found", "Stopped", "run"]

SEARCHERS: Final = 2  # processes searching at once, all apps together
# seconds of matching per search, all fields together: ``regex`` counts them in CPU time, so
# on a busy machine (a search process runs at a lower priority) they take longer on the clock
TIME_BUDGET: Final = 2.0
KILL_AFTER: Final = 10.0  # wall-clock seconds a search process has to answer, or it is killed
MEMORY: Final = 2 * 1024**3  # bytes of address space a search process may hold
NICENESS: Final = 10  # the server's requests run before a search
_EXCHANGE: Final = 30.0  # seconds for the cheap "which texts do you lack?" question


@dataclass(frozen=True)
class Found:
    """What a search found: ``matches`` are ``(item, line, snippet, start, end)``."""

    total: int
    stopped: str | None
    matches: list[search_child.Match]


class Stopped(Exception):
    """The search did not answer: ``kind`` is ``refused`` (the pattern), ``time``, ``died``
    or ``unavailable`` (no process could start: the search is never run in the server instead).
    """

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(reason)
        self.kind = kind


class _Searcher:
    """One search process and its pipe, started when first needed."""

    def __init__(self) -> None:
        self.process: Any = None
        self.conn: multiprocessing.connection.Connection | None = None

    def ask(self, message: tuple[Any, ...], seconds: float) -> Any:
        """Send ``message``; its answer, or ``Stopped`` (``time``) after ``seconds``."""
        if self.process is not None and not self.process.is_alive():
            self.kill()  # died while idle (the OOM killer, a signal): this job gets a new one
        if self.conn is None:
            try:
                self._start()
            except (OSError, RuntimeError) as exc:  # no semaphores, no processes here
                raise Stopped(f"no search process can start here ({exc!r})", "unavailable") from exc
        assert self.conn is not None
        try:
            self.conn.send(message)
            if not self.conn.poll(seconds):
                raise Stopped(f"no answer within {seconds:g} s", "time")
            return self.conn.recv()
        except (EOFError, OSError) as exc:
            raise Stopped(f"the search process ended ({type(exc).__name__})", "died") from exc

    def _start(self) -> None:
        spawn = multiprocessing.get_context("spawn")  # a fork would copy the server's threads
        mine, theirs = spawn.Pipe()
        self.process = spawn.Process(
            target=search_child.serve, args=(theirs, MEMORY, NICENESS), daemon=True
        )
        self.process.start()
        theirs.close()
        self.conn = mine

    def kill(self) -> None:
        """The process ended whatever it was doing; the next job starts a new one."""
        if self.process is not None:
            self.process.kill()
            self.process.join()
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None


# last in, first out: the process used last is warm and holds the texts of recent searches
_idle: queue.LifoQueue[_Searcher] = queue.LifoQueue()
for _ in range(SEARCHERS):
    _idle.put(_Searcher())


def run(
    keys: Sequence[Hashable],
    make_texts: Callable[[list[int]], list[str]],
    query: str,
    as_regex: bool,
    limit: int,
) -> Found:
    """Search the texts under ``keys`` (blocking: call it in a thread); ``Stopped`` if not.

    ``make_texts(indexes)`` makes the texts the process lacks, here, so
    redaction stays in the server and only new text crosses the pipe.
    """
    searcher = _idle.get()
    try:
        missing: list[int] = searcher.ask(("have", list(keys)), _EXCHANGE)
        fresh = dict(zip((keys[index] for index in missing), make_texts(missing), strict=True))
        job = ("search", query, as_regex, list(keys), fresh, limit, TIME_BUDGET)
        answer = searcher.ask(job, KILL_AFTER)
    except Stopped:
        searcher.kill()
        raise
    finally:
        _idle.put(searcher)
    if answer[0] == "refused":
        raise Stopped(answer[1], "refused")
    return Found(answer[1], answer[2], answer[3])
