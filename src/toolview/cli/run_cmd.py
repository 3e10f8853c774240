"""``toolview run [--guard FILE] [--record FILE] [--] CMD…``: run a command, watch it.

Why a command of its own: it is the runner host and the guards end to end — a
guard refuses before anything starts (a receipt, exit 126), a running command
shows a live tail in a terminal, and the final render comes from the terminal
surface. Exit codes: the command's own; 126 refused by a guard; 127 command
not found; 130 interrupted; 2 bad usage or a broken rules file.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, Final

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from toolview.contract import Observation, ToolResult, encode_observation
from toolview.guards import AllGuards, Guard, GuardFileError, Refuse, load_rule_guard
from toolview.hosts.command import CommandRunner, RunSummary
from toolview.render.clean import shown_text
from toolview.render.limits import Limits
from toolview.render.thread import Thread
from toolview.render.words import duration_text
from toolview.safety import clean_text

__all__ = ["EXIT_INTERRUPTED", "EXIT_REFUSED", "LiveRun", "register", "run"]

EXIT_REFUSED: Final = 126
EXIT_INTERRUPTED: Final = 130
EXIT_USAGE: Final = 2
_LIVE_TAIL: Final = Limits(max_lines=12, max_chars=4_000)


class LiveRun:
    """What the live display shows; ``observe`` is the runner's callback."""

    def __init__(self, command: str) -> None:
        self.command = clean_text(command)
        self.started = time.monotonic()
        self.latest: ToolResult | None = None
        self._spinner = Spinner("dots", style="cyan")

    def observe(self, observation: Observation) -> None:
        """Keep the latest (accumulated) result: it replaces the one before."""
        if isinstance(observation, ToolResult):
            self.latest = observation

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        now = time.monotonic()
        elapsed = int((now - self.started) * 1000)
        frame = self._spinner.render(now)
        title = Text.assemble(
            frame if isinstance(frame, Text) else "◌",
            (" Running ", "bold cyan"),
            (f"{duration_text(elapsed)}  ", "dim"),
            (self.command, "bold"),
            no_wrap=True,
            overflow="ellipsis",
        )
        parts = [title]
        if self.latest is not None and self.latest.text:
            window = shown_text(self.latest.text, _LIVE_TAIL, keep="tail")
            if window.before is not None:
                parts.append(Text(f"  {window.before}", style="dim"))
            parts.append(Text(window.text.rstrip("\n"), style="dim", no_wrap=True, overflow="crop"))
        yield Group(*parts)


def register(subparsers: Any) -> None:
    """Add the ``run`` subcommand."""
    parser = subparsers.add_parser(
        "run",
        help="run a command as a shell tool call and render it live",
        description="Run CMD, show its output live, exit with its exit code "
        "(126 if a guard refused it, 130 if interrupted).",
    )
    parser.add_argument(
        "--guard",
        metavar="FILE",
        action="append",
        default=[],
        help="a TOML rules file; refused commands are not run (repeatable)",
    )
    parser.add_argument(
        "--record", metavar="FILE", type=Path, help="also write the observations as JSON Lines"
    )
    parser.add_argument("argv", nargs=argparse.REMAINDER, metavar="CMD", help="the command")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Check the guards, run the command, render it; return its exit code."""
    argv = list(args.argv)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print("toolview run: no command given (usage: toolview run [--] CMD…)", file=sys.stderr)
        return EXIT_USAGE
    try:
        guard = _load_guards(args.guard)
    except GuardFileError as exc:
        print(f"toolview run: broken guard, nothing was run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    console = Console(highlight=False)
    with contextlib.ExitStack() as stack:
        try:
            record = stack.enter_context(_recorder(args.record))
        except OSError as exc:
            print(
                f"toolview run: cannot write {args.record}: {exc.strerror or exc}", file=sys.stderr
            )
            return EXIT_USAGE
        return _run(argv, guard, console, record)


def _run(argv: list[str], guard: Guard | None, console: Console, record: Recorder) -> int:
    observations: list[Observation] = []
    live_run = LiveRun(shlex.join(argv))

    def observe(observation: Observation) -> None:
        observations.append(observation)
        record(observation)
        live_run.observe(observation)

    runner = CommandRunner(argv, on_observation=observe)
    decision = guard.check(runner.tool_call) if guard is not None else None
    if isinstance(decision, Refuse):
        runner.refuse(decision.reason, decision.guard)
        if _terminal_surface() is not None:
            _render_final(observations, console)
        else:
            console.print(_receipt(decision), markup=False, highlight=False, soft_wrap=True)
        return EXIT_REFUSED
    summary = _run_live(runner, live_run, console)
    _render_final(observations, console)
    if runner.output.spill_path is not None:
        print(f"toolview run: full output in {runner.output.spill_path}", file=sys.stderr)
    if summary is None or summary.outcome == "aborted":
        return EXIT_INTERRUPTED
    return summary.exit_code if summary.exit_code is not None else 1


def _run_live(runner: CommandRunner, live_run: LiveRun, console: Console) -> RunSummary | None:
    """Run with a live view on a terminal; None when interrupted (Ctrl-C)."""
    previous = _on_sigterm(lambda *_: runner.cancel())
    live = Live(live_run, console=console, transient=True, refresh_per_second=8)
    try:
        with live if console.is_terminal else contextlib.nullcontext():
            return runner.run()
    except KeyboardInterrupt:
        return None
    finally:
        _on_sigterm(previous)


def _on_sigterm(handler: Any) -> Any:
    """Install a SIGTERM handler (main thread only); return the one it replaced."""
    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        return handler


def _render_final(observations: list[Observation], console: Console) -> None:
    """The final render: the terminal surface when there is one, else plain text."""
    thread = Thread.from_observations(observations)
    surface = _terminal_surface()
    if surface is not None:
        console.print(surface.render_thread(thread))
        return
    from toolview.render import text

    console.print(text.render_thread(thread), markup=False, highlight=False, end="")


def _terminal_surface() -> Any:
    """The terminal surface, if this install has it (else the text surface is used)."""
    try:
        surface = importlib.import_module("toolview.render.terminal")
    except ImportError:
        return None
    return surface if callable(getattr(surface, "render_thread", None)) else None


def _receipt(refusal: Refuse) -> str:
    """One line: which tool, refused, by which guard, why (all cleaned)."""
    return f"⊘ shell refused by {clean_text(refusal.guard)}: {clean_text(refusal.reason)}"


def _load_guards(paths: list[str]) -> Guard | None:
    """Every ``--guard`` file, loaded before anything runs; one broken file stops all."""
    guards = [load_rule_guard(path, cwd=str(Path.cwd())) for path in paths]
    if not guards:
        return None
    return guards[0] if len(guards) == 1 else AllGuards(guards)


Recorder = Callable[[Observation], None]


@contextlib.contextmanager
def _recorder(path: Path | None) -> Iterator[Recorder]:
    """Write each observation as a JSON line (flushed, so a crash keeps what was seen)."""
    if path is None:
        yield lambda _observation: None
        return
    stream: IO[bytes] = path.open("wb")
    with stream:

        def record(observation: Observation) -> None:
            stream.write(encode_observation(observation) + b"\n")
            stream.flush()

        yield record
