"""Connection limits uvicorn lacks: a head deadline, a body rate, caps per client and in total.

Why a protocol subclass: uvicorn (0.54, ``H11Protocol``) waits for a request
head forever and lets a body trickle in a byte a minute, so 1,100 half-sent
requests held every file descriptor of a 1,024-fd server. Its
``limit_concurrency`` answers 503 only once a head is complete, too late.
This class works per connection, where the sockets are:

- a head must be complete ``head_timeout`` s after the connection opened (or
  after its first byte, on a kept-alive connection); else ``408`` and close;
- a body must make ``body_min_bytes`` of progress in each ``body_window`` s
  while the server is reading it (not while the app has yet to take what
  arrived, nor before it answers ``Expect: 100-continue``); else the
  connection is closed;
- over the total (or one client's) cap, a new connection takes the place of
  the one that has waited longest without a request under way (a half-sent
  head, an idle keep-alive): a slowloris client cannot hold out one that sends
  a whole head at once. With nothing to evict it gets ``503`` (``429`` for the
  per-client cap) and is closed;
- uvicorn's own error answers (``400`` for a malformed request) carry the same
  security headers as every app response (``server.guard.security``).

Relies on uvicorn's ``H11Protocol`` attributes ``conn``, ``transport``,
``flow``, ``client``, ``cycle`` and methods ``connection_made``,
``connection_lost``, ``data_received``, ``on_response_complete``,
``send_400_response``, and ``RequestResponseCycle.waiting_for_100_continue``
(pinned: ``uvicorn==0.54.0``; tests/server/test_connections.py).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from toolview.server.guard.limits import ConnectionGuard, Limits
from toolview.server.guard.refusal import refusal

__all__ = ["GuardedH11Protocol", "guarded_protocol", "server_config"]

_LINGER: Final = 1.0  # a refused connection gets this long to read its answer


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the limits of ``guard`` (set by ``guarded_protocol``)."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.peer = "unknown"
        self.waiting_since: float | None = None  # not None: no request under way
        self._timer: asyncio.TimerHandle | None = None
        self._body_seen = 0  # bytes received while the current body is under way
        self._in_body = False
        self._held_at_last_check = False  # the server held the body back when last checked
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection in (or refuse it) and start its head deadline."""
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else "unknown"
        refused = self.guard.admit(self)
        if refused is not None:
            self._refuse(*refused)
            return
        self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Count the connection out; no timer outlives it."""
        self._cancel_timer()
        self.waiting_since = None
        self.guard.release(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Feed h11, then set the deadline that fits the state the request is in."""
        if self._refused or self.transport.is_closing():
            return  # refused or dropped: whatever else the client sends is ignored
        had_timer = self._timer is not None
        super().data_received(data)
        state = self.conn.their_state
        if state is h11.IDLE and self.cycle_done():
            if not had_timer:
                self._wait_for_head()  # the first bytes of a kept-alive request
            return
        if not (self.cycle_done() and state is h11.SEND_BODY):
            self.waiting_since = None  # else the rest of an answered body: still first to evict
        if state is not h11.SEND_BODY:
            self._in_body = False
            self._cancel_timer()
            return
        if not self._in_body:
            self._in_body, self._body_seen = True, 0
            self._held_at_last_check = self._server_holds_body()
            self._watch_body(0)
        self._body_seen += len(data)

    def on_response_complete(self) -> None:
        """A kept-alive connection waits for its next head: evictable again.

        So is one answered before its body arrived (401, 404, 413), first of
        all: uvicorn reads the rest only to throw it away. It is not closed
        (the client may still be sending, and would miss its answer), but
        while the rest trickled in at the minimum rate it held a slot no one
        could take.
        """
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.SEND_BODY:
            self.waiting_since = float("-inf")
        elif self.conn.their_state is h11.IDLE:
            self.waiting_since = time.monotonic()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a malformed request, with the security headers."""
        self.transport.write(refusal(400, msg))
        self.transport.close()

    def cycle_done(self) -> bool:
        """Whether no request is under way on this connection."""
        return self.cycle is None or self.cycle.response_complete

    def drop(self) -> None:
        """Close this connection now (evicted for a newer one)."""
        self.waiting_since = None
        self._cancel_timer()
        self.guard.release(self)
        self.transport.close()

    def _wait_for_head(self) -> None:
        self.waiting_since = time.monotonic()
        self._set_timer(self.guard.limits.head_timeout, self._head_late)

    def _head_late(self) -> None:
        self._timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.write(refusal(408, "the request head took too long"))
            self.drop()

    def _watch_body(self, seen: int) -> None:
        self._set_timer(self.guard.limits.body_window, lambda: self._check_body(seen))

    def _check_body(self, seen_before: int) -> None:
        """Drop a body that made too little progress in a window the client had whole.

        A window in which the server held the body back at either end does not
        count: the app may have started reading (or answered ``100 Continue``)
        an instant before this check, and the client must get a whole window
        from then (CI once cut a body 4.5 s into a 4.5 s wait this way).
        """
        self._timer = None
        if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
            return
        held_before, held_now = self._held_at_last_check, self._server_holds_body()
        self._held_at_last_check = held_now
        progress = self._body_seen - seen_before
        if progress < self.guard.limits.body_min_bytes and not (held_now or held_before):
            self.drop()  # the app sees a disconnect
            return
        self._watch_body(self._body_seen)

    def _server_holds_body(self) -> bool:
        """Whether a stalled body is the server's doing, not the client's.

        Reading is paused while the app has not taken what arrived; a client
        that sent ``Expect: 100-continue`` waits until the app starts reading.
        """
        waiting = self.cycle is not None and self.cycle.waiting_for_100_continue
        return self.flow.read_paused or waiting

    def _refuse(self, status: int, reason: str) -> None:
        """Answer and half-close; close for good after ``_LINGER`` (so the answer is read)."""
        self._refused = True
        self.transport.write(refusal(status, reason))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(_LINGER, self.transport.close)

    def _set_timer(self, delay: float, callback: Any) -> None:
        self._cancel_timer()
        self._timer = self.loop.call_later(delay, callback)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def guarded_protocol(limits: Limits) -> type[GuardedH11Protocol]:
    """A protocol class for ``uvicorn.Config(http=…)``, sharing one guard per server."""
    return type("GuardedH11", (GuardedH11Protocol,), {"guard": ConnectionGuard(limits)})


def server_config(app: Any, limits: Limits, **options: Any) -> uvicorn.Config:
    """uvicorn's config for ``app`` with the connection limits (``options`` as uvicorn's).

    WebSockets off (``ws="none"``): nothing here speaks them, and an ``Upgrade``
    would hand the connection to a protocol these limits do not guard.
    """
    return uvicorn.Config(app, http=guarded_protocol(limits), ws="none", **options)
