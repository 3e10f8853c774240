"""The sign-in credentials a browser holds: one-time links and the signed cookie.

The cookie is not the token, nor derived from it: it is an expiry signed with
a key this process drew at start, so it dies with the server (a restart needs
a new sign-in) and after ``COOKIE_MAX_AGE``. A link works once, so one left in
a terminal's scrollback or a browser's history cannot be replayed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from typing import Final

__all__ = [
    "AUTH_PREFIX",
    "COOKIE",
    "COOKIE_MAX_AGE",
    "SECURE_COOKIE",
    "OneTimeLinks",
    "SignInCookie",
]

COOKIE: Final = "toolview_token"
SECURE_COOKIE: Final = f"__Host-{COOKIE}"  # the name behind TLS
COOKIE_MAX_AGE: Final = 7 * 24 * 3600  # seconds: a week, or until the server stops
AUTH_PREFIX: Final = "/auth/"
_EXPIRY: Final = re.compile(r"[0-9]{1,12}")
_SESSION: Final = re.compile(r"[0-9a-f]{32}")


class OneTimeLinks:
    """Sign-in links that each work once."""

    def __init__(self) -> None:
        self._keys: set[str] = set()

    def issue(self) -> str:
        """A fresh path that sets the cookie once, then stops working."""
        key = secrets.token_urlsafe(24)
        self._keys.add(key)
        return f"{AUTH_PREFIX}{key}"

    def redeem(self, key: str) -> bool:
        """Use up ``key``; ``False`` if it was unknown or already used."""
        given = key.encode()  # bytes: compare_digest refuses non-ASCII text (a 500)
        match = next((k for k in self._keys if hmac.compare_digest(k.encode(), given)), None)
        if match is None:
            return False
        self._keys.discard(match)
        return True


class SignInCookie:
    """The browser's credential: ``<expiry>.<id>.<MAC>``, under a key drawn at start.

    The id is random per sign-in, so two browsers signed in within the same
    second hold different cookies, and a page token bound to one
    (``server.guard.page_token``) is worthless with the other.
    """

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)

    def issue(self) -> str:
        """A fresh cookie value, good for ``COOKIE_MAX_AGE`` seconds."""
        expires = int(time.time()) + COOKIE_MAX_AGE
        session = secrets.token_hex(16)
        return f"{expires}.{session}.{self._mac(expires, session)}"

    def valid(self, cookie: str) -> bool:
        """Whether ``cookie`` was issued by this process and has not expired."""
        expires, _, rest = cookie.partition(".")
        session, _, mac = rest.partition(".")
        if _EXPIRY.fullmatch(expires) is None or _SESSION.fullmatch(session) is None:
            return False
        signed = hmac.compare_digest(mac.encode(), self._mac(int(expires), session).encode())
        return signed and int(expires) > time.time()

    def _mac(self, expires: int, session: str) -> str:
        signed = b"toolview cookie %d %s" % (expires, session.encode())
        return hmac.new(self._key, signed, hashlib.sha256).hexdigest()
