"""Named tokens (``serve --tokens FILE``): one per machine or person, so a request says who sent it.

Why names: with one shared token, every forwarder and every decider is "the
token", and a machine's name on its threads is whatever it declares. With a
token per machine or person, the guard knows which one let a request in and
notes its name in the scope (``TOKEN_NAME``): a decision's receipt says that
name, and a synced run's machine is that name (``stamp_machine``), whatever
the client claims.

How a token is found: the given value and every token are hashed (SHA-256)
and each digest is compared with ``hmac.compare_digest``, all of them, with no
early exit: the time taken says neither which token matched nor how long any
is. A token is at least ``MIN_TOKEN`` characters, printable ASCII without
spaces (it travels in a header); a name is ``NAME_RULE``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from typing import Final

import msgspec

from toolview.contract import Observation, RunStarted

__all__ = [
    "MIN_TOKEN",
    "NAME",
    "NAME_RULE",
    "TOKEN_NAME",
    "NamedTokens",
    "bad_token",
    "stamp_machine",
]

TOKEN_NAME: Final = "toolview.token_name"  # scope key: the named token's name, as the guard saw it
MIN_TOKEN: Final = 32
NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
NAME_RULE: Final = "1-64 of A-Z a-z 0-9 . _ @ -, starting with a letter or digit"


def bad_token(token: str) -> str | None:
    """Why ``token`` cannot be a named token, or ``None`` when it can."""
    if len(token) < MIN_TOKEN:
        return f"a token has at least {MIN_TOKEN} characters, not {len(token)}"
    if not (token.isascii() and token.isprintable()) or " " in token:
        return "a token is printable ASCII without spaces (it is sent in a header)"
    return None


class NamedTokens:
    """The server's named tokens; ``match`` says whose a bearer value is."""

    def __init__(self, tokens: Mapping[str, str]) -> None:
        for name, token in tokens.items():
            why = bad_token(token)
            if not NAME.fullmatch(name) or why is not None:
                raise ValueError(f"token {name[:64]!r}: {why or 'a name is ' + NAME_RULE}")
        if len(set(tokens.values())) != len(tokens):
            raise ValueError("two names share one token: each name needs its own")
        self._digests = tuple((name, _digest(t.encode())) for name, t in tokens.items())

    def __len__(self) -> int:
        return len(self._digests)

    @property
    def names(self) -> Sequence[str]:
        """The names, in the file's order."""
        return [name for name, _ in self._digests]

    def match(self, given: bytes) -> str | None:
        """The name whose token ``given`` is, comparing every one in constant time."""
        digest = _digest(given)
        hits = [hmac.compare_digest(digest, token) for _, token in self._digests]
        return next((name for (name, _), hit in zip(self._digests, hits, strict=True) if hit), None)


def _digest(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


def stamp_machine(observations: list[Observation], name: str | None) -> list[Observation]:
    """The runs started with the named token's name as their ``machine``.

    Why stamp rather than refuse: ``toolview sync`` declares the host's name
    by default, which need not be the token's; stored under the token's name,
    a forwarder cannot put its runs under another machine's name, and an
    honest one needs no flag to match. ``None`` (the shared token): as sent.
    """
    if name is None:
        return observations
    return [
        msgspec.structs.replace(o, machine=name) if isinstance(o, RunStarted) else o
        for o in observations
    ]
