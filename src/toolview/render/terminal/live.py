"""The live view of running calls: ``toolview run``, ``pi``, ``show --follow``, ``capture()``.

Why one module (in the terminal surface, below the cli, so ``capture()`` can
use it without the cli): they all show the same thing while a call runs — a
spinner, "Running", the elapsed time, what runs, and the tail of its output so
far — and both feed it the same contract observations. ``LiveCalls`` keeps a
``Thread``, so which calls run is what their state machines say (a late partial
never revives a finished call; a run's end stops only that run's calls), and
shows the latest (accumulated) partial of each; ``live_view`` shows it with
Rich Live only on a terminal (a pipe gets the final render alone).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Final

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from toolview.contract import (
    CallEntry,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    is_partial,
)
from toolview.contract.call_state import IN_FLIGHT
from toolview.contract.observations import CALL_OBSERVATIONS
from toolview.render.clean import clean_field, shown_output
from toolview.render.limits import Limits
from toolview.render.terminal import render_thread
from toolview.render.terminal.styled import styled_text
from toolview.render.words import duration_text

__all__ = ["LiveCalls", "call_label", "live_view", "print_thread"]

TAIL_LINES: Final = 12
TAIL_CHARS: Final = 4_000
LABEL_CHARS: Final = 300


def call_label(call: ToolCall) -> str:
    """What runs, in one cleaned line: a shell call's command, else name and arguments."""
    command = call.args.get("command")
    if isinstance(command, str):
        return clean_field(" ".join(command.split("\n")), LABEL_CHARS)
    args = json.dumps(call.args, ensure_ascii=False, separators=(", ", ": "))
    return clean_field(f"{call.tool_name} {args}", LABEL_CHARS)


class LiveCalls:
    """Every call still running, with its latest output; a Rich renderable.

    ``observe`` takes each observation of a run into its ``thread``; a call
    shows while ``Thread.state`` says ``pending``, with the output of its
    latest partial (text is accumulated).
    """

    def __init__(self) -> None:
        self.thread = Thread()
        self._started: dict[str, float] = {}  # running calls, in start order
        self._spinner = Spinner("dots", style="cyan")

    @property
    def running(self) -> int:
        """How many calls are running now."""
        return len(self._started)

    def observe(self, observation: Observation) -> None:
        """Update the view from one observation of the run."""
        self.thread.add(observation)
        if isinstance(observation, RunStarted | RunEnded):  # may start or stop many calls
            entries = self.thread.calls()
        elif isinstance(observation, CALL_OBSERVATIONS):
            entry = self.thread.call(observation.tool_call_id)
            entries = [entry] if entry is not None else []
        else:
            return
        for entry in entries:
            if self.thread.state(entry) in IN_FLIGHT:
                self._started.setdefault(entry.tool_call_id, _started_at(entry))
            else:
                self._started.pop(entry.tool_call_id, None)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        now = time.monotonic()
        frame = self._spinner.render(now)
        icon = frame if isinstance(frame, Text) else Text("◌")
        # several calls at once share the screen: each gets a shorter tail
        lines = max(3, TAIL_LINES // max(1, len(self._started)))
        tail = Limits(max_lines=lines, max_chars=TAIL_CHARS)
        parts: list[RenderableType] = []
        for call_id, started in list(self._started.items()):
            entry = self.thread.call(call_id)
            if entry is not None:
                parts.extend(_call_parts(entry, int((now - started) * 1000), icon, tail))
        yield Group(*parts)


def _started_at(entry: CallEntry) -> float:
    """When the call started, on the monotonic clock: from its ``at`` when it has one (a
    session followed from the middle: its running call started before we looked), else now."""
    now = time.monotonic()
    at = entry.call.at if entry.call is not None else None
    if not isinstance(at, str):
        return now
    try:
        ago = (
            datetime.now(UTC) - datetime.fromisoformat(at.replace("Z", "+00:00"))
        ).total_seconds()
    except ValueError:
        return now
    return now - ago if 0 < ago < 7 * 24 * 3600 else now  # a clock gone wrong: from now


def _call_parts(entry: CallEntry, elapsed: int, icon: Text, tail: Limits) -> list[RenderableType]:
    """The title line of one running call, then the tail of its output."""
    label = call_label(entry.call) if entry.call is not None else clean_field(entry.tool_name, 100)
    title = Text.assemble(
        icon,
        (" Running ", "bold cyan"),
        (f"{duration_text(elapsed)}  ", "dim"),
        (label, "bold"),
        no_wrap=True,
        overflow="ellipsis",
    )
    parts: list[RenderableType] = [title]
    latest = entry.result
    if latest is not None and is_partial(latest) and latest.text:
        window = shown_output(latest.text, tail)  # colours kept, a progress bar's last frame
        if window.before is not None:
            parts.append(Text(f"  {window.before}", style="dim"))
        output = styled_text(window.text.rstrip("\n"), window.styles, "dim")
        output.no_wrap, output.overflow = True, "crop"
        parts.append(output)
    return parts


@contextlib.contextmanager
def live_view(console: Console, calls: LiveCalls) -> Iterator[Live | None]:
    """Show ``calls`` live while the block runs — on a terminal only (else yields None).

    The view is transient: it disappears when the block ends, so the final
    render that follows is the only thing left on screen. Print through
    ``console`` meanwhile: Rich puts those lines above the live view.
    """
    if not console.is_terminal:
        yield None
        return
    with Live(calls, console=console, transient=True, refresh_per_second=8) as live:
        yield live


def print_thread(console: Console, observations: Iterable[Observation]) -> None:
    """The final render by the terminal surface, at the console's width.

    Colour only where the console has it (a terminal, no ``NO_COLOR``). The
    surface's text is written as is, never through Rich markup, so nothing a
    tool printed can restyle the terminal or break the render.
    """
    thread = Thread.from_observations(list(observations))
    color = console.color_system is not None and not console.no_color
    console.file.write(render_thread(thread, width=console.width, color=color))
    console.file.flush()
