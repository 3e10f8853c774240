"""``toolview serve``'s options, and the types that read them exactly.

Why apart from the command: what the command line accepts (every option,
its default and help, and types that refuse rather than coerce: ``512k`` is
a size, ``-1`` is no count) is checked on its own, without binding a socket;
``serve_cmd`` only runs what was parsed.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Final

from toolview.server.guard.host_check import AllowedHost, parse_allowed_host
from toolview.server.guard.limits import MAX_CONNECTIONS
from toolview.server.ingest.watch.idle import WATCH_IDLE
from toolview.server.state import BODY_LIMIT, FOLLOW_LIMIT, FOLLOW_TOTAL

__all__ = [
    "add_options",
    "allowed_host",
    "byte_size",
    "port_number",
    "positive_int",
    "positive_seconds",
]

_MAX_PORT: Final = 65535
_SIZE: Final = re.compile(r"(?P<count>[0-9]+)(?P<unit>[kKmM]?)")


def add_options(parser: argparse.ArgumentParser) -> None:
    """Every option of ``serve``: where to listen, which log, the token, the limits."""
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=port_number, default=8765, help="port (0 picks a free one)")
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--db", type=Path, metavar="PATH", help="SQLite log file")
    store.add_argument("--redis", metavar="URL", help="share threads through Redis Streams")
    parser.add_argument(
        "--search-memory",
        type=int,
        default=0,
        metavar="MIB",
        help="with --redis: keep a search index of the streams in this process, about"
        " MIB x 4 of memory (0, the default: no search across threads on Redis)",
    )
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
        "--tokens",
        type=Path,
        metavar="FILE",
        help="also accept the named tokens of FILE (mode 600; `toolview token new NAME`)",
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
        "--watch",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="ingest every session file under DIR (Claude Code, Codex, toolview JSON Lines)"
        " and keep appending as they grow; repeatable",
    )
    parser.add_argument(
        "--watch-agents",
        action="store_true",
        help="--watch the agents' folders: ~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp",
    )
    parser.add_argument(
        "--watch-idle",
        type=positive_seconds,
        default=WATCH_IDLE,
        metavar="SECONDS",
        help="a watched session file that has not grown for this long is finished: its last"
        f" usage and its run's end are stored; it reopens if it grows (default {WATCH_IDLE:g})",
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


def positive_int(raw: str) -> int:
    """A whole number ≥ 1, or a clear argparse error (never coerced)."""
    if not re.fullmatch(r"-?[0-9]+", raw):
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number")
    value = int(raw)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_seconds(raw: str) -> float:
    """A time in seconds above 0 (``0.5``, ``60``), or a clear argparse error."""
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?|\.[0-9]+", raw.strip()):
        raise argparse.ArgumentTypeError(f"{raw!r} is not a number of seconds")
    value = float(raw)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {raw!r}")
    return value


def port_number(raw: str) -> int:
    """A TCP port, 0 to 65535 (0: any free one), or an argparse error."""
    if not re.fullmatch(r"[0-9]+", raw.strip()):
        raise argparse.ArgumentTypeError(f"{raw!r} is not a port number (0 to 65535)")
    value = int(raw)
    if value > _MAX_PORT:
        raise argparse.ArgumentTypeError(f"{value} is not a port number (0 to 65535)")
    return value


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
