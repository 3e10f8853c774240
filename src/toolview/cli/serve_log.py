"""``toolview serve``'s log: which one (``--db`` / ``--redis``), where it is, and that it opens.

Why apart from the command: the log holds every thread, so the server says
where on start (a Redis URL with its secrets hidden: the line lands in
terminals and service logs), and a log that cannot be opened — a ``--db``
in a folder that does not exist, a directory, a malformed URL — is one
clear line before anything binds, not an exception inside the web server.
The folder of ``--db`` is never created (a typo would silently start an
empty log somewhere new); only toolview's own default data folder is.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from toolview.safety import redact
from toolview.safety.keys import key_name
from toolview.server.app import LogFactory
from toolview.wire.log.redis import RedisLog
from toolview.wire.log.sqlite import SQLiteLog
from toolview.wire.log.sqlite_file import default_db_path

__all__ = ["LogError", "check_log", "log_factory", "log_place", "redact_url"]

_HIDDEN = "***"


class LogError(RuntimeError):
    """The log cannot be opened; the message says which and why."""


def log_factory(args: argparse.Namespace) -> LogFactory:
    """How the server opens its log, from ``--db`` / ``--redis``."""
    if args.redis:
        url: str = args.redis
        budget = max(0, int(getattr(args, "search_memory", 0) or 0)) * 1024 * 1024
        return lambda: RedisLog(url, search_bytes=budget)
    path: Path = args.db or default_db_path()
    return lambda: SQLiteLog(path)


def log_place(args: argparse.Namespace) -> str:
    """Where the threads are kept, as the start-up line says it."""
    if args.redis:
        return f"Redis {redact_url(args.redis)}"
    return f"SQLite {args.db or default_db_path()}"


def check_log(args: argparse.Namespace, open_log: LogFactory) -> None:
    """Open the log once and close it; raise ``LogError`` when that cannot be done."""
    if not args.redis and args.db is not None and not args.db.parent.is_dir():
        raise LogError(
            f"cannot open the log {args.db}: the folder {args.db.parent} does not exist"
            " (serve creates no folder for --db: create it first)"
        )
    try:
        log = open_log()
        asyncio.run(log.aclose())
    except (OSError, sqlite3.Error, ValueError) as exc:
        reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        if args.redis:  # the URL may be in the message: never its secrets
            reason = reason.replace(args.redis, redact_url(args.redis))
        raise LogError(f"cannot open the log {log_place(args)}: {reason}") from None


def redact_url(url: str) -> str:
    """``url`` with its password, a lone user (often a token) and secret query values hidden.

    A query key is secret by the one rule redaction uses for keys
    (``safety.keys.key_name``: ``password``, ``auth_token`` — not ``db``).

    The fragment is dropped (a Redis URL has no use for one). A URL that does
    not parse is hidden whole: its secrets cannot be told apart.
    """
    try:
        parts = urlsplit(url)
        port = parts.port  # reading it validates it
    except ValueError:
        return _HIDDEN  # cannot tell its secrets apart: show none of it
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    netloc = host + (f":{port}" if port is not None else "")
    if parts.password is not None:
        netloc = f"{parts.username or ''}:{_HIDDEN}@{netloc}"
    elif parts.username:
        netloc = f"{_HIDDEN}@{netloc}"
    query = urlencode(
        [(key, _HIDDEN if key_name(key) else value) for key, value in parse_qsl(parts.query)],
        safe="*",
    )
    spelled = f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")
    return redact(spelled)  # and any secret the rules know (a token in the path)
