"""``capture(live=True)``: the run drawn in the terminal as ``toolview run`` draws it.

Why the same pieces as the cli: a running call shows its spinner, elapsed time
and growing tail (``render.terminal.live.LiveCalls``), and each entry is
printed once, above that, when it settles (``render.settling.Settling``) — so
a captured agent reads like ``toolview run`` and ``show --follow``: the
whole run's summary once, when the capture ends.

Threads: the recorder hands observations over under its own lock; Rich's
refresh thread draws ``LiveCalls`` under ``_view_lock``, which the sink holds
only while it updates the view — never while it prints (printing takes Rich's
lock), so the two locks are never held in opposite orders.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TextIO

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.live import Live

from toolview.contract import Entry, Observation, ToolCall, ToolResult
from toolview.render.settling import Settling
from toolview.render.terminal import summary_renderable, thread_renderables
from toolview.render.terminal.live import LiveCalls

__all__ = ["LiveTerminal"]


class _Locked:
    """``LiveCalls`` drawn under the view's lock (the sink updates it from another thread)."""

    def __init__(self, calls: LiveCalls, lock: threading.Lock) -> None:
        self._calls, self._lock = calls, lock

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        with self._lock:
            yield from self._calls.__rich_console__(console, options)


class LiveTerminal:
    """A sink: running calls redrawn on a terminal, every entry printed when final."""

    def __init__(self, file: TextIO | None = None) -> None:
        self.console = Console(file=file, highlight=False)
        self._calls = LiveCalls()
        self._settling = Settling()
        self._view_lock = threading.Lock()
        self._printed = 0
        self._live: Live | None = None
        if self.console.is_terminal:
            self._live = Live(
                _Locked(self._calls, self._view_lock),
                console=self.console,
                transient=True,
                refresh_per_second=8,
            )
            self._live.start()

    def __call__(self, observation: Observation) -> None:
        with self._view_lock:
            self._calls.observe(observation)
            final = self._settling.add(observation)
        self._print(final)
        if self._live is not None and isinstance(observation, ToolCall | ToolResult):
            self._live.refresh()  # a call that starts or says more shows now, not at the tick

    def close(self) -> None:
        """Print what never settled as it stands, then the whole run's summary (the entries
        are printed without one: ``Settling.view``), and stop redrawing."""
        with self._view_lock:
            rest = self._settling.still_open()
            summary = self._settling.summary()
        self._print(rest)
        if summary is not None:
            self._show([summary_renderable(summary)])
        if self._live is not None:
            self._live.stop()

    def _print(self, entries: Sequence[Entry]) -> None:
        for entry in entries:
            with self._view_lock:
                renderables = thread_renderables(self._settling.view(entry))
            self._show(renderables)

    def _show(self, renderables: Sequence[RenderableType]) -> None:
        for renderable in renderables:
            if self._printed:
                self.console.line()
            self.console.print(renderable, markup=False, highlight=False, emoji=False)
            self._printed += 1
