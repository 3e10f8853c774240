"""``toolview hook claude-code``: a ``PermissionRequest`` hook that waits for the viewer's decision.

Claude Code runs it when a tool call needs permission. It publishes a
``tool-waiting`` to the session's thread on a ``toolview serve`` (the thread
``serve --watch`` names ``claude-<session id>``), holds the decision's long
poll, and prints the hook's decision JSON. Why it never decides by itself: no
server, a refusal, a timeout or an ``answer`` print nothing and exit 0, so
Claude Code's own prompt asks the person — a broken viewer never lets a call
run. Only hostile input is an error (exit 2, said on stderr), and even that
decides nothing. The URL comes from ``--to`` or ``$TOOLVIEW_URL``, the token
from ``$TOOLVIEW_TOKEN`` (sent as ``remote.token`` allows).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Final

from toolview.cli.failures import EXIT_USAGE

if TYPE_CHECKING:  # the wire (httpx) is imported only once the input is good
    from toolview.hosts.claude_code.permission import PermissionRequest

__all__ = ["TRANSCRIPT_TAIL", "register", "run"]

TRANSCRIPT_TAIL: Final = 256 * 1024  # where the call's tool_use is: the transcript's last lines
_DEFAULT_TIMEOUT: Final = 120.0


def register(subparsers: object) -> None:
    """Add ``hook claude-code``."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "hook",
        help="an agent's permission hook: wait for a decision from the viewer",
        description="Run by a coding agent as its permission hook (see docs/approvals.md).",
    )
    agents = parser.add_subparsers(dest="agent", metavar="AGENT", required=True)
    claude = agents.add_parser(
        "claude-code",
        help="Claude Code's PermissionRequest hook (the hook's JSON on stdin)",
        description="Publish the waiting call to the session's thread, wait for a decision, "
        "print Claude Code's decision JSON. No server or no decision in time: print nothing "
        "(Claude Code's own prompt decides).",
    )
    claude.add_argument("--to", metavar="URL", help="the server (default $TOOLVIEW_URL)")
    claude.add_argument(
        "--timeout",
        type=float,
        default=_DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"wait at most SECONDS for a decision (default {_DEFAULT_TIMEOUT:g})",
    )
    claude.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read, publish, wait, answer; anything but a decision prints nothing that decides."""
    from toolview.hosts.claude_code.permission import INPUT_LIMIT, BadRequest, parse_request

    try:
        request = parse_request(sys.stdin.buffer.read(INPUT_LIMIT + 1))
    except BadRequest as exc:
        print(f"toolview hook: {exc}", file=sys.stderr)
        return EXIT_USAGE
    base = (args.to or os.environ.get("TOOLVIEW_URL") or "").rstrip("/")
    if not base.startswith(("http://", "https://")) or not 0 < args.timeout <= 3600:
        print(
            "toolview hook: want --to http(s)://HOST:PORT and 0 < --timeout ≤ 3600", file=sys.stderr
        )
        return EXIT_USAGE
    output = _decide(base, request, time.monotonic() + args.timeout)
    if output is not None:
        sys.stdout.buffer.write(output)
    return 0


def _decide(base: str, request: PermissionRequest, deadline: float) -> bytes | None:
    """The hook's output once decided; ``None`` when the server fails or time runs out."""
    from toolview.hosts.claude_code.permission import (
        call_id_in,
        hook_output,
        thread_of,
        waiting_of,
    )
    from toolview.remote.client import Publisher, PublishError
    from toolview.remote.decision_wait import wait_for_decision

    thread = thread_of(request)
    call = call_id_in(_tail(request.transcript_path), request)
    try:
        with Publisher(f"{base}/threads/{thread}", timeout=10.0, notify=_say) as publisher:
            publisher.publish([waiting_of(request, call)])
            _say(f"call {call} waits for a decision on {publisher.page_url}")
    except PublishError as exc:
        _say(f"no decision from the viewer ({exc}); Claude Code asks")
        return None
    receipt = wait_for_decision(base, thread, call, deadline, _say)
    if receipt is None or receipt.decision not in ("allow", "deny"):
        _say("Claude Code asks")  # an answer, or a word this hook does not know: the prompt decides
        return None
    return hook_output(receipt.decision, receipt.message)


def _say(message: str) -> None:
    """A line on stderr (Claude Code shows a hook's stderr in its transcript view)."""
    print(f"toolview hook: {message}", file=sys.stderr, flush=True)


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
