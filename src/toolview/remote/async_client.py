"""``AsyncPublisher``: ``Publisher`` for an asyncio program (``await publisher.publish(...)``).

Why its own class: an async agent must not block its event loop on a POST;
this one awaits ``httpx.AsyncClient``. It answers exactly like ``Publisher``
(same URL form, idempotency keys and ``PublishError``s: ``client.check_response``).
For a producer that must never wait at all, ``BackgroundPublisher`` is the one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Self

import httpx

from toolview.contract import Observation
from toolview.remote.client import PublishError, batch_body, check_response, parse_thread_url
from toolview.remote.token import auth_headers
from toolview.wire.idempotency import is_valid_key, new_key

__all__ = ["AsyncPublisher"]


class AsyncPublisher:
    """Publishes observations to one server thread over HTTP, awaiting each batch."""

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        timeout: float = 30.0,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        """``token`` and ``notify`` as for ``Publisher`` (``remote.token``)."""
        self.base, self.thread_id = parse_thread_url(url)
        headers = auth_headers(self.base, token, notify=notify)
        self._client = httpx.AsyncClient(base_url=self.base, headers=headers, timeout=timeout)
        self._created = False

    @property
    def page_url(self) -> str:
        """Where a person watches the thread."""
        return f"{self.base}/threads/{self.thread_id}"

    async def ensure_thread(self) -> None:
        """Create the thread on the server if it does not exist yet."""
        if not self._created:
            await self._request("POST", "/api/threads", json={"id": self.thread_id})
            self._created = True

    async def publish(
        self, observations: Iterable[Observation], *, key: str | None = None
    ) -> list[int]:
        """Store a batch (all or nothing) under ``key``; returns the seqs the server gave it."""
        if key is not None and not is_valid_key(key):
            raise PublishError(f"an idempotency key is 1-128 visible ASCII characters: {key!r}")
        body = batch_body(observations)
        if not body:
            return []
        await self.ensure_thread()
        path = f"/api/threads/{self.thread_id}/observations"
        headers = {
            "content-type": "application/x-ndjson",
            "idempotency-key": key if key is not None else new_key(),
        }
        try:
            response = await self._request("POST", path, content=body, headers=headers)
        except PublishError as exc:
            if exc.status == 404:  # the thread is gone (a fresh log): create it again
                self._created = False
                raise PublishError(str(exc), status=404, transient=True) from None
            raise
        seqs: list[int] = response.json()["seqs"]
        return seqs

    async def _request(self, method: str, path: str, **kwargs: object) -> httpx.Response:
        try:
            response = await self._client.request(method, path, **kwargs)  # type: ignore[arg-type]
        except httpx.HTTPError as exc:
            raise PublishError(f"cannot reach {self.base}: {exc}", transient=True) from None
        check_response(response, self.base)
        return response

    async def aclose(self) -> None:
        """Close the connection."""
        await self._client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
