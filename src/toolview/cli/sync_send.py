"""How ``toolview sync`` POSTs a batch: waited out, split when too large, refused loudly.

Why apart from the loop: what the server answers decides what happens to a
batch, and each answer has one right reaction —

* an outage (no connection, 5xx, 429) is waited out, the same batch resent
  under the same key (the state file keeps the place meanwhile);
* 413 (over the server's ``--body-limit``): the batch is sent again one
  observation at a time, each under the batch's key and its index (the
  same split on a resend: still idempotent); a single result still too
  large is cut to its end with the cut recorded (``remote.fit``), anything
  else that cannot fit is said and skipped — never a forwarder stuck forever;
* 409 (the key holds another batch): said, nothing stored twice;
* anything else (a wrong token: 401) is raised: the command stops.

Memory: httpcore leaves each request in reference cycles holding its body
(up to ~8 MiB here); left to the collector's own pace they piled up with the
file's size (peak RSS 121 MiB for a 19 MiB session, 174 MiB for 95 MiB), so
the young generations are collected after each POST.

One HTTP client (one connection pool) for every thread: a new client costs
~28 ms of CPU (its TLS context), which was most of a first sync's CPU (300
sessions: 12.2 s). A ``Publisher`` per thread (it remembers its thread was
made), the ``OPEN`` most recently used kept.
"""

from __future__ import annotations

import gc
import sys
import time
from collections import OrderedDict
from typing import Final

from toolview.contract import Observation, ToolResult
from toolview.remote.client import BatchTooLarge, Publisher, PublishError, client_for
from toolview.remote.fit import fit_result

__all__ = ["FIT_BYTES", "MIN_FIT", "OPEN", "Sender"]

OPEN: Final = 64  # publishers kept (each knows its thread was made: no POST to make it again)
FIT_BYTES: Final = 512 * 1024  # a single result over the server's limit is cut to this, then half
MIN_FIT: Final = 4096  # … down to this: a server that takes less is not a toolview serve
_RETRY: Final = 2.0  # seconds between tries while the server cannot be reached


class Sender:
    """Sends batches to ``base``'s threads with ``token``."""

    def __init__(self, base: str, token: str | None) -> None:
        self.base = base
        self._client = client_for(base, token)
        self._open: OrderedDict[str, Publisher] = OrderedDict()

    def __call__(
        self, thread: str, observations: list[Observation], key: str, fit: int = FIT_BYTES
    ) -> None:
        """POST the batch under ``key`` (see the module for each answer); ``fit``: the size
        a single result over the limit is cut to next."""
        while True:
            try:
                self._publisher(thread).publish(observations, key=key)
                gc.collect(1)  # the body, held in httpcore's request cycles: freed now
                return
            except BatchTooLarge:
                self._split(thread, observations, key, fit)
                return
            except PublishError as exc:
                if exc.status == 409:
                    _say(f"{thread}: {exc}")
                    return
                if not exc.transient:
                    raise
                _say(f"waiting for {self.base}: {exc}")
                time.sleep(exc.retry_after or _RETRY)

    def _split(self, thread: str, observations: list[Observation], key: str, fit: int) -> None:
        """One by one; a single result cut to ``fit`` bytes, then half that, … (a resend
        makes the same cuts under the same keys)."""
        if len(observations) > 1:
            for index, observation in enumerate(observations):
                self(thread, [observation], f"{key}.{index}", fit)
            return
        (observation,) = observations
        fitted = None
        if isinstance(observation, ToolResult) and fit >= MIN_FIT:
            fitted = fit_result(observation, fit)
        if fitted is None:
            _say(f"{thread}: an observation over the server's body limit was skipped")
            return
        self(thread, [fitted], f"{key}.{fit}", fit // 2)

    def _publisher(self, thread: str) -> Publisher:
        publisher = self._open.pop(thread, None) or Publisher(
            f"{self.base}/threads/{thread}", client=self._client
        )
        self._open[thread] = publisher
        while len(self._open) > OPEN:
            self._open.popitem(last=False)  # its thread made; the client's connection kept
        return publisher

    def close(self) -> None:
        """Every connection closed."""
        self._open.clear()
        self._client.close()


def _say(message: str) -> None:
    print(f"toolview sync: {message}", file=sys.stderr, flush=True)
