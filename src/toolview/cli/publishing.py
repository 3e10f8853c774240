"""``--to URL/threads/ID``: publish a run live to a ``toolview serve`` thread.

Why a small wrapper: ``toolview run`` and ``toolview pi`` publish the same way
— the URL is checked before anything runs, the page's address goes to stderr,
every observation is handed to a ``BackgroundPublisher`` (so the run never
waits for the network), and at the end a publish that failed is reported and
turns a successful run's exit code into ``EXIT_PUBLISH_FAILED``. A server
that goes away (a restart, its Redis down) is retried for as long as the
command runs and then up to ``--publish-timeout`` seconds; stderr says when
an outage starts and ends, and at the end what could not be published
(Ctrl-C stops that last wait). The wire is imported only when ``--to`` is
given, so the commands start fast without it. The token, if
the server wants one, comes from ``TOOLVIEW_TOKEN`` (never from the command
line, where every user of the machine could read it), and is sent only where
``remote.token`` allows: a loopback host, https, or a host named in
``$TOOLVIEW_TOKEN_HOSTS``; otherwise stderr says why it was not sent.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Final

from toolview.contract import Observation

if TYPE_CHECKING:  # the wire (httpx and all) is imported only when --to is given
    from toolview.remote.sender import BackgroundPublisher

__all__ = [
    "CLOSE_TIMEOUT",
    "EXIT_BAD_URL",
    "EXIT_PUBLISH_FAILED",
    "Publishing",
    "add_to_option",
    "start_publishing",
]

EXIT_BAD_URL: Final = 2
EXIT_PUBLISH_FAILED: Final = 75  # sysexits' EX_TEMPFAIL: the run was fine, publishing was not
_REQUEST_TIMEOUT: Final = 15.0
CLOSE_TIMEOUT: Final = 60.0


def add_to_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--to URL`` and ``--publish-timeout SECONDS``."""
    parser.add_argument(
        "--to",
        metavar="URL",
        help="also publish the run live to a toolview server thread, "
        "e.g. http://127.0.0.1:8765/threads/build (token from $TOOLVIEW_TOKEN, sent "
        "only to loopback, over https, or to a host in $TOOLVIEW_TOKEN_HOSTS)",
    )
    parser.add_argument(
        "--publish-timeout",
        type=_seconds,
        default=CLOSE_TIMEOUT,
        metavar="SECONDS",
        help="with --to: once the command is over, keep trying to publish what is left "
        f"for up to SECONDS (default {CLOSE_TIMEOUT:g})",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}")
    return value


def start_publishing(
    url: str | None, prog: str, *, timeout: float = CLOSE_TIMEOUT
) -> Publishing | None:
    """A ``Publishing`` for ``--to URL`` (a no-op one without it); None if the URL is bad.

    A malformed URL is reported here, before anything runs. ``timeout``: how
    long ``finish`` keeps trying once the command is over.
    """
    if url is None:
        return Publishing(None, prog)
    from toolview.remote.client import PublishError
    from toolview.remote.sender import BackgroundPublisher

    def say(message: str) -> None:
        print(f"{prog}: publishing: {message}", file=sys.stderr, flush=True)

    try:
        publisher = BackgroundPublisher(url, timeout=_REQUEST_TIMEOUT, notify=say)
    except PublishError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    print(f"{prog}: publishing to {publisher.page_url}", file=sys.stderr)
    return Publishing(publisher, prog, timeout)


class Publishing:
    """The ``--to`` side of one command: a sink for observations, a verdict at the end."""

    def __init__(
        self, publisher: BackgroundPublisher | None, prog: str, timeout: float = CLOSE_TIMEOUT
    ) -> None:
        self.prog = prog
        self._publisher = publisher
        self._timeout = timeout

    def __call__(self, observation: Observation) -> None:
        """Hand one observation to the background publisher (returns at once)."""
        if self._publisher is not None:
            self._publisher.put(observation)

    def finish(self, exit_code: int) -> int:
        """Flush and stop; report a failed publish. Returns the command's exit code."""
        publisher, self._publisher = self._publisher, None
        if publisher is None:
            return exit_code
        from toolview.remote.client import PublishError

        try:
            try:
                publisher.close(timeout=self._timeout)
            except KeyboardInterrupt:  # Ctrl-C while waiting for the server: stop waiting
                publisher.close(timeout=0)
        except PublishError as exc:
            self._report_cut(publisher)
            print(f"{self.prog}: publishing failed: {exc}", file=sys.stderr)
            return exit_code if exit_code != 0 else EXIT_PUBLISH_FAILED
        self._report_cut(publisher)
        return exit_code

    def _report_cut(self, publisher: BackgroundPublisher) -> None:
        """Say which final results the thread shows cut (the local output is whole)."""
        for call, kept in publisher.cut.items():
            print(
                f"{self.prog}: the result of call {call} was over the server's body limit; "
                f"published with only the last {kept} bytes of its output",
                file=sys.stderr,
            )
