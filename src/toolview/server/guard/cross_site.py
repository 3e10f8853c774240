"""Cross-site requests: a page of another origin may not write, nor use the API at all.

A browser lets any page send a "simple" request without asking the server
first: a form post, or ``fetch(…, {mode: "no-cors"})``, whose body is
``text/plain``, a form or multipart, or absent. The server cannot read the
answer's fate, so it must refuse the request itself:

- an unsafe method (POST, PUT, PATCH, DELETE) needs ``Content-Type:
  application/json`` or ``application/x-ndjson`` (else ``415``), or, on
  OTLP's ``/v1/traces`` and ``/v1/logs`` only, ``application/x-protobuf``: a page can only
  send those after a CORS preflight, and none is ever granted (no
  ``Access-Control-Allow-*`` header is ever sent);
- an unsafe method, or any request to ``/api``, that says it comes from
  elsewhere — an ``Origin`` other than the server's own (``null`` included),
  or ``Sec-Fetch-Site: cross-site|same-site`` — is refused (``403``).

Why ``/api`` reads too: another page could not read the answers (no CORS
grant), but it could hold open the user's follow streams, up to their limit.
Pages and static files stay open to other sites, so a link to a thread works.
Programs (curl, ``toolview run --to``) send neither header and are unaffected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from starlette.datastructures import Headers
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from toolview.server.guard.host_check import DEFAULT_PORTS, split_host
from toolview.server.guard.security import refusal
from toolview.server.ingest.otlp_body import OTLP_PATHS, OTLP_TYPES

__all__ = ["BODY_TYPES", "UNSAFE_METHODS", "CrossSiteGuard", "cross_site_problem"]

UNSAFE_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BODY_TYPES: Final = frozenset({"application/json", "application/x-ndjson"})
_FOREIGN_SITES: Final = frozenset({"cross-site", "same-site"})
_ORIGIN: Final = re.compile(r"(?P<scheme>https?)://(?P<host>[^/?#@]+)")


class CrossSiteGuard:
    """Refuses cross-site requests (403) and writes without a JSON body type (415).

    The body type is checked only where a route takes the method: elsewhere the
    router refuses the request anyway (404, 405), and its answer says more.
    """

    def __init__(self, app: ASGIApp, routes: Sequence[BaseRoute] = ()) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        problem = None
        if scope["type"] == "http":
            routed = any(route.matches(scope)[0] is Match.FULL for route in self.routes)
            problem = cross_site_problem(scope, check_body=routed)
        if problem is None:
            await self.app(scope, receive, send)
            return
        status, message = problem
        await refusal(scope["path"], status, message)(scope, receive, send)


def cross_site_problem(scope: Scope, *, check_body: bool = True) -> tuple[int, str] | None:
    """``(status, message)`` if the request must be refused, else ``None``."""
    headers = Headers(scope=scope)
    method: str = scope["method"]
    path: str = scope["path"]
    if method in UNSAFE_METHODS or path == "/api" or path.startswith("/api/"):
        origins = headers.getlist("origin")
        if origins and not (len(origins) == 1 and _is_own_origin(origins[0], scope, headers)):
            return 403, f"a request from another origin ({origins[0][:100]!r}) is refused"
        sites = set(headers.getlist("sec-fetch-site")) & _FOREIGN_SITES
        if sites:
            return 403, f"a request from another site (Sec-Fetch-Site: {min(sites)}) is refused"
    types = BODY_TYPES | OTLP_TYPES if path in OTLP_PATHS else BODY_TYPES
    if check_body and method in UNSAFE_METHODS and not _is_one_of(headers, types):
        sent = headers.get("content-type")
        got = "no Content-Type" if sent is None else repr(sent[:100])
        return 415, f"send the body as {' or '.join(sorted(types))}, not {got}"
    return None


def _is_one_of(headers: Headers, types: frozenset[str]) -> bool:
    """One ``Content-Type``, one of ``types`` (parameters such as ``charset`` allowed)."""
    content_types = headers.getlist("content-type")
    if len(content_types) != 1:
        return False
    return content_types[0].split(";", 1)[0].strip().lower() in types


def _is_own_origin(origin: str, scope: Scope, headers: Headers) -> bool:
    """Whether ``origin`` is this server's as the request reached it: scheme, host, port."""
    match = _ORIGIN.fullmatch(origin.strip())
    theirs = split_host(match["host"]) if match else None
    ours = split_host(headers.get("host", ""))
    if match is None or theirs is None or ours is None:
        return False
    scheme = "https" if scope["scheme"] in ("https", "wss") else "http"
    if match["scheme"] != scheme:
        return False
    default = DEFAULT_PORTS[scheme]
    return (theirs[0], theirs[1] or default) == (ours[0], ours[1] or default)
