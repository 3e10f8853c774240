"""A real HTTP proxy on a loopback port that loses answers after the server committed.

Why: the one fault idempotency keys exist for — a POST the server stored whose
answer never reached the producer — is hard to hit by killing a server at the
right instant. This proxy makes it exact: it forwards each request to the real
server, waits for the real answer (so the batch *is* committed), and then, for
the POSTs it was told to lose, closes the producer's connection instead of
answering. HTTP/1.1 is parsed with h11 (httpx's own parser).
"""

from __future__ import annotations

import socket
import socketserver
import threading
from collections.abc import Callable

import h11
import httpx

__all__ = ["LossyProxy"]

_HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"content-length", b"host"}


class LossyProxy:
    """Forwards to ``upstream``; loses the answer of every POST ``lose(n)`` picks (n from 1)."""

    def __init__(self, upstream: str, lose: Callable[[int], bool]) -> None:
        self.upstream, self.lose = upstream, lose
        self.posts = 0  # observation POSTs forwarded (each committed or refused upstream)
        self.lost = 0  # answers lost after the server had answered
        self._lock = threading.Lock()
        proxy = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                proxy._serve(self.request)

        socketserver.ThreadingTCPServer.daemon_threads = True
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> LossyProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _serve(self, sock: socket.socket) -> None:
        """One client connection: request by request until it closes or an answer is lost."""
        conn = h11.Connection(h11.SERVER)
        with httpx.Client(base_url=self.upstream, timeout=60) as upstream:
            while True:
                request = _read_request(conn, sock)
                if request is None:
                    return
                method, target, headers, body = request
                answer = upstream.request(method, target, headers=headers, content=body)
                if method == "POST" and target.endswith("/observations") and self._lose_next():
                    sock.shutdown(socket.SHUT_RDWR)  # committed upstream; the producer never hears
                    return
                kept = [(k, v) for k, v in answer.headers.raw if k.lower() not in _HOP_BY_HOP]
                kept.append((b"content-length", str(len(answer.content)).encode()))
                response = h11.Response(status_code=answer.status_code, headers=kept)
                for event in (response, h11.Data(data=answer.content), h11.EndOfMessage()):
                    sock.sendall(conn.send(event) or b"")
                if conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
                    return
                conn.start_next_cycle()

    def _lose_next(self) -> bool:
        with self._lock:
            self.posts += 1
            lose = self.lose(self.posts)
            self.lost += lose
            return lose


def _read_request(
    conn: h11.Connection, sock: socket.socket
) -> tuple[str, str, list[tuple[bytes, bytes]], bytes] | None:
    """The next whole request on ``sock``, or ``None`` once the client is gone."""
    head: h11.Request | None = None
    body = b""
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            data = sock.recv(65536)
            conn.receive_data(data)
            if not data and head is None:
                return None
            continue
        if isinstance(event, h11.Request):
            head = event
        elif isinstance(event, h11.Data):
            body += bytes(event.data)
        elif isinstance(event, h11.EndOfMessage) and head is not None:
            headers = [(k, v) for k, v in head.headers if k.lower() not in _HOP_BY_HOP]
            return head.method.decode(), head.target.decode(), headers, body
        elif isinstance(event, h11.ConnectionClosed):
            return None
