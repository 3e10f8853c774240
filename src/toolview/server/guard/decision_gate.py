"""Whether this server takes decisions on waiting calls, from whom, and the receipt's ``by``.

Kept with the guards: it is the decision route's own rule on top of theirs
(``server.decisions``), and it draws the live page's token
(``server.guard.page_token``), which the page asks for without importing the guards.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass, field

from starlette.types import Scope

from toolview.safety.loopback import is_loopback
from toolview.server.guard.named_tokens import TOKEN_NAME
from toolview.server.guard.page_token import (
    CREDENTIAL,
    PageTokens,
    page_token_for,
    tokenless_refusal,
)

__all__ = ["DecisionGate"]


@dataclass
class DecisionGate:
    """Whether this server takes decisions, and the name a receipt gives whoever decides.

    ``token``: the server has one (the guards then let only its bearer write).
    ``listening``: the address it binds; without a token, only loopback decides.
    """

    token: bool
    listening: str | None
    pages: PageTokens = field(default_factory=PageTokens)
    machine: str = field(default_factory=socket.gethostname)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def refusal(self, scope: Scope) -> str | None:
        """Why this decision is not taken here, or ``None`` when it is.

        With a token, the guard has let in only its bearer or a signed-in
        page with its page token; without, loopback alone, and a browser
        only with its page token (``server.guard.page_token``).
        """
        if self.token:
            return None
        if self.listening is None or not is_loopback(self.listening):
            return "a server without a token takes decisions only when it listens on loopback alone"
        return tokenless_refusal(self.pages, scope)

    def page_token(self, scope: Scope) -> str | None:
        """The token the live page drawn for this request carries (``None``: it cannot decide)."""
        if self.token or (self.listening is not None and is_loopback(self.listening)):
            return page_token_for(self.pages, scope, signed=self.token)
        return None

    def who(self, scope: Scope) -> str:
        """``by`` on the receipt: the named token's name (``serve --tokens``), the
        credential, or the machine a tokenless loopback server is."""
        if scope.get(CREDENTIAL) == "page":
            return "a signed-in page"
        name = scope.get(TOKEN_NAME)
        if isinstance(name, str):
            return name
        return "the server's token" if self.token else f"{self.machine} (loopback, no token)"
