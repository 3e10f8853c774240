"""``toolview serve``: the HTTP API, live follow (SSE), AG-UI and the web page.

Loopback by default. Any other address needs a token, or anyone who can reach
the port could read every thread: without one the command refuses to start.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import re
import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn

from toolview.cli.inputs import InputError, open_input
from toolview.cli.serve_token import TokenError, read_token
from toolview.server.api import THREAD_ID
from toolview.server.app import LogFactory, create_app
from toolview.server.batch import BadBatch, parse_observations
from toolview.server.connections import server_config
from toolview.server.host_check import AllowedHost, parse_allowed_host
from toolview.server.limits import MAX_CONNECTIONS, Limits, raise_fd_limit
from toolview.server.state import BODY_LIMIT, FOLLOW_LIMIT, FOLLOW_TOTAL
from toolview.wire.log import ObservationLog
from toolview.wire.log_redis import RedisLog
from toolview.wire.log_sqlite import SQLiteLog
from toolview.wire.log_sqlite_file import default_db_path

__all__ = ["allowed_host", "byte_size", "is_loopback", "positive_int", "register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser("serve", help="serve threads: API, live follow, web page")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=int, default=8765, help="port (0 picks a free one)")
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--db", type=Path, metavar="PATH", help="SQLite log file")
    store.add_argument("--redis", metavar="URL", help="share threads through Redis Streams")
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument(
        "--token-file",
        type=Path,
        metavar="PATH",
        help="require the token on the first line of PATH (mode 600) on every request",
    )
    secret.add_argument(
        "--token",
        metavar="VALUE",
        help="deprecated (other local users see it in ps): use --token-file or $TOOLVIEW_TOKEN",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        type=allowed_host,
        metavar="NAME[:PORT]",
        help="also answer to this host name (a proxy's, a LAN name); repeatable",
    )
    parser.add_argument(
        "--load",
        action="append",
        default=[],
        metavar="FILE.jsonl",
        help="load observations into a thread named after the file (once)",
    )
    parser.add_argument(
        "--follow-limit",
        type=positive_int,
        default=FOLLOW_LIMIT,
        metavar="N",
        help=f"concurrent follow streams per client address (default {FOLLOW_LIMIT})",
    )
    parser.add_argument(
        "--follow-total",
        type=positive_int,
        default=FOLLOW_TOTAL,
        metavar="N",
        help=f"concurrent follow streams from all addresses (default {FOLLOW_TOTAL})",
    )
    parser.add_argument(
        "--max-connections",
        type=positive_int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"open connections in total (default {MAX_CONNECTIONS}); one address holds 3/4",
    )
    parser.add_argument(
        "--body-limit",
        type=byte_size,
        default=BODY_LIMIT,
        metavar="SIZE",
        help="largest request body, in bytes or with k/M suffix (default 16M)",
    )
    parser.set_defaults(handler=run)


def positive_int(raw: str) -> int:
    """A whole number ≥ 1, or a clear argparse error (never coerced)."""
    if not re.fullmatch(r"-?[0-9]+", raw):
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number")
    value = int(raw)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


_SIZE = re.compile(r"(?P<count>[0-9]+)(?P<unit>[kKmM]?)")


def byte_size(raw: str) -> int:
    """``4096``, ``512k`` or ``64M`` (powers of 1024) as bytes ≥ 1, or an argparse error."""
    match = _SIZE.fullmatch(raw.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a size like 4096, 512k or 64M")
    scale = {"": 1, "k": 1024, "m": 1024 * 1024}[match["unit"].lower()]
    value = int(match["count"]) * scale
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 byte, not {raw!r}")
    return value


def allowed_host(raw: str) -> AllowedHost:
    """``--allowed-host``: a name or IP address, with an optional port, or an argparse error."""
    try:
        return parse_allowed_host(raw)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def log_factory(args: argparse.Namespace) -> LogFactory:
    """How the server opens its log, from ``--db`` / ``--redis``."""
    if args.redis:
        url: str = args.redis
        return lambda: RedisLog(url)
    path: Path = args.db or default_db_path()
    return lambda: SQLiteLog(path)


def run(args: argparse.Namespace) -> int:
    """Load any files, bind, print the URL, and serve until interrupted."""
    try:
        token = read_token(args)
    except TokenError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    if not is_loopback(args.host) and not token:
        print(
            f"toolview: refusing to serve on {args.host} without a token: anyone who can "
            "reach it could read every thread. Pass --token-file PATH (or set TOOLVIEW_TOKEN), "
            "or bind 127.0.0.1.",
            file=sys.stderr,
        )
        return 2
    limits = _limits(args.max_connections)  # before anything is served
    if not token:
        print(
            "toolview: no token: other local users of this machine can read and add to these "
            "threads; to require one, pass --token-file PATH or set TOOLVIEW_TOKEN",
            file=sys.stderr,
        )
    open_log = log_factory(args)
    for path in args.load:
        print(asyncio.run(_load(open_log(), Path(path))), file=sys.stderr)
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
    )
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    print(f"toolview: serving on {base}/", flush=True)
    if token:
        print(f"toolview: sign in once at {base}{app.state.links.issue()}", flush=True)
    options = {"log_level": "warning", "lifespan": "on", "timeout_graceful_shutdown": 2}
    uvicorn.Server(server_config(app, limits, **options)).run(sockets=[sock])
    return 0


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


def thread_id_for(path: Path) -> str:
    """The thread a loaded file goes to: its name, spelled as a reachable thread id."""
    spelled = re.sub(r"[^A-Za-z0-9._-]", "-", path.stem)[:64]
    return spelled if THREAD_ID.fullmatch(spelled) else "loaded"


async def _load(log: ObservationLog, path: Path) -> str:
    """Load ``path`` into the thread named after it, unless that thread has observations."""
    thread_id = thread_id_for(path)
    try:
        with open_input(str(path)) as stream:
            observations = parse_observations(stream.read(), most=None)
    except BadBatch as exc:
        raise InputError(f"{path}: {exc}") from None
    try:
        await log.create_thread(thread_id)
        info = await log.thread(thread_id)
        if info is not None and info.last_seq > 0:
            return f"toolview: thread {thread_id!r} already loaded ({info.last_seq} observations)"
        await log.append(thread_id, observations)
    finally:
        await log.aclose()
    return f"toolview: loaded {len(observations)} observations into thread {thread_id!r}"
