"""``toolview serve``: the HTTP API, live follow (SSE), AG-UI and the web page.

Loopback by default. Any other address needs a token, or anyone who can reach
the port could read every thread: without one the command refuses to start.
Its options are ``serve_options``; ``--load`` is ``serve_load``; the token
``serve_token``; the log (which one, where, that it opens) ``serve_log``;
the folders ``--watch`` ingests ``serve_watch``.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn

from toolview.cli.serve_load import load_file
from toolview.cli.serve_log import LogError, check_log, log_factory, log_place
from toolview.cli.serve_options import add_options
from toolview.cli.serve_token import TokenError, read_token
from toolview.cli.serve_watch import WatchError, watch_roots
from toolview.cli.token_file import read_tokens
from toolview.safety.loopback import is_loopback
from toolview.server.app import create_app
from toolview.server.guard.connections import server_config
from toolview.server.guard.limits import Limits, raise_fd_limit
from toolview.server.heap import give_back

__all__ = ["is_loopback", "log_factory", "register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="serve threads: API, live follow, web page")
    add_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Load any files, bind, print the URL, and serve until interrupted."""
    try:
        token = read_token(args)
        named = read_tokens(args.tokens) if args.tokens is not None else None
    except TokenError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    if not is_loopback(args.host) and not token and not named:
        print(
            f"toolview: refusing to serve on {args.host} without a token: anyone who can "
            "reach it could read every thread. Pass --token-file PATH (or set TOOLVIEW_TOKEN), "
            "or bind 127.0.0.1.",
            file=sys.stderr,
        )
        return 2
    limits = _limits(args.max_connections)  # before anything is served
    if not token and not named:
        print(
            "toolview: no token: other local users of this machine can read and add to these "
            "threads; to require one, pass --token-file PATH or set TOOLVIEW_TOKEN",
            file=sys.stderr,
        )
    open_log = log_factory(args)
    try:
        check_log(args, open_log)
    except LogError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    try:
        roots, notes = watch_roots(args)
    except WatchError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    print(f"toolview: threads are kept in {log_place(args)}", file=sys.stderr)
    for note in notes:
        print(note, file=sys.stderr)
    for path in args.load:
        print(asyncio.run(load_file(open_log(), Path(path))), file=sys.stderr)
    if args.load:
        give_back()  # the parsed files are dropped: their pages go back (``server.heap``)
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(f"toolview: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    app = create_app(
        open_log,
        token=token,
        follow_limit=args.follow_limit,
        follow_total=args.follow_total,
        body_limit=args.body_limit,
        allowed_hosts=[*args.allowed_host, *_bound_name(args.host, port)],
        watch=roots,
        watch_idle=args.watch_idle,
        warm=True,
        on_warm=_say_warmed,
        listening=host,
        named=named,
    )
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    print(f"toolview: serving on {base}/", flush=True)
    if named:
        print(f"toolview: {len(named)} named tokens: {', '.join(named.names)}", file=sys.stderr)
    if token or named:
        print(f"toolview: sign in once at {base}{app.state.links.issue()}", flush=True)
    options = {"log_level": "warning", "lifespan": "on", "timeout_graceful_shutdown": 2}
    uvicorn.Server(server_config(app, limits, **options)).run(sockets=[sock])
    return 0


def _say_warmed(threads: list[str]) -> None:
    """The newest threads are drawn: their first view will not wait (``pieces.ahead``)."""
    if threads:
        print(f"toolview: ready to show {', '.join(map(repr, threads))}", file=sys.stderr)


def _bound_name(host: str, port: int) -> list[str]:
    """``--host NAME`` is a name the server answers to (on its port); an address needs nothing."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return [f"{host}:{port}"] if host != "localhost" else []
    return []


_SPARE_FDS = 64  # the log, Redis, the listening socket, imports


def _limits(wanted: int) -> Limits:
    """The connection limits, within the open-files limit (raised to its hard limit first)."""
    room = raise_fd_limit() - _SPARE_FDS
    if wanted > room:
        print(f"toolview: at most {room} connections (the open-files limit)", file=sys.stderr)
    total = max(1, min(wanted, room))
    return Limits(max_connections=total, per_client=max(1, total * 3 // 4))


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock
