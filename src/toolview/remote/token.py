"""Who receives ``$TOOLVIEW_TOKEN``: this machine, a server over https, or a host the user named.

Why: the token was sent to whatever host a URL named, over plain http too. A
URL comes from anywhere (a link pasted into ``toolview show``, a script's
``--to``, a config file), and a bearer token sent in the clear to another
machine is readable by anyone on the path — or simply handed to the host the
URL names. So the *ambient* token (the environment's, set once for every
command) goes only:

* to a loopback host (``safety.loopback``: ``localhost``, ``127.0.0.0/8``,
  ``::1`` — literally, never a name DNS answers), or
* over ``https``, or
* to a host listed in ``$TOOLVIEW_TOKEN_HOSTS`` (comma- or space-separated
  ``HOST`` or ``HOST:PORT``): the user naming a plain-http host explicitly.

A token passed as an argument (``Publisher(url, token=…)``,
``capture(to=…, token=…)``) is that explicit naming for that one call and is
always sent. A withheld token is said (``notify``, else a ``TokenWithheld``
warning), never silently dropped: the request goes out without it, so a
server that wants one answers 401 and the reader knows why.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from typing import Final
from urllib.parse import urlsplit

from toolview.safety.loopback import is_loopback

__all__ = ["HOSTS_ENV", "TOKEN_ENV", "TokenWithheld", "auth_headers", "withheld_reason"]

TOKEN_ENV: Final = "TOOLVIEW_TOKEN"
HOSTS_ENV: Final = "TOOLVIEW_TOKEN_HOSTS"


class TokenWithheld(UserWarning):
    """``$TOOLVIEW_TOKEN`` was not sent: plain http to a host that is not this machine."""


def withheld_reason(base: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """Why the ambient token must not go to the server at ``base``; ``None``: it may."""
    parts = urlsplit(base.strip())
    host = parts.hostname or ""
    if parts.scheme.lower() == "https" or is_loopback(host) or _named(host, parts.port, environ):
        return None
    return (
        f"${TOKEN_ENV} was not sent to {parts.scheme}://{parts.netloc}: plain http to a host "
        f"that is not this machine shows it to anyone on the way; use https, or name the host "
        f"in ${HOSTS_ENV} (e.g. {HOSTS_ENV}={host}) to send it anyway"
    )


def _named(host: str, port: int | None, environ: Mapping[str, str]) -> bool:
    """Whether ``$TOOLVIEW_TOKEN_HOSTS`` lists ``host`` (any port) or ``host:port``."""
    listed = set(environ.get(HOSTS_ENV, "").replace(",", " ").lower().split())
    forms = {host, f"[{host}]"}
    if port is not None:
        forms |= {f"{host}:{port}", f"[{host}]:{port}"}
    return not listed.isdisjoint(forms)


def auth_headers(
    base: str, token: str | None = None, *, notify: Callable[[str], None] | None = None
) -> dict[str, str]:
    """The bearer header for the server at ``base``; see the module docstring.

    ``token`` given: sent (the caller named this server). ``None``: the
    environment's, if ``base`` may receive it; else none, and ``notify``
    (default: a ``TokenWithheld`` warning) hears why.
    """
    if token is None:
        token = os.environ.get(TOKEN_ENV) or None
        reason = withheld_reason(base) if token else None
        if reason is not None:
            (notify or _warn)(reason)
            return {}
    return {"authorization": f"Bearer {token}"} if token else {}


def _warn(reason: str) -> None:
    warnings.warn(reason, TokenWithheld, stacklevel=4)
