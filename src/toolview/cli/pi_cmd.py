"""``toolview pi``: run the pi coding agent in RPC mode and show the run live.

pi runs with the user's own configuration (its agent dir, models, extensions);
toolview adds only its observer extension (see ``hosts/pi/observer.ts``).
Prompts come from ``--prompt`` (each one a run) or, without it, from standard
input, one per line. Each finished call is drawn by the terminal surface;
the run's lifecycle, messages, calls and refusals are one cleaned line each.
On a terminal, a running call shows its output live (``render.terminal.live``, as
``toolview run`` does); ``--to URL`` also publishes the run to a server thread.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, Final

import msgspec
from rich.console import Console
from rich.live import Live
from rich.text import Text

from toolview.cli.failures import EXIT_INTERRUPTED
from toolview.cli.publishing import (
    CLOSE_TIMEOUT,
    EXIT_BAD_URL,
    Publishing,
    add_to_option,
    start_publishing,
)
from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Truncation,
    is_partial,
)
from toolview.contract.interrupted import interrupted_calls, interrupted_reason
from toolview.contract.thread import Thread
from toolview.hosts.pi import PiFormatError, PiNotInstalled, PiRpc, find_pi
from toolview.render.terminal import render_call
from toolview.render.terminal.live import LiveCalls, live_view
from toolview.render.view import view_entry
from toolview.safety import clean_text

__all__ = ["register", "run"]

PREVIEW_LINES = 20
EXIT_NOT_INSTALLED = 127
_QUIT: Final = "quit"  # a second Ctrl-C: no more prompts
PROG: Final = "toolview pi"


def register(subparsers: Any) -> None:
    """Add the ``pi`` subcommand."""
    parser = subparsers.add_parser(
        "pi",
        help="run the pi coding agent (RPC mode) and show its tool calls live",
        description="Run pi in RPC mode with your own pi configuration. "
        "Arguments after -- go to pi, e.g.: toolview pi --prompt 'fix the tests' -- --model x",
    )
    parser.add_argument(
        "--prompt",
        action="append",
        default=[],
        metavar="TEXT",
        help="a prompt to run (repeatable); without it, prompts are read from stdin",
    )
    add_to_option(parser)
    parser.add_argument("pi_args", nargs=argparse.REMAINDER, help="arguments passed to pi")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run each prompt through pi; exit 0 when every run completed."""
    pi_args = list(args.pi_args)
    if pi_args[:1] == ["--"]:
        pi_args = pi_args[1:]
    publishing = start_publishing(
        getattr(args, "to", None), PROG, timeout=getattr(args, "publish_timeout", CLOSE_TIMEOUT)
    )
    if publishing is None:
        return EXIT_BAD_URL
    return publishing.finish(_run_all(args.prompt, pi_args, publishing))


def _run_all(prompts: list[str], pi_args: list[str], publish: Publishing) -> int:
    try:
        pi_bin = find_pi()
    except PiNotInstalled as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return EXIT_NOT_INSTALLED
    console = Console(highlight=False)
    outcomes: list[str] = []
    try:
        with PiRpc(pi_args, pi_bin=pi_bin, kinds=True) as rpc:
            for prompt in _prompts(prompts):
                outcomes.append(_run_one(rpc, prompt, console, publish))
                if outcomes[-1] == _QUIT:
                    break
    except PiFormatError as exc:
        print(f"toolview: pi failed: {exc}", file=sys.stderr)
        return 1
    if "aborted" in outcomes or _QUIT in outcomes:
        return EXIT_INTERRUPTED
    return 0 if all(outcome == "completed" for outcome in outcomes) else 1


def _prompts(given: list[str]) -> Iterator[str]:
    if given:
        yield from given
        return
    interactive = sys.stdin.isatty()
    while True:
        if interactive:
            print("pi> ", end="", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        if line.strip():
            yield line.strip()


def _run_one(rpc: PiRpc, prompt: str, console: Console, publish: Publishing) -> str:
    """Show one run. The first Ctrl-C asks pi to abort; a second one quits.

    Either way the calls in flight end with the output they had (a final
    result, ``interrupted by SIGINT``) and the run's end says why, before
    anything is published as over (see ``contract.interrupted``).
    """
    outcome = "error"
    thread = Thread()
    calls = LiveCalls()
    asked: list[int] = []  # the signal that asked pi to abort, once one did
    run: list[str] = []  # the run open, if any
    previous = signal.signal(signal.SIGINT, _abort_on_interrupt(rpc, asked))
    try:
        with live_view(console, calls) as live:

            def show(observation: Observation) -> None:
                if isinstance(observation, RunStarted | RunEnded):
                    run[:] = [observation.run_id] if isinstance(observation, RunStarted) else []
                publish(observation)
                thread.add(observation)
                calls.observe(observation)
                _write(console, live, _render(thread, observation, console))

            try:
                for observation in rpc.prompt(prompt):
                    if isinstance(observation, RunEnded):
                        outcome = observation.outcome
                        observation = _ended(thread, observation, asked, show)
                    show(observation)
            except KeyboardInterrupt:  # the second Ctrl-C: quit, the run closed first
                asked[:] = [signal.SIGINT]
                ended = _ended(thread, RunEnded(run[0] if run else "-", "aborted"), asked, show)
                if run:
                    show(ended)
                return _QUIT
    finally:
        signal.signal(signal.SIGINT, previous)
    return outcome


def _ended(
    thread: Thread, ended: RunEnded, asked: list[int], show: Callable[[Observation], None]
) -> RunEnded:
    """After a Ctrl-C, a run's end: its calls in flight get their final results, it says why."""
    if not asked:
        return ended
    for final in interrupted_calls(thread, asked[0]):
        show(final)
    return msgspec.structs.replace(ended, reason=interrupted_reason(asked[0]))


def _abort_on_interrupt(rpc: PiRpc, asked: list[int]) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, _frame: FrameType | None) -> None:
        print("toolview: aborting the run (Ctrl-C again to quit)", file=sys.stderr)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        asked.append(signum)
        rpc.abort()

    return handler


def _write(console: Console, live: Live | None, lines: list[str]) -> None:
    """Lines as they are on a pipe; above the live view (via Rich) on a terminal."""
    if not lines:
        return
    if live is None:
        console.file.write("".join(line + "\n" for line in lines))
        console.file.flush()
        return
    for line in lines:
        console.print(Text.from_ansi(line), soft_wrap=True)


def _render(thread: Thread, observation: Observation, console: Console) -> list[str]:
    """A final result through the terminal surface; everything else as one plain line."""
    if not isinstance(observation, ToolResult) or is_partial(observation):
        return _lines(observation)
    entry = thread.call(observation.tool_call_id)
    if entry is None:
        return _lines(observation)
    try:
        view = view_entry(entry, thread)
        color = console.color_system is not None and not console.no_color
        rendered = render_call(view, width=console.width, color=color)
    except Exception:  # a surface failure must not end the run: fall back to plain lines
        return _lines(observation)
    return [rendered.rstrip("\n")]


def _lines(observation: Observation) -> list[str]:
    """Plain lines for one observation; every untrusted string cleaned."""
    if isinstance(observation, RunStarted):
        return ["▶ run started"]
    if isinstance(observation, RunEnded):
        why = observation.reason
        return [
            f"■ run {observation.outcome}{f': {clean_text(why)}' if isinstance(why, str) else ''}"
        ]
    if isinstance(observation, Message):
        return [f"{observation.role}: {clean_text(observation.text)}"]
    if isinstance(observation, ToolCall):
        args = ", ".join(f"{key}={value!r}" for key, value in observation.args.items())
        return [f"→ {clean_text(observation.tool_name)}({clean_text(args)[:300]})"]
    if isinstance(observation, ToolRefused):
        guard = f" by {clean_text(observation.guard)}" if isinstance(observation.guard, str) else ""
        reason = clean_text(observation.reason)
        return [f"⊘ {clean_text(observation.tool_name)} refused{guard}: {reason}"]
    if isinstance(observation, ToolResult) and observation.complete:
        return _result_lines(observation)
    return []  # partial output: the final result shows it


def _result_lines(result: ToolResult) -> list[str]:
    mark = "✗ error" if result.is_error else "✓ done"
    lines = [f"{mark}: {clean_text(result.tool_name)}"]
    text_lines = clean_text(result.text).split("\n") if result.text else ["(no output)"]
    if len(text_lines) > PREVIEW_LINES:
        left_out = len(text_lines) - PREVIEW_LINES
        text_lines = [f"… {left_out} earlier lines not shown", *text_lines[-PREVIEW_LINES:]]
    lines.extend(f"  {line}" for line in text_lines)
    descriptor = result.descriptor
    if isinstance(descriptor, Descriptor) and isinstance(descriptor.truncated, Truncation):
        cut = descriptor.truncated
        lines.append(f"  [pi kept {cut.shown:,} of {cut.total:,} {cut.unit}]")
    return lines
