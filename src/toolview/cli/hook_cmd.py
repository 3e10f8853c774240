"""``toolview hook claude-code|codex``: a ``PermissionRequest`` hook that waits for the viewer.

Claude Code and Codex (0.171: ``[hooks]`` in ``~/.codex/config.toml``) run it
when a tool call needs permission. It publishes a ``tool-waiting`` to the
session's thread on a ``toolview serve`` (the thread ``serve --watch`` names
``claude-<session id>`` / ``codex-<thread id>``), holds the decision's long
poll (``cli.hook_wait``), and prints the hook's decision JSON. Why it never
decides by itself: no server, a refusal, a timeout or an ``answer`` print
nothing and exit 0, so the agent's own prompt asks the person — a broken
viewer never lets a call run. Hostile input is an error said on stderr that
decides nothing: exit 1, because both agents read exit 2 with a stderr line as
a denial (Claude Code's hooks: 2 blocks, any other non-zero is a non-blocking
error). The URL comes from ``--to`` or
``$TOOLVIEW_URL``, the token from ``$TOOLVIEW_TOKEN``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Final, NamedTuple

__all__ = ["AGENTS", "TRANSCRIPT_TAIL", "Agent", "register", "run"]

TRANSCRIPT_TAIL: Final = 256 * 1024  # where the call is: the transcript's last lines
_DEFAULT_TIMEOUT: Final = 120.0


class Agent(NamedTuple):
    """One agent the hook serves: its name, the module of its sans-IO mapping, the exit
    status for input it refuses (one the agent does not read as a decision)."""

    name: str
    module: str
    bad_input_exit: int


AGENTS: Final = {
    "claude-code": Agent("Claude Code", "toolview.hosts.claude_code.permission", 1),
    "codex": Agent("Codex", "toolview.hosts.codex.permission", 1),
}


def register(subparsers: object) -> None:
    """Add ``hook claude-code`` and ``hook codex``."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "hook",
        help="an agent's permission hook: wait for a decision from the viewer",
        description="Run by a coding agent as its permission hook (see docs/approvals.md).",
    )
    agents = parser.add_subparsers(dest="agent", metavar="AGENT", required=True)
    for key, agent in AGENTS.items():
        sub = agents.add_parser(
            key,
            help=f"{agent.name}'s PermissionRequest hook (the hook's JSON on stdin)",
            description="Publish the waiting call to the session's thread, wait for a decision, "
            f"print {agent.name}'s decision JSON. No server or no decision in time: print "
            f"nothing ({agent.name}'s own prompt decides).",
        )
        sub.add_argument("--to", metavar="URL", help="the server (default $TOOLVIEW_URL)")
        sub.add_argument(
            "--timeout",
            type=float,
            default=_DEFAULT_TIMEOUT,
            metavar="SECONDS",
            help=f"wait at most SECONDS for a decision (default {_DEFAULT_TIMEOUT:g})",
        )
        sub.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read, publish, wait, answer; anything but a decision prints nothing that decides."""
    from importlib import import_module

    from toolview.cli.hook_wait import say, wait_for_decision
    from toolview.hosts.permission_hook import INPUT_LIMIT, BadRequest, hook_output, parse_request

    agent = AGENTS[args.agent]
    try:
        request = parse_request(sys.stdin.buffer.read(INPUT_LIMIT + 1))
    except BadRequest as exc:
        say(str(exc))
        return agent.bad_input_exit
    base = (args.to or os.environ.get("TOOLVIEW_URL") or "").rstrip("/")
    if not base.startswith(("http://", "https://")) or not 0 < args.timeout <= 3600:
        say("want --to http(s)://HOST:PORT and 0 < --timeout ≤ 3600")
        return agent.bad_input_exit
    host = import_module(agent.module)
    call = host.call_id_in(_tail(request.transcript_path), request)
    decided = wait_for_decision(
        base,
        host.thread_of(request),
        host.waiting_of(request, call),
        time.monotonic() + args.timeout,
        agent.name,
    )
    output = hook_output(*decided) if decided is not None else None
    if output is not None:
        sys.stdout.buffer.write(output)
    return 0


def _tail(transcript: str | None) -> bytes:
    """The transcript's last ``TRANSCRIPT_TAIL`` bytes (nothing if it cannot be read)."""
    if not transcript or not Path(transcript).is_file():  # never a FIFO or a device
        return b""
    try:
        with Path(transcript).open("rb") as file:
            size = file.seek(0, os.SEEK_END)
            file.seek(max(0, size - TRANSCRIPT_TAIL))
            return file.read(TRANSCRIPT_TAIL)
    except OSError:
        return b""
