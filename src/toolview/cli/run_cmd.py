"""``toolview run [--guard FILE] [--record FILE] [--to URL] [--] CMD…``: run a command, watch it.

Why a command of its own: it is the runner host and the guards end to end — a
guard refuses before anything starts (a receipt, exit 126), a running command
shows a live tail in a terminal (``render.terminal.live``), the final render comes from the
terminal surface, and ``--to`` publishes the run live to a server thread
(``cli.publishing``). Exit codes: the command's own; 126 refused by a guard;
127 command not found; 128 + N interrupted by signal N — 130 for SIGINT
(Ctrl-C), 143 for SIGTERM, the shell's convention; 2 bad usage, a broken rules
file or a malformed ``--to`` URL; 75 when the run succeeded but publishing
failed.

Interrupted, the command still gets its final result (the output so far,
``interrupted by SIGINT``, that exit code; see ``hosts.command.runner``):
it is recorded, rendered, and published before the exit (``--to`` waits for
the server as for any run, bounded by ``--publish-timeout``).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, Final

from rich.console import Console

from toolview.cli.failures import EXIT_INTERRUPTED
from toolview.cli.guarding import (
    EXIT_REFUSED,
    GuardFileError,
    add_guard_option,
    broken_guard,
    check_call,
    load_guards,
)
from toolview.cli.publishing import CLOSE_TIMEOUT, add_to_option, start_publishing
from toolview.contract import Observation, encode_observation
from toolview.guards import Guard
from toolview.hosts.command import CommandRunner, RunSummary
from toolview.private_files import open_private
from toolview.render.terminal.live import LiveCalls, live_view, print_thread

__all__ = ["EXIT_REFUSED", "register", "run"]

EXIT_USAGE: Final = 2
PROG: Final = "toolview run"


def register(subparsers: Any) -> None:
    """Add the ``run`` subcommand."""
    parser = subparsers.add_parser(
        "run",
        help="run a command as a shell tool call and render it live",
        description="Run CMD, show its output live, exit with its exit code "
        "(126 if a guard refused it, 130 if interrupted by Ctrl-C, 143 by SIGTERM).",
    )
    add_guard_option(parser)
    parser.add_argument(
        "--record", metavar="FILE", type=Path, help="also write the observations as JSON Lines"
    )
    add_to_option(parser)
    parser.add_argument("argv", nargs=argparse.REMAINDER, metavar="CMD", help="the command")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Check the guards and the URL, run the command, render it; return its exit code."""
    argv = list(args.argv)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(f"{PROG}: no command given (usage: toolview run [--] CMD…)", file=sys.stderr)
        return EXIT_USAGE
    try:
        guard = load_guards(args.guard)
    except GuardFileError as exc:
        return broken_guard(PROG, exc)
    console = Console(highlight=False)
    with contextlib.ExitStack() as stack:
        try:
            record = stack.enter_context(_recorder(args.record))
        except OSError as exc:
            print(f"{PROG}: cannot write {args.record}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
        publishing = start_publishing(
            getattr(args, "to", None), PROG, timeout=getattr(args, "publish_timeout", CLOSE_TIMEOUT)
        )
        if publishing is None:
            return EXIT_USAGE
        code = _run(argv, guard, console, [record, publishing])
        return publishing.finish(code)


Sink = Callable[[Observation], None]


def _run(argv: list[str], guard: Guard | None, console: Console, sinks: list[Sink]) -> int:
    observations: list[Observation] = []
    calls = LiveCalls()

    def observe(observation: Observation) -> None:
        observations.append(observation)
        for sink in sinks:
            sink(observation)
        calls.observe(observation)

    runner = CommandRunner(argv, on_observation=observe)
    refusal = check_call(guard, runner.tool_call)
    if refusal is not None:
        runner.refuse(refusal.reason, refusal.guard if isinstance(refusal.guard, str) else None)
        print_thread(console, observations)
        return EXIT_REFUSED
    summary = _run_live(runner, calls, console)
    print_thread(console, observations)
    if runner.output.spill_path is not None:
        print(f"{PROG}: full output in {runner.output.spill_path}", file=sys.stderr)
    if summary is None:
        return EXIT_INTERRUPTED
    if summary.outcome == "aborted":
        return summary.exit_code if summary.exit_code is not None else EXIT_INTERRUPTED
    return summary.exit_code if summary.exit_code is not None else 1


def _run_live(runner: CommandRunner, calls: LiveCalls, console: Console) -> RunSummary | None:
    """Run with a live view on a terminal; None when interrupted before the run could say so.

    While the command runs, SIGINT (Ctrl-C) and SIGTERM cancel the run with
    that signal rather than raise wherever the main thread happens to be: the
    runner then ends the call with its final result, whatever it was doing (a
    ``KeyboardInterrupt`` in the middle of emitting an observation would lose
    it). Once the run is over the previous handlers are back, so Ctrl-C stops
    the wait for a server again.
    """

    def stop(signum: int, _frame: Any) -> None:
        runner.cancel(signum)

    previous = {signum: _on_signal(signum, stop) for signum in _STOPPING}
    try:
        with live_view(console, calls):
            return runner.run()
    except KeyboardInterrupt:
        return None
    finally:
        for signum, handler in previous.items():
            _on_signal(signum, handler)


_STOPPING: Final = (signal.SIGINT, signal.SIGTERM)


def _on_signal(signum: int, handler: Any) -> Any:
    """Install a handler for ``signum`` (main thread only); return the one it replaced."""
    try:
        return signal.signal(signum, handler)
    except ValueError:  # not the main thread: leave signals alone
        return handler


@contextlib.contextmanager
def _recorder(path: Path | None) -> Iterator[Sink]:
    """Write each observation as a JSON line (flushed, so a crash keeps what was seen).

    The file holds unredacted output, so it is private (0600, see
    ``toolview.private_files``).
    """
    if path is None:
        yield lambda _observation: None
        return
    stream: IO[bytes] = open_private(path)
    with stream:

        def record(observation: Observation) -> None:
            stream.write(encode_observation(observation) + b"\n")
            stream.flush()

        yield record
