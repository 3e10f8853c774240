"""``Publisher``: POST observations to a server thread (``toolview run --to``, ``pi --to``).

``Publisher("http://127.0.0.1:8765/threads/build")`` publishes to thread
``build`` on that server, creating it if needed. Observations go as JSON Lines;
the server stores a batch whole or not at all, and a refusal raises
``PublishError`` with the server's message (which names the bad line).

Each batch carries an ``Idempotency-Key``: pass the same ``key`` to retry a
batch whose answer was lost and the server stores it once (see
``wire.idempotency``); without one, every call gets a fresh key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Final, Self

import httpx

from toolview.contract import Observation, encode_observation
from toolview.remote.backoff import parse_retry_after
from toolview.remote.token import auth_headers
from toolview.wire.idempotency import is_valid_key, new_key

__all__ = [
    "BatchTooLarge",
    "PublishError",
    "Publisher",
    "auth_headers",
    "batch_body",
    "check_response",
    "client_for",
    "parse_thread_url",
]

_THREAD_URL: Final = re.compile(r"^(?P<base>https?://[^/]+)(?:/api)?/threads/(?P<id>[^/?#]+)/?$")
_TRANSIENT: Final = frozenset({408, 425, 429, 500, 502, 503, 504})


class PublishError(RuntimeError):
    """The server refused or could not be reached; the message says which.

    ``transient``: trying the same request again later may succeed (no
    connection, a timeout, ``408``/``429``/``5xx``); anything else is an
    answer that will not change (a bad token, a malformed batch).
    ``retry_after``: the seconds the server asked to wait, if it said;
    ``status``: the HTTP status, if the server answered.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        transient: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.transient, self.retry_after = status, transient, retry_after


class BatchTooLarge(PublishError):
    """The server refused the body as over its size limit (413).

    Its own type because it is the one refusal a publisher can act on: the
    server checks the size before it reads the batch, so nothing was stored
    and the batch can be split and sent again (see ``remote.outbox``).
    """


def parse_thread_url(url: str) -> tuple[str, str]:
    """``(server base URL, thread id)`` from ``http(s)://HOST[:PORT]/threads/ID``."""
    match = _THREAD_URL.match(url.strip())
    if match is None:
        raise PublishError(f"not a thread URL (want http://HOST:PORT/threads/ID): {url!r}")
    return match["base"], match["id"]


class Publisher:
    """Publishes observations to one server thread over HTTP."""

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        timeout: float = 30.0,
        notify: Callable[[str], None] | None = None,
        client: httpx.Client | None = None,
    ) -> None:
        """``token``: sent as given; else ``$TOOLVIEW_TOKEN`` where ``remote.token`` allows
        (``notify``, else a warning, says when it is withheld). ``client``: one made by
        ``client_for`` for the same server, shared (a new client costs ~28 ms of CPU: its TLS
        context; ``toolview sync`` publishes to thousands of threads) and not closed here."""
        self.base, self.thread_id = parse_thread_url(url)
        self._own = client is None
        self._client = client or client_for(self.base, token, timeout=timeout, notify=notify)
        self._created = False

    @property
    def page_url(self) -> str:
        """Where a person watches the thread."""
        return f"{self.base}/threads/{self.thread_id}"

    def ensure_thread(self) -> None:
        """Create the thread on the server if it does not exist yet."""
        if not self._created:
            self._request("POST", "/api/threads", json={"id": self.thread_id})
            self._created = True

    def publish(self, observations: Iterable[Observation], *, key: str | None = None) -> list[int]:
        """Store a batch (all or nothing) under ``key``; returns the seqs the server gave it.

        Retrying with the same ``key`` and the same observations is safe: a
        batch the server already stored is answered with its original seqs.
        """
        if key is not None and not is_valid_key(key):
            raise PublishError(f"an idempotency key is 1-128 visible ASCII characters: {key!r}")
        body = batch_body(observations)
        if not body:
            return []
        self.ensure_thread()
        path = f"/api/threads/{self.thread_id}/observations"
        headers = {
            "content-type": "application/x-ndjson",
            "idempotency-key": key if key is not None else new_key(),
        }
        try:
            response = self._request("POST", path, content=body, headers=headers)
        except PublishError as exc:
            if exc.status == 404:  # the thread is gone (a fresh log): create it again, retry
                self._created = False
                raise PublishError(str(exc), status=404, transient=True) from None
            raise
        seqs: list[int] = response.json()["seqs"]
        return seqs

    def _request(self, method: str, path: str, **kwargs: object) -> httpx.Response:
        try:
            response = self._client.request(method, path, **kwargs)  # type: ignore[arg-type]
        except httpx.HTTPError as exc:
            raise PublishError(f"cannot reach {self.base}: {exc}", transient=True) from None
        check_response(response, self.base)
        return response

    def close(self) -> None:
        """Close the connection (a shared client is its owner's to close)."""
        if self._own:
            self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def client_for(
    base: str,
    token: str | None = None,
    *,
    timeout: float = 30.0,
    notify: Callable[[str], None] | None = None,
) -> httpx.Client:
    """An HTTP client for the server at ``base``, its bearer header as ``auth_headers`` allows."""
    headers = auth_headers(base, token, notify=notify)
    return httpx.Client(base_url=base, headers=headers, timeout=timeout)


def check_response(response: httpx.Response, base: str) -> None:
    """Raise the ``PublishError`` a refusal means (``BatchTooLarge`` for 413); pass a success.

    Shared by ``Publisher`` and ``AsyncPublisher``, so both read an answer alike.
    """
    status = response.status_code
    if status == 413:
        raise BatchTooLarge(f"{base} refused (413): {_reason(response)}", status=413)
    if status >= 400:
        raise PublishError(
            f"{base} refused ({status}): {_reason(response)}",
            status=status,
            transient=status in _TRANSIENT,
            retry_after=parse_retry_after(response.headers.get("retry-after")),
        )


def batch_body(observations: Iterable[Observation]) -> bytes:
    """A batch as the server takes it: one JSON observation per line."""
    return b"".join(encode_observation(o) + b"\n" for o in observations)


def _reason(response: httpx.Response) -> str:
    try:
        return str(response.json().get("error", response.text))
    except ValueError:
        return response.text[:500]
