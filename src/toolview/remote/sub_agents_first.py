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

from toolview.contract import Observation, ToolResult, is_partial
from toolview.wire.feed import LogItem

__all__ = ["sub_agents_first"]


def sub_agents_first(read: Callable[[], Iterable[LogItem]]) -> Iterator[Observation]:
    """The thread ``read()`` gives (called twice), each call's final result after its
    sub-agent's last observation."""
    moved = _moves(read())
    held: dict[int, list[Observation]] = {}
    for item in read():
        observation = item.observation
        after = moved.get((item.seq, _result_of(observation)))
        if after is not None:
            held.setdefault(after, []).append(observation)
            continue
        yield observation
        yield from held.pop(item.seq, [])
    for rest in held.values():  # the thread was cut meanwhile: given all the same
        yield from rest


def _result_of(observation: Observation) -> str | None:
    """The call id of a final result, else ``None``."""
    if isinstance(observation, ToolResult) and not is_partial(observation):
        return observation.tool_call_id
    return None


def _moves(items: Iterable[LogItem]) -> dict[tuple[int, str | None], int]:
    """``(seq, call id)`` of each final result to move → the seq it goes after.

    A moved result is itself marked when its call is a sub-agent's: the call
    above then waits for it too (a few rounds, one per level of nesting).
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
    changed = True
    while changed:
        changed = False
        for seq, call, mark in results:
            goes = last.get(call, 0)
            if goes > seq and mark is not None and last.get(mark, 0) < goes:
                last[mark], changed = goes, True
    return {(seq, call): last[call] for seq, call, _ in results if last.get(call, 0) > seq}
