"""The app factory: routes, the guards in front of them, the log's lifetime.

The guards, outermost first: security headers (on every answer, refusals
included), the ``Host`` check (DNS rebinding), the cross-site check (another
origin's requests, writes without a JSON body type), then the token.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.types import ExceptionHandler

from toolview.server import api, decisions
from toolview.server.errors import LOG_UNAVAILABLE, ApiError, api_error, log_unavailable
from toolview.server.guard.auth import OneTimeLinks, TokenAuth
from toolview.server.guard.cross_site import CrossSiteGuard
from toolview.server.guard.host_check import AllowedHost, HostCheck, parse_allowed_host
from toolview.server.guard.named_tokens import NamedTokens
from toolview.server.guard.page_token import PageTokens
from toolview.server.guard.security import SecurityHeaders
from toolview.server.ingest import otlp_route
from toolview.server.ingest.watch.idle import WATCH_IDLE
from toolview.server.ingest.watch.root import WatchRoot
from toolview.server.live import sse
from toolview.server.page import pages
from toolview.server.page.pieces.ahead import open_warm
from toolview.server.state import BODY_LIMIT, FOLLOW_LIMIT, FOLLOW_TOTAL, ServerState
from toolview.wire.log import BuildsSearch, ObservationLog
from toolview.wire.sources import PositionedLog

__all__ = ["LogFactory", "create_app"]

LogFactory = Callable[[], ObservationLog]


def create_app(
    open_log: LogFactory,
    *,
    token: str | None = None,
    body_limit: int = BODY_LIMIT,
    keepalive: float = 15.0,
    send_timeout: float = 30.0,
    follow_limit: int = FOLLOW_LIMIT,
    allowed_hosts: Iterable[str | AllowedHost] = (),
    follow_total: int = FOLLOW_TOTAL,
    watch: Iterable[WatchRoot] = (),
    watch_idle: float = WATCH_IDLE,
    warm: bool = False,
    on_warm: Callable[[list[str]], None] | None = None,
    listening: str | None = None,
    named: NamedTokens | None = None,
) -> Starlette:
    """A toolview server on the log ``open_log`` opens (at start-up, in the server's loop).

    It answers to 127.0.0.1, localhost and [::1] on the port a connection
    arrived on, and to ``allowed_hosts`` (``NAME``: any port; ``NAME:PORT``).
    Session files under the ``watch`` folders are ingested as they grow
    (``server.ingest.watch.watcher``), from start-up until shutdown; one that has not grown
    for ``watch_idle`` seconds is finished (``server.ingest.watch.idle``).
    ``warm``: start the render processes and draw the newest threads at start-up
    (``server.page.pieces.ahead``), so their first view does not wait for that;
    ``on_warm`` is then told which threads were drawn.
    ``listening``: the address the server binds (``None``: not told); without a
    token, decisions on waiting calls are taken only when it is loopback
    (``server.decisions``). ``named``: tokens with a name each, accepted beside
    ``token`` (``server.guard.named_tokens``).
    """
    roots = list(watch)
    allowed = [h if isinstance(h, AllowedHost) else parse_allowed_host(h) for h in allowed_hosts]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        log = open_log()
        app.state.toolview = ServerState(
            log,
            body_limit,
            keepalive,
            send_timeout,
            follow_limit=follow_limit,
            follow_total=follow_total,
            watched=tuple(root.path.resolve() for root in roots),
        )
        if isinstance(log, BuildsSearch):
            log.start_search()  # the Redis log's search index: built from the streams now
        watching = _start_watching(log, roots, watch_idle)
        warming = open_warm(app.state.toolview, on_warm) if warm else None
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
                await asyncio.gather(warming, return_exceptions=True)
            if watching is not None:
                stop, task = watching
                stop()  # before the cancel: a cancellation alone can be swallowed
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            await log.aclose()

    links = OneTimeLinks()
    page_tokens = PageTokens()  # the live page's token: a signed-in browser decides with it
    routes = [*api.routes, *decisions.routes, *sse.routes, *pages.routes, *otlp_route.routes]
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(HostCheck, allowed=allowed),
        Middleware(CrossSiteGuard, routes=routes),
        Middleware(TokenAuth, token=token, links=links, pages=page_tokens, named=named),
    ]
    handlers: dict[type[Exception], ExceptionHandler] = {ApiError: api_error}
    handlers.update(dict.fromkeys(LOG_UNAVAILABLE, log_unavailable))
    app = Starlette(
        routes=routes, middleware=middleware, lifespan=lifespan, exception_handlers=handlers
    )
    app.state.links = links  # `toolview serve` prints one at start
    guarded = token is not None or bool(named)
    app.state.decisions = decisions.DecisionGate(guarded, listening, page_tokens)
    return app


def _start_watching(
    log: ObservationLog, roots: list[WatchRoot], idle: float
) -> tuple[Callable[[], None], asyncio.Task[None]] | None:
    """The watcher's stop and its task, if there are folders to watch."""
    if not roots:
        return None
    if not isinstance(log, PositionedLog):
        raise TypeError(f"{type(log).__name__} keeps no read positions: it cannot watch files")
    from toolview.server.ingest.watch.database import DatabaseWatcher
    from toolview.server.ingest.watch.watcher import (
        SessionWatcher,  # the hosts with it: only when watching
    )

    files = [root for root in roots if root.preferred != "opencode"]  # a database: rows
    watchers = [SessionWatcher(log, files, idle=idle)] if files else []
    databases = [DatabaseWatcher(log, r.path) for r in roots if r.preferred == "opencode"]
    every: list[SessionWatcher | DatabaseWatcher] = [*watchers, *databases]

    async def run() -> None:
        await asyncio.gather(*(watcher.run() for watcher in every))

    def stop() -> None:
        for watcher in every:
            watcher.stop()

    return stop, asyncio.create_task(run())
