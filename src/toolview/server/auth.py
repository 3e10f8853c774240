"""Token access: every API and page request carries the server's token.

As ``Authorization: Bearer <token>`` (programs) or as a cookie (browsers). The
cookie is set by visiting a one-time link (``/auth/<key>``) printed at start:
the key works once, so a link left in a terminal's scrollback or a browser's
history cannot be replayed. Comparisons are constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["COOKIE", "OneTimeLinks", "TokenAuth"]

COOKIE: Final = "toolview_token"
_AUTH_PREFIX: Final = "/auth/"


class OneTimeLinks:
    """Sign-in links that each work once."""

    def __init__(self) -> None:
        self._keys: set[str] = set()

    def issue(self) -> str:
        """A fresh path that sets the cookie once, then stops working."""
        key = secrets.token_urlsafe(24)
        self._keys.add(key)
        return f"{_AUTH_PREFIX}{key}"

    def redeem(self, key: str) -> bool:
        """Use up ``key``; ``False`` if it was unknown or already used."""
        match = next((k for k in self._keys if hmac.compare_digest(k, key)), None)
        if match is None:
            return False
        self._keys.discard(match)
        return True


class TokenAuth:
    """Refuses requests without the token; ``token=None`` lets everything through."""

    def __init__(self, app: ASGIApp, token: str | None, links: OneTimeLinks) -> None:
        self.app = app
        self.token = token
        self.links = links

    def allowed(self, headers: Headers) -> bool:
        """Whether the request carries the token, by header or by cookie."""
        if self.token is None:
            return True
        expected = self.token.encode()
        scheme, _, value = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), expected):
            return True
        cookie = _cookie(headers.get("cookie", ""), COOKIE)
        return cookie is not None and hmac.compare_digest(cookie.encode(), self._cookie_value())

    def _cookie_value(self) -> bytes:
        """What the cookie holds: derived from the token, cookie-safe, not the token itself."""
        token = (self.token or "").encode()
        return hmac.new(token, b"toolview browser cookie", hashlib.sha256).hexdigest().encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None:
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith(_AUTH_PREFIX):
            await self._redeem(path[len(_AUTH_PREFIX) :])(scope, receive, send)
            return
        if self.allowed(Headers(scope=scope)):
            await self.app(scope, receive, send)
            return
        await _refusal(path)(scope, receive, send)

    def _redeem(self, key: str) -> Response:
        if self.token is None or not self.links.redeem(key):
            return PlainTextResponse("This sign-in link was already used or is unknown.", 403)
        response = RedirectResponse("/", status_code=303)
        value = self._cookie_value().decode()
        response.set_cookie(COOKIE, value, httponly=True, samesite="strict", path="/")
        return response


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _refusal(path: str) -> Response:
    message = "a token is required: send 'Authorization: Bearer <token>' or open the sign-in link"
    if path.startswith("/api/"):
        return JSONResponse({"error": message}, 401, headers={"www-authenticate": "Bearer"})
    return PlainTextResponse(f"401 Unauthorized: {message}", 401)
