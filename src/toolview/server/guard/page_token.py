"""The live page's own token: what lets a signed-in browser decide a waiting call.

The sign-in cookie only reads (``server.guard.auth``): a browser sends it with
every request to this host, whichever page asks, so a write it alone allowed
would be a cross-site request forgery. A decision from the page carries, as
well, a header no other page can know: ``PAGE_TOKEN_HEADER``, an HMAC of the
request's sign-in cookie under a key this process drew at start. The server
puts it in the page it draws (a ``<meta>`` tag); a page of another origin
cannot read that page (no CORS grant) and cannot forge the MAC. Bound to the
cookie, a token copied to another browser (another cookie) is worthless, and
a restart (a new key) voids them all. A tokenless server signs no one in: its
page's token is the MAC of an empty session, good on that process only.

The guard checks it; the page draws it through ``DecisionGate.page_token``
(``server.decisions``), never importing the guards.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Final

from starlette.datastructures import Headers
from starlette.types import Scope

__all__ = [
    "CREDENTIAL",
    "DECISION_PATH",
    "PAGE_TOKEN_HEADER",
    "SESSION",
    "PageTokens",
    "page_token_for",
    "tokenless_refusal",
]

PAGE_TOKEN_HEADER: Final = "x-toolview-page-token"
SESSION: Final = "toolview.session"  # scope key: the sign-in cookie a request was let in with
CREDENTIAL: Final = "toolview.credential"  # scope key: "token" or "page", as the guard saw it
DECISION_PATH: Final = re.compile(r"/api/threads/[^/]+/calls/.+/decision", re.DOTALL)
"""The one write the page token may make: a decision (never ingest, never a new thread)."""


class PageTokens:
    """Draws and checks page tokens under a key that lives as long as this process."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)

    def issue(self, session: str | None) -> str:
        """The token of the page drawn for ``session`` (a sign-in cookie; ``None``: no sign-in)."""
        label = b"toolview page " + (session or "").encode()
        return hmac.new(self._key, label, hashlib.sha256).hexdigest()

    def valid(self, given: str, session: str | None) -> bool:
        """Whether ``given`` is ``session``'s token, compared in constant time."""
        return hmac.compare_digest(given.encode(), self.issue(session).encode())


def page_token_for(tokens: PageTokens, scope: Scope, *, signed: bool) -> str | None:
    """The token a page drawn for this request carries, or ``None`` when it may not decide.

    ``signed``: the server has a token, so only a signed-in browser (its
    cookie, kept in the scope by the guard) gets one; a reader let in by
    the bearer header has no cookie to bind to and decides with its bearer.
    """
    session = scope.get(SESSION)
    if signed and not isinstance(session, str):
        return None
    return tokens.issue(session if isinstance(session, str) else None)


def tokenless_refusal(tokens: PageTokens, scope: Scope) -> str | None:
    """Why a tokenless server refuses this decision, or ``None``.

    A program on loopback (no page token, no browser's ``Origin`` or
    ``Sec-Fetch-Site``) decides as before; a browser decides only with the
    page's token, and a token sent must be the right one.
    """
    headers = Headers(scope=scope)
    given = headers.getlist(PAGE_TOKEN_HEADER)
    browser = "origin" in headers or "sec-fetch-site" in headers
    if not given and not browser:
        return None
    if len(given) == 1 and tokens.valid(given[0], None):
        return None
    return f"a decision from a browser needs its page's token ({PAGE_TOKEN_HEADER})"
