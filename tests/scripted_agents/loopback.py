"""A scripted model server's plumbing: an HTTP server on a free 127.0.0.1 port, in a thread,
and a quiet handler base that answers one whole body (SSE or JSON) at a time."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["QuietHandler", "loopback"]


class QuietHandler(BaseHTTPRequestHandler):
    """HTTP/1.1, no request log (the tests assert on recorded requests), GET answers 404."""

    protocol_version = "HTTP/1.1"

    def send_body(self, payload: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:
        """Model lists and the like: nothing here (the CLIs cope)."""
        self.send_error(404)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests assert on recorded requests, not on logs."""


@contextmanager
def loopback(handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    """Serve ``handler`` on a free 127.0.0.1 port until the block ends; yield the port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
