"""A whole HTTP/1.1 error response as bytes, for answers written below the app.

The connection layer (``server.guard.connections``) answers some requests itself:
a malformed request (400), a head that took too long (408), a connection over
a cap (429 / 503). They carry the same security headers and JSON error body
as the app's own errors, and always close the connection.
"""

from __future__ import annotations

import http

import msgspec

from toolview.server.guard.security import SECURITY_HEADERS

__all__ = ["refusal"]


def refusal(status: int, message: str) -> bytes:
    """``status`` with ``{"error": message}``, the security headers and ``Connection: close``."""
    body = msgspec.json.encode({"error": message})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        (b"connection", b"close"),
        *([(b"retry-after", b"5")] if status in (429, 503) else []),
        *SECURITY_HEADERS,
    ]
    lines = [b"HTTP/1.1 %d %s" % (status, http.HTTPStatus(status).phrase.encode())]
    lines += [name + b": " + value for name, value in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
