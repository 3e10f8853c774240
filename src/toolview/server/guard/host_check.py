"""DNS rebinding: the server answers only to its own names, before anything else runs.

A web page of ``evil.example`` whose name the attacker re-points at 127.0.0.1
is, for the browser, same-origin with whatever listens there: it may read
every answer. Only the ``Host`` header still says which name the page used, so
a request is served only when it names this server: ``127.0.0.1``,
``localhost`` or ``[::1]`` (or the IP address the connection arrived on) with
the port it arrived on, or a name given with ``--allowed-host``. An IP address
is safe to accept: rebinding needs a name the attacker controls.

Starlette's ``TrustedHostMiddleware`` ignores the port and answers in plain
text; this one checks the port too and answers the API in JSON.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from toolview.server.guard.security import refusal

__all__ = ["LOOPBACK_NAMES", "AllowedHost", "HostCheck", "parse_allowed_host", "split_host"]

LOOPBACK_NAMES: Final = frozenset({"127.0.0.1", "localhost", "[::1]"})
DEFAULT_PORTS: Final = {"http": 80, "ws": 80, "https": 443, "wss": 443}
_HOST: Final = re.compile(r"(?P<name>\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(?P<port>[0-9]{1,5}))?")
_LABEL: Final = r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?"
_NAME: Final = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")


@dataclass(frozen=True)
class AllowedHost:
    """A name the server answers to; ``port=None``: on any port."""

    name: str
    port: int | None = None


def split_host(raw: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` value (name lowercased, IPv6 canonical), or ``None``."""
    match = _HOST.fullmatch(raw.lower())
    if match is None:
        return None
    name, port = match["name"], match["port"]
    if name.startswith("["):
        try:
            name = f"[{ipaddress.IPv6Address(name[1:-1])}]"
        except ValueError:
            return None
    elif _NAME.fullmatch(name) is None:
        return None
    if port is not None and not 0 < int(port) < 65536:
        return None
    return name, None if port is None else int(port)


def parse_allowed_host(raw: str) -> AllowedHost:
    """``NAME`` (any port) or ``NAME:PORT`` (that port only); ``ValueError`` says what is wrong.

    No wildcard, on purpose: a pattern is what a rebinding attacker's name
    would match.
    """
    text = raw.strip()
    if text.count(":") > 1 and not text.startswith("["):
        text = f"[{text}]"  # a bare IPv6 address: no port
    parsed = split_host(text)
    if parsed is None:
        raise ValueError(
            f"{raw!r} is not a host name or IP address with an optional :PORT "
            "(no scheme, no path, no wildcard)"
        )
    return AllowedHost(*parsed)


class HostCheck:
    """Refuses (400) a request whose ``Host`` is not one of the server's names."""

    def __init__(self, app: ASGIApp, allowed: Iterable[AllowedHost] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.accepts(scope):
            await self.app(scope, receive, send)
            return
        message = (
            "this server does not answer to the host name the request was sent to "
            "(DNS rebinding protection): open it as 127.0.0.1 or localhost with its port, "
            "or start it with --allowed-host NAME"
        )
        await refusal(scope["path"], 400, message)(scope, receive, send)

    def accepts(self, scope: Scope) -> bool:
        """Whether the request's one ``Host`` header names this server."""
        hosts = [value for key, value in scope["headers"] if key == b"host"]
        parsed = split_host(hosts[0].decode("latin-1")) if len(hosts) == 1 else None
        if parsed is None:
            return False
        name, port = parsed
        port = port if port is not None else DEFAULT_PORTS.get(scope["scheme"])
        if any(a.name == name and a.port in (None, port) for a in self.allowed):
            return True
        local = scope.get("server")
        if not local or port != local[1]:
            return False
        return name in LOOPBACK_NAMES or name == _literal(str(local[0]))


def _literal(address: str) -> str | None:
    """How a ``Host`` header spells the IP address ``address`` (``None``: not an address)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ip.ipv4_mapped) if ip.ipv4_mapped else f"[{ip}]"
    return str(ip)
