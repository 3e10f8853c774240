"""``ThreadReader``: read a server thread back — its whole log once, or followed live.

``ThreadReader("http://127.0.0.1:8765/threads/build")`` takes the same URL as
``Publisher`` (and ``toolview run --to``), and the same token
(``$TOOLVIEW_TOKEN`` unless given). ``observations()`` pages through
``/events`` (partials included, text already rebuilt by the server);
``follow(after=…)`` reads ``/follow?mode=live`` over SSE (parsed by
``httpx-sse``), rebuilds running output from its deltas (``remote.rebuild``) and,
when the connection drops after it was up — a restart, a proxy, a slow-reader
drop — reconnects with ``Last-Event-ID`` after a bounded backoff, so nothing is
seen twice and nothing is missed. Each is an iterator of ``LogItem``.

Errors are ``ReadError`` subclasses with a message for a person: the server is
unreachable, refuses the token, has no such thread, or sent a frame that
cannot be read.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Final

import httpx
import msgspec
from httpx_sse import SSEError, connect_sse

from toolview.contract import Observation, ObservationError, decode_observation
from toolview.remote.client import PublishError, parse_thread_url
from toolview.remote.rebuild import FrameError, LiveRebuilder
from toolview.remote.token import auth_headers
from toolview.wire.feed import LogItem

__all__ = [
    "BadFrame",
    "NotAThreadURL",
    "NotAuthorized",
    "ReadError",
    "Retrying",
    "ThreadNotFound",
    "ThreadReader",
    "Unreachable",
]

PAGE: Final = 500
BACKOFF: Final = (0.5, 1.0, 2.0, 4.0, 8.0)  # then every 8 s, until ``give_up_after``
READ_TIMEOUT: Final = 60.0  # the server pings every 15 s: silence this long is a dead link


class ReadError(RuntimeError):
    """The thread cannot be read; the message says why."""


class Unreachable(ReadError):
    """No answer from the server (refused, reset, timed out)."""


class NotAuthorized(ReadError):
    """The server wants a token this reader lacks, or refused the one it has."""


class NotAThreadURL(ReadError):
    """The URL does not name a thread (a usage error, not the server's)."""


class ThreadNotFound(ReadError):
    """The server has no such thread."""


class BadFrame(ReadError):
    """The server's answer is not what the API says it is."""


class _Page(msgspec.Struct):
    events: list[_Event]


class _Event(msgspec.Struct):
    seq: int
    observation: msgspec.Raw


_PAGE_DECODER = msgspec.json.Decoder(_Page)
Retrying = Callable[[int, float, ReadError], None]  # attempt, delay, what went wrong


class ThreadReader:
    """Reads one server thread; use as a context manager (or ``close()``)."""

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        timeout: float = 30.0,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        """``token`` and ``notify`` as for ``Publisher`` (``remote.token``)."""
        try:
            self.base, self.thread_id = parse_thread_url(url)
        except PublishError as exc:
            raise NotAThreadURL(str(exc)) from None
        headers = auth_headers(self.base, token, notify=notify)
        if any(not 32 < ord(c) < 127 for c in headers.get("authorization", "")[7:]):
            raise NotAuthorized("a token is visible ASCII characters only")
        timeouts = httpx.Timeout(timeout, read=max(timeout, READ_TIMEOUT))
        self._client = httpx.Client(base_url=self.base, headers=headers, timeout=timeouts)
        self.position = 0
        self._connected = False

    def observations(self, *, page: int = PAGE) -> Iterator[LogItem]:
        """Every observation of the thread in order, up to what the server has now."""
        after = 0
        while True:
            response = self._get(f"{self._path}/events", params={"after": after, "limit": page})
            try:
                events = _PAGE_DECODER.decode(response.content).events
            except (msgspec.DecodeError, RecursionError, UnicodeError) as exc:
                raise BadFrame(f"{self.base} sent an unreadable page of events: {exc}") from None
            if not events:
                return
            for event in events:
                if event.seq <= after:
                    raise BadFrame(f"{self.base} sent seq {event.seq} after {after}")
                yield LogItem(event.seq, _observation(event))
                after = event.seq

    def follow(
        self,
        *,
        after: int = 0,
        on_retry: Retrying | None = None,
        on_resume: Callable[[int], None] | None = None,
        give_up_after: float = 300.0,
    ) -> Iterator[LogItem]:
        """Every observation from after seq ``after``, live, forever (until closed).

        A dropped connection is resumed after the last frame's id; ``on_retry``
        hears of each wait, ``on_resume`` of each reconnection (with the seq).
        Failing to connect the first time, or for ``give_up_after`` seconds, raises.
        """
        self.position = after
        rebuilder = LiveRebuilder()
        failing_since: float | None = None
        attempt, ever_connected = 0, False
        while True:
            self._connected = False
            try:
                yield from self._stream(rebuilder, on_resume if ever_connected else None)
                error: ReadError = Unreachable(f"{self.base} closed the stream")
            except Unreachable as exc:
                error = exc
            if self._connected:
                failing_since, attempt, ever_connected = None, 0, True
            if not ever_connected:
                raise error
            now = time.monotonic()
            failing_since = now if failing_since is None else failing_since
            if now - failing_since > give_up_after:
                raise Unreachable(f"gave up after {now - failing_since:.0f} s: {error}")
            delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
            attempt += 1
            if on_retry is not None:
                on_retry(attempt, delay, error)
            time.sleep(delay)

    def _stream(
        self, rebuilder: LiveRebuilder, on_connect: Callable[[int], None] | None
    ) -> Iterator[LogItem]:
        """One connection's items; a network failure is ``Unreachable``."""
        headers = {"last-event-id": str(self.position)}
        params = {"mode": "live"}
        try:
            with connect_sse(
                self._client, "GET", f"{self._path}/follow", headers=headers, params=params
            ) as source:
                _check(source.response, self.base, self.thread_id)
                self._connected = True
                if on_connect is not None:
                    on_connect(self.position)
                for event in source.iter_sse():
                    if event.event != "message" or not event.data:
                        # not ours; or a keep-alive comment that httpx-sse 0.4 turns
                        # into an empty event once an id was seen (its issue #35) —
                        # the SSE spec dispatches no event without data
                        continue
                    seq = _seq(event.id)
                    try:
                        item = rebuilder.decode(seq, event.data)
                    except FrameError as exc:
                        raise BadFrame(f"{self.base} sent a bad frame: {exc}") from None
                    self.position = seq
                    yield item
        except SSEError as exc:
            raise BadFrame(f"{self.base} did not answer with an event stream: {exc}") from None
        except httpx.HTTPError as exc:
            raise Unreachable(f"cannot reach {self.base}: {_describe(exc)}") from None

    @property
    def _path(self) -> str:
        return f"/api/threads/{self.thread_id}"

    def _get(self, path: str, params: dict[str, int]) -> httpx.Response:
        try:
            response = self._client.get(path, params=params)
        except httpx.HTTPError as exc:
            raise Unreachable(f"cannot reach {self.base}: {_describe(exc)}") from None
        _check(response, self.base, self.thread_id)
        return response

    def close(self) -> None:
        """Close the connection."""
        self._client.close()

    def __enter__(self) -> ThreadReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check(response: httpx.Response, base: str, thread_id: str) -> None:
    """Raise the ``ReadError`` a failed answer stands for."""
    status = response.status_code
    if status < 400:
        return
    if status in (401, 403):
        raise NotAuthorized(f"{base} wants a valid token ({status}; see TOOLVIEW_TOKEN)")
    if status == 404:
        raise ThreadNotFound(f"{base} has no thread {thread_id!r}")
    if status >= 500 or status == 429:  # worth retrying: a restart, a busy server
        raise Unreachable(f"{base} answered {status}")
    raise BadFrame(f"{base} refused the request ({status})")


def _observation(event: _Event) -> Observation:
    try:
        return decode_observation(bytes(event.observation))
    except ObservationError as exc:
        raise BadFrame(f"event {event.seq} breaks the contract: {exc}") from None


def _seq(raw: str) -> int:
    if not raw.isascii() or not raw.isdigit() or len(raw) > 19:
        raise BadFrame(f"a frame's id is not a seq: {raw[:40]!r}")
    return int(raw)


def _describe(exc: httpx.HTTPError) -> str:
    return str(exc) or type(exc).__name__
