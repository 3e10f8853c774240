"""Headers every response carries: a strict CSP (no inline script) and friends.

Added by a pure ASGI middleware on ``http.response.start``, so streaming
responses (SSE) get them too. It also answers an exception that escapes before
a response started with a bare 500 of its own (then re-raises, for the server's
log): Starlette's error middleware sits outside every user middleware, so its
500 would otherwise go out without these headers.
"""

from __future__ import annotations

from typing import Final

from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toolview.server.errors import error, internal_error
from toolview.server.ingest.otlp_body import OTLP_PATHS

__all__ = ["CSP", "SECURITY_HEADERS", "SecurityHeaders", "refusal"]

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
    "frame-src 'self'"
)
SECURITY_HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Sets the security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": _secured(message.get("headers", []))}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if not started:
                await internal_error()(scope, receive, send_with_headers)
            raise


def _secured(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The response's headers with ours; an MCP App document keeps its own sandboxed policy.

    Only a policy that starts ``sandbox allow-scripts`` (``server.page.calls.app``)
    is kept — stricter than ours for everything but the app's own inline code, an
    opaque origin wherever it is opened — and only its own page may frame it.
    """
    own = next((v for k, v in headers if k.lower() == b"content-security-policy"), b"")
    names = {name for name, _ in SECURITY_HEADERS}
    kept = [(k, v) for k, v in headers if k.lower() not in names]
    if not own.startswith(b"sandbox allow-scripts;"):
        return [*kept, *SECURITY_HEADERS]
    app = [(b"content-security-policy", own), (b"x-frame-options", b"SAMEORIGIN")]
    return [*kept, *app, *(h for h in SECURITY_HEADERS if h[0] not in dict(app))]


def refusal(
    path: str, status: int, message: str, headers: dict[str, str] | None = None
) -> Response:
    """How a guard refuses: ``{"error": …}`` for the API (OTLP's too), a line of text for a page."""
    if path == "/api" or path.startswith("/api/") or path in OTLP_PATHS:
        return error(status, message, headers)
    return PlainTextResponse(f"{status} {message}", status, headers=headers)
