"""``capture(to=URL)``: the run published live to a ``toolview serve`` thread.

Why a ``BackgroundPublisher`` with no waiting at all: the agent must never
wait for the network nor see it fail. ``put`` hands each observation to a
bounded outbox (partials coalesced, the oldest dropped first when full) and a
daemon thread POSTs; a full outbox of finals reports the next one lost at
once (``block_timeout=0``). Everything the publisher could not do is said on
stderr, as it happens and at the end, after a bounded flush.
"""

from __future__ import annotations

import re
import sys
from typing import Final

from toolview.contract import Observation, ToolDecision
from toolview.remote.client import PublishError, parse_thread_url
from toolview.remote.sender import BackgroundPublisher

__all__ = ["Publishing", "thread_url"]

_REQUEST_TIMEOUT: Final = 10.0
_HAS_THREAD: Final = re.compile(r"/threads/[^/?#]+/?$")


def thread_url(to: str, thread_id: str) -> str:
    """``to`` itself when it names a thread (``…/threads/ID``), else ``to/threads/<thread_id>``."""
    to = to.strip()
    return to if _HAS_THREAD.search(to) else f"{to.rstrip('/')}/threads/{thread_id}"


def _say(message: str) -> None:
    print(f"toolview: publishing: {message}", file=sys.stderr, flush=True)


class Publishing:
    """A sink that publishes in the background; ``close`` flushes within a timeout."""

    def __init__(self, to: str, thread_id: str, timeout: float, token: str | None) -> None:
        url = thread_url(to, thread_id)
        try:
            self._publisher = BackgroundPublisher(
                url, token=token, timeout=_REQUEST_TIMEOUT, block_timeout=0.0, notify=_say
            )
        except PublishError as exc:
            raise ValueError(f"capture(to=…): {exc}") from None
        self._timeout = timeout
        self.base, self.thread = parse_thread_url(url)
        self.token = token
        self.receipts: set[str] = set()
        """Calls whose decision the server already holds (its receipt): never sent back to it."""
        print(f"toolview: publishing to {self.page_url}", file=sys.stderr, flush=True)

    @property
    def page_url(self) -> str:
        """Where a person watches the run."""
        return self._publisher.page_url

    def __call__(self, observation: Observation) -> None:
        if isinstance(observation, ToolDecision) and observation.tool_call_id in self.receipts:
            return  # the server's own receipt: sending it back would be a second decision
        self._publisher.put(observation)

    def sent(self, timeout: float) -> bool:
        """Whether everything handed over so far is on the server (waits up to ``timeout`` s)."""
        return self._publisher.sent(timeout)

    def close(self) -> None:
        """Send what is pending (up to the timeout); say on stderr what was not published."""
        try:
            self._publisher.close(timeout=self._timeout)
        except PublishError as exc:
            _say(f"failed: {exc}")
        for call, kept in self._publisher.cut.items():
            _say(f"the result of call {call} was cut to its last {kept} bytes to fit the server")
