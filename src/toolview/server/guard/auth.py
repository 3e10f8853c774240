"""Token access: every API and page request carries the server's token.

As ``Authorization: Bearer <token>`` (programs) or as a cookie (browsers, for
reading only). The cookie is set by visiting a one-time link (``/auth/<key>``)
printed at start: the key works once, so a link left in a terminal's
scrollback or a browser's history cannot be replayed. Comparisons are
constant-time.

The cookie is not the token, nor derived from it: it is an expiry signed with
a key this process drew at start, so it dies with the server (a restart
needs a new sign-in) and after ``COOKIE_MAX_AGE``. Cookies ignore ports, so
pages on other ports of the host get it too: alone it is never accepted for
an unsafe method (the bearer header writes), and behind TLS it is ``Secure``
with the ``__Host-`` prefix (no other host or path can set it). The one write
a browser makes is a decision on a waiting call, and only with the cookie and
the page token bound to it (``server.guard.page_token``): the cookie the request
was let in with is kept in the scope, so the page can draw that token.

Beside the one token, named ones (``serve --tokens FILE``,
``server.guard.named_tokens``): every bearer value is compared with the one
token and with every named token, all of them; a named one's name is noted
in the scope, for the receipts and the synced machine's name.
"""

from __future__ import annotations

import hmac

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from toolview.server.guard.cross_site import UNSAFE_METHODS
from toolview.server.guard.named_tokens import TOKEN_NAME, NamedTokens
from toolview.server.guard.page_token import (
    CREDENTIAL,
    DECISION_PATH,
    PAGE_TOKEN_HEADER,
    SESSION,
    PageTokens,
)
from toolview.server.guard.security import refusal
from toolview.server.guard.sign_in import (
    AUTH_PREFIX,
    COOKIE,
    COOKIE_MAX_AGE,
    SECURE_COOKIE,
    OneTimeLinks,
    SignInCookie,
)

__all__ = ["COOKIE", "COOKIE_MAX_AGE", "SECURE_COOKIE", "OneTimeLinks", "SignInCookie", "TokenAuth"]


class TokenAuth:
    """Refuses requests without a token; no token and no named ones lets everything through."""

    def __init__(
        self,
        app: ASGIApp,
        token: str | None,
        links: OneTimeLinks,
        pages: PageTokens | None = None,
        named: NamedTokens | None = None,
    ) -> None:
        self.app = app
        self.token = token
        self.named = named if named is not None else NamedTokens({})
        self.open = token is None and not self.named
        self.links = links
        self.cookies = SignInCookie()
        self.pages = pages if pages is not None else PageTokens()

    def allowed(self, scope: Scope) -> bool:
        """Whether the request carries the token: the header, or the cookie to read.

        With the cookie, a decision also needs the page token bound to it. The
        credential (and the cookie) are noted in the scope for the routes.
        """
        if self.open:
            return True
        headers = Headers(scope=scope)
        expected = (self.token or "").encode()
        scheme, _, value = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer":
            name = self.named.match(value.strip().encode())  # every one compared, always
            one = hmac.compare_digest(value.strip().encode(), expected) and self.token is not None
            if one or name is not None:
                scope[CREDENTIAL] = "token"
                scope[TOKEN_NAME] = None if one else name
                return True
        cookies = _cookies(headers.get("cookie", ""), _cookie_name(scope))
        session = next((cookie for cookie in cookies if self.cookies.valid(cookie)), None)
        if session is None:
            return False
        scope[SESSION] = session
        if scope["method"] not in UNSAFE_METHODS:
            return True
        scope[CREDENTIAL] = "page"  # a page on another port has the cookie too, not the token
        given = headers.getlist(PAGE_TOKEN_HEADER)
        deciding = DECISION_PATH.fullmatch(scope["path"]) is not None
        return deciding and len(given) == 1 and self.pages.valid(given[0], session)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.open:
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith(AUTH_PREFIX):
            await self._redeem(scope, path[len(AUTH_PREFIX) :])(scope, receive, send)
            return
        if self.allowed(scope):
            await self.app(scope, receive, send)
            return
        deciding = SESSION in scope and DECISION_PATH.fullmatch(path) is not None
        await _refusal(scope, deciding=deciding)(scope, receive, send)

    def _redeem(self, scope: Scope, key: str) -> Response:
        if self.open or not self.links.redeem(key):
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


def _refusal(scope: Scope, *, deciding: bool) -> Response:
    if deciding:  # signed in, deciding, but without its page's token (or a wrong one)
        message = f"the sign-in cookie decides only with its page's token ({PAGE_TOKEN_HEADER})"
        return refusal(scope["path"], 403, message)
    if scope["method"] in UNSAFE_METHODS:
        message = (
            "writing needs 'Authorization: Bearer <token>' (the sign-in cookie only reads, "
            "and decides only with its page's token)"
        )
    else:
        message = "a token is required: send 'Authorization: Bearer <token>' or sign in"
    return refusal(scope["path"], 401, message, headers={"www-authenticate": "Bearer"})
