"""The search worker process: compiles and runs a reader's pattern, never in the server.

Why a process: whatever a pattern does to the ``regex`` module — a crash in
its C code, a compile that allocates gigabytes, a match that will not stop —
happens here, under an address-space limit (``RLIMIT_AS``) and a priority
below the server's, and the server (``server.page.search.worker``) kills and
replaces this process when it overruns. A crash costs one search.

Why long-lived, with a cache: sending a 5,000-call thread's text for every
search costs more than the search. The process keeps the texts it was sent
(least recently used first out, ``CACHE_BYTES``), keyed as the server's own
text cache (``server.page.search.thread_text``: epoch, position, version, field — a key
never names two texts), and is sent only what it lacks.

Messages, each answered once: ``("have", keys)`` → the indexes of the keys it
lacks; ``("search", query, as_regex, keys, fresh, limit, budget)`` → ``("found",
total, stopped, matches)`` or ``("refused", reason)``. A match is ``(item,
line, snippet, start, end)``, ``item`` an index into ``keys``.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import sys
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Final

import regex

from toolview.server.parent_watch import exit_with_parent

__all__ = ["CACHE_BYTES", "COUNT_LIMIT", "Match", "serve"]

CACHE_BYTES: Final = 256 * 1024 * 1024  # bytes of text kept between searches
COUNT_LIMIT: Final = 100_000  # matches counted; more is "truncated"
_SIDE: Final = 60  # snippet characters kept either side of a match
Match = tuple[int, int, str, int, int]


def serve(conn: multiprocessing.connection.Connection, memory: int, niceness: int) -> None:
    """The process's whole life: limits set, then one answer per message until the pipe ends."""
    _limit(memory, niceness)
    cache: OrderedDict[Hashable, str] = OrderedDict()
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] == "have":
            conn.send([index for index, key in enumerate(message[1]) if key not in cache])
        else:
            conn.send(_answer(cache, *message[1:]))


def _limit(memory: int, niceness: int) -> None:
    """Address space capped, priority lowered, and an exit when the server dies (no orphans)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):  # no such limit here (Windows): time still bounds it
        pass
    if hasattr(os, "nice"):
        os.nice(niceness)
    exit_with_parent()


def _answer(
    cache: OrderedDict[Hashable, str],
    query: str,
    as_regex: bool,
    keys: list[Hashable],
    fresh: dict[Hashable, str],
    limit: int,
    budget: float,
) -> tuple[Any, ...]:
    """Compile (never cached by ``regex``), search, keep the fresh texts; a failure says why."""
    try:
        source = query if as_regex else regex.escape(query)
        flags = regex.V0 if as_regex else regex.V0 | regex.IGNORECASE
        pattern = regex.compile(source, flags, cache_pattern=False)
    except (regex.error, OverflowError, RecursionError) as exc:
        return ("refused", f"not a valid regular expression: {exc}")
    except MemoryError:
        cache.clear()
        return ("refused", "the pattern needs more memory than a search may use")
    texts = [fresh[key] if key in fresh else cache.get(key, "") for key in keys]
    _keep(cache, keys, fresh)
    try:
        return ("found", *_search(texts, pattern, limit, budget))
    except MemoryError:
        cache.clear()
        return ("refused", "the search needs more memory than a search may use")


def _keep(
    cache: OrderedDict[Hashable, str], keys: list[Hashable], fresh: dict[Hashable, str]
) -> None:
    """Every key of this search marked recently used, the fresh texts kept, the oldest out."""
    for key in keys:
        if key in cache:
            cache.move_to_end(key)
    cache.update(fresh)
    size = sum(sys.getsizeof(text) for text in cache.values())
    while cache and size > CACHE_BYTES:
        size -= sys.getsizeof(cache.popitem(last=False)[1])


def _search(
    texts: list[str], pattern: regex.Pattern[str], limit: int, budget: float
) -> tuple[int, str | None, list[Match]]:
    """Every match (``limit`` of them listed) within ``budget`` seconds of matching."""
    deadline = time.monotonic() + budget
    total, matches = 0, list[Match]()
    for item, text in enumerate(texts):
        line, counted_to = 1, 0
        left = max(deadline - time.monotonic(), 0.001)
        try:
            for found in pattern.finditer(text, timeout=left):
                start, end = found.span()
                if start == end:
                    continue  # an empty match marks nothing
                total += 1
                if total > COUNT_LIMIT:
                    return COUNT_LIMIT, "count", matches
                if len(matches) < limit:
                    line += text.count("\n", counted_to, start)
                    counted_to = start
                    matches.append((item, line, *_snippet(text, start, end)))
        except TimeoutError:
            return total, "time", matches
    return total, None, matches


def _snippet(text: str, start: int, end: int) -> tuple[str, int, int]:
    """A one-line snippet around a match, and the match's place in it (code points)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    left = max(line_start, start - _SIDE)
    right = min(line_end, end + _SIDE) if end <= line_end else min(end, start + 4 * _SIDE)
    return text[left:right], start - left, min(end, right) - left
