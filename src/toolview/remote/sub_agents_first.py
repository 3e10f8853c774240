"""A server thread read back in the order a session file is read: sub-agents before results.

Why: a server's log holds a sub-agent's observations in the order they were
stored, and that is often after the result of the call that ran it — a
Codex ``spawn_agent`` answers at once while its sub-agent works on; a
watched Claude Code session read whole on start stores the main file before
its sub-agent's file; a sub-agent's last usage and run end come when its
idle file is finished. The page nests them under that call whatever the
order; a stream (``show URL``) draws a call once it is final and lets it go,
so a sub-agent's observation that comes later found no call and was drawn
as a phantom one ("(unnamed tool) — Running"). Read in two passes, the
thread is given with each call's final result moved to just after the last
observation marked with that call — the order a session's loader gives, so
``show URL`` draws what ``show FILE`` and the page draw. Held back: only the
results of calls whose sub-agent goes on after them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Final

from toolview.contract import Observation, ToolResult, is_partial
from toolview.wire.feed import LogItem

__all__ = ["sub_agents_first"]

_DEEPEST: Final = 64  # marks followed up at most this far (a hostile chain costs no more)


def sub_agents_first(read: Callable[[], Iterable[LogItem]]) -> Iterator[Observation]:
    """The thread ``read()`` gives (called twice), each call's final result after its
    sub-agent's last observation."""
    moved = _moves(read())
    held: dict[int, list[tuple[int, int, Observation]]] = {}
    for item in read():
        observation = item.observation
        move = moved.get((item.seq, _result_of(observation)))
        if move is not None:
            after, depth = move
            held.setdefault(after, []).append((-depth, item.seq, observation))
            continue
        yield observation
        yield from _in_order(held.pop(item.seq, []))
    for rest in held.values():  # the thread was cut meanwhile: given all the same
        yield from _in_order(rest)


def _in_order(results: list[tuple[int, int, Observation]]) -> Iterator[Observation]:
    """Results moved to one place: the deepest sub-agent's call first (it ends first)."""
    for _, _, observation in sorted(results, key=lambda r: (r[0], r[1])):
        yield observation


def _result_of(observation: Observation) -> str | None:
    """The call id of a final result, else ``None``."""
    if isinstance(observation, ToolResult) and not is_partial(observation):
        return observation.tool_call_id
    return None


def _moves(items: Iterable[LogItem]) -> dict[tuple[int, str | None], tuple[int, int]]:
    """``(seq, call id)`` of each final result to move → the seq it goes after, its depth.

    A moved result is itself marked when its call is a sub-agent's: the call
    above then waits for it too (a round per level of nesting, at most
    ``_DEEPEST``: past that a result may come before a deeper sub-agent's end,
    drawn as before).
    """
    last: dict[str, int] = {}  # call id → the seq of the last observation marked with it
    results: list[tuple[int, str, str | None]] = []  # (seq, call id, its own mark)
    for item in items:
        marked = item.observation.parent_call_id
        mark = marked if isinstance(marked, str) else None
        if mark is not None:
            last[mark] = item.seq
        call = _result_of(item.observation)
        if call is not None:
            results.append((item.seq, call, mark))
    changed, rounds = True, 0
    while changed and rounds < _DEEPEST:  # one round per level: a hostile chain is cut
        changed, rounds = False, rounds + 1
        for seq, call, mark in results:
            goes = last.get(call, 0)
            if goes > seq and mark is not None and last.get(mark, 0) < goes:
                last[mark], changed = goes, True
    depth = _depths({call: mark for _, call, mark in results if mark is not None})
    return {
        (seq, call): (last[call], depth(call))
        for seq, call, _ in results
        if last.get(call, 0) > seq
    }


def _depths(marks: dict[str, str]) -> Callable[[str], int]:
    """How deep a call sits: 0 for the thread's own, 1 in a sub-agent, … (bounded)."""

    def depth(call: str) -> int:
        level = 0
        while call in marks and level < _DEEPEST:
            call, level = marks[call], level + 1
        return level

    return depth
