"""Token access: every API and page request carries the server's token.

As ``Authorization: Bearer <token>`` (programs) or as a cookie (browsers, for
reading only). The cookie is set by visiting a one-time link (``/auth/<key>``)
printed at start: the key works once, so a link left in a terminal's
scrollback or a browser's history cannot be replayed. Comparisons are
constant-time.

The cookie is not the token, nor derived from it: it is an expiry signed with
a key this process drew at start, so it dies with the server (a restart
needs a new sign-in) and after ``COOKIE_MAX_AGE``. Cookies ignore ports, so
pages on other ports of the host get it too: it is never accepted for an
unsafe method (only the bearer header writes), and behind TLS it is
``Secure`` with the ``__Host-`` prefix (no other host or path can set it).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from toolview.server.guard.cross_site import UNSAFE_METHODS
from toolview.server.guard.security import refusal

__all__ = ["COOKIE", "COOKIE_MAX_AGE", "SECURE_COOKIE", "OneTimeLinks", "SignInCookie", "TokenAuth"]

COOKIE: Final = "toolview_token"
SECURE_COOKIE: Final = f"__Host-{COOKIE}"  # the name behind TLS
COOKIE_MAX_AGE: Final = 7 * 24 * 3600  # seconds: a week, or until the server stops
_AUTH_PREFIX: Final = "/auth/"
_EXPIRY: Final = re.compile(r"[0-9]{1,12}")


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
        given = key.encode()  # bytes: compare_digest refuses non-ASCII text (a 500)
        match = next((k for k in self._keys if hmac.compare_digest(k.encode(), given)), None)
        if match is None:
            return False
        self._keys.discard(match)
        return True


class SignInCookie:
    """The browser's credential: ``<expiry>.<MAC>`` under a key drawn when this process started."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)

    def issue(self) -> str:
        """A fresh cookie value, good for ``COOKIE_MAX_AGE`` seconds."""
        expires = int(time.time()) + COOKIE_MAX_AGE
        return f"{expires}.{self._mac(expires)}"

    def valid(self, cookie: str) -> bool:
        """Whether ``cookie`` was issued by this process and has not expired."""
        expires, _, mac = cookie.partition(".")
        if _EXPIRY.fullmatch(expires) is None:
            return False
        signed = hmac.compare_digest(mac.encode(), self._mac(int(expires)).encode())
        return signed and int(expires) > time.time()

    def _mac(self, expires: int) -> str:
        return hmac.new(self._key, b"toolview cookie %d" % expires, hashlib.sha256).hexdigest()


class TokenAuth:
    """Refuses requests without the token; ``token=None`` lets everything through."""

    def __init__(self, app: ASGIApp, token: str | None, links: OneTimeLinks) -> None:
        self.app = app
        self.token = token
        self.links = links
        self.cookies = SignInCookie()

    def allowed(self, scope: Scope) -> bool:
        """Whether the request carries the token: the header, or the cookie to read."""
        if self.token is None:
            return True
        headers = Headers(scope=scope)
        expected = self.token.encode()
        scheme, _, value = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), expected):
            return True
        if scope["method"] in UNSAFE_METHODS:
            return False  # a page on another port has the cookie too: it only reads
        cookies = _cookies(headers.get("cookie", ""), _cookie_name(scope))
        return any(self.cookies.valid(cookie) for cookie in cookies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None:
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith(_AUTH_PREFIX):
            await self._redeem(scope, path[len(_AUTH_PREFIX) :])(scope, receive, send)
            return
        if self.allowed(scope):
            await self.app(scope, receive, send)
            return
        await _refusal(scope)(scope, receive, send)

    def _redeem(self, scope: Scope, key: str) -> Response:
        if self.token is None or not self.links.redeem(key):
            return PlainTextResponse("This sign-in link was already used or is unknown.", 403)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            _cookie_name(scope),
            self.cookies.issue(),
            max_age=COOKIE_MAX_AGE,
            path="/",
            secure=_is_tls(scope),
            httponly=True,
            samesite="strict",
        )
        return response


def _is_tls(scope: Scope) -> bool:
    return scope["scheme"] in ("https", "wss")


def _cookie_name(scope: Scope) -> str:
    return SECURE_COOKIE if _is_tls(scope) else COOKIE


def _cookies(header: str, name: str) -> list[str]:
    """Every value of the cookie ``name``, not only the first.

    Why: cookies ignore ports, so a page on another port of this host can set
    a cookie of the same name; sent first, it would hide the real one.
    """
    pairs = (part.strip().partition("=") for part in header.split(";"))
    return [value for key, _, value in pairs if key == name]


def _refusal(scope: Scope) -> Response:
    if scope["method"] in UNSAFE_METHODS:
        message = "writing needs 'Authorization: Bearer <token>' (the sign-in cookie only reads)"
    else:
        message = "a token is required: send 'Authorization: Bearer <token>' or sign in"
    return refusal(scope["path"], 401, message, headers={"www-authenticate": "Bearer"})
