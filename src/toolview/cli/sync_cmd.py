"""``toolview sync --to URL``: forward this machine's agent sessions to a team server.

Why a command of its own (not ``serve --watch-agents --to``): nothing here
serves — it reads the agents' folders ``serve --watch-agents`` watches
(``cli.serve_watch``'s list, the same readers), redacts each batch on this
machine (``sync_files``), and POSTs it to the server's threads with a key a
resend cannot store twice; a small private state file says how far each
file was sent (``sync_state``), so a kill and a restart neither repeat nor
skip. ``--once`` sends what is there and stops; otherwise it follows the
files as they grow, looking every ``--interval`` seconds (a poll: the same
on every filesystem, and a file unchanged since the last look costs a stat).

The token comes from ``--token-file`` (its first line) or ``$TOOLVIEW_TOKEN``
(sent as ``remote.token`` allows); a refusal that will not change (a wrong
token, 401/403) stops the command with exit 77; an outage is waited out.
"""

from __future__ import annotations

import argparse
import getpass
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from toolview.cli.failures import EXIT_USAGE

if TYPE_CHECKING:
    from toolview.cli.sync_files import Identity
    from toolview.server.ingest.watch.reader import FileReader

__all__ = ["EXIT_REFUSED", "register", "run", "server_base"]

EXIT_REFUSED: Final = 77  # sysexits' EX_NOPERM: the server refused this forwarder


def register(subparsers: object) -> None:
    """Add ``sync``."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "sync",
        help="forward this machine's agent sessions, redacted, to a team server",
        description="Read the Claude Code, Codex, Gemini CLI and Qwen Code sessions here (as "
        "serve --watch-agents does), redact them, and send them to a toolview server. "
        "Resumable: a state file says how far each session was sent (see docs/team.md).",
    )
    parser.add_argument(
        "--to", required=True, metavar="URL", help="the server, http(s)://HOST:PORT"
    )
    parser.add_argument("--token-file", type=Path, metavar="FILE", help="the server's token")
    parser.add_argument("--machine", help="this machine's name on the server (default: hostname)")
    parser.add_argument("--once", action="store_true", help="send what is there, then stop")
    parser.add_argument("--state", type=Path, metavar="FILE", help="the state file to keep")
    parser.add_argument("--interval", type=float, default=1.0, metavar="SECONDS")
    parser.add_argument(
        "--idle",
        type=float,
        default=None,
        metavar="SECONDS",
        help="finish a session unchanged this long (default: serve --watch's 300)",
    )
    parser.set_defaults(handler=run)


def server_base(url: str) -> str | None:
    """``http(s)://host[:port]`` from ``url``; ``None`` for another scheme, a path or no host."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def run(args: argparse.Namespace) -> int:
    """Check the options, then send (once, or for as long as it runs)."""
    from toolview.cli.sync_files import Identity

    base = server_base(args.to)
    if base is None:
        return _usage(f"--to wants http(s)://HOST[:PORT], not {args.to!r}")
    machine = args.machine or socket.gethostname() or "machine"
    if not 0 < len(machine) <= 64 or not machine.isprintable():
        return _usage("--machine wants 1-64 printable characters")
    token = _token(args.token_file)
    if not args.interval > 0:
        return _usage("--interval wants a positive number of seconds")
    return _Sync(base, token, Identity(machine, getpass.getuser()), args).run()


def _token(path: Path | None) -> str | None:
    if path is None:
        return None
    lines = path.read_text(encoding="utf-8").splitlines()  # unreadable: failures says so
    return lines[0].strip() if lines and lines[0].strip() else None


def _usage(message: str) -> int:
    print(f"toolview sync: {message}", file=sys.stderr)
    return EXIT_USAGE


class _Sync:
    """The command's loop: every session file, each pass, sent past its saved position."""

    def __init__(self, base: str, token: str | None, who: Identity, args: argparse.Namespace):
        from toolview.cli.sync_files import Context
        from toolview.cli.sync_joins import Joins
        from toolview.cli.sync_send import Sender
        from toolview.cli.sync_state import SyncState, default_state_path
        from toolview.server.ingest.watch.idle import WATCH_IDLE
        from toolview.server.ingest.watch.plugins import watch_formats

        self.base, self.token, self.who, self.args = base, token, who, args
        self.state = SyncState.load(args.state or default_state_path(base, who.machine))
        if self.state.problem:
            print(f"toolview sync: {self.state.problem}", file=sys.stderr)
        idle = WATCH_IDLE if args.idle is None else args.idle
        self.context = Context(watch_formats(), who, idle, Joins())
        self.readers: dict[Path, FileReader] = {}
        self.looked: dict[Path, tuple[int, int]] = {}
        self.send = Sender(base, token)

    def run(self) -> int:
        """Passes until ``--once`` has nothing left to send, or for as long as it runs."""
        from toolview.remote.client import PublishError

        print(f"toolview sync: {self.who.machine} → {self.base}", file=sys.stderr, flush=True)
        try:
            while True:
                if self._pass() == 0 and self.args.once:
                    return 0
                if not self.args.once:
                    time.sleep(self.args.interval)
        except PublishError as exc:
            print(f"toolview sync: {exc}", file=sys.stderr)
            return EXIT_REFUSED
        finally:
            self.send.close()

    def _pass(self) -> int:
        """One look at every session file; the batches sent (a pass that sends none is idle)."""
        from toolview.cli.serve_watch import agent_folders
        from toolview.cli.sync_files import sync_file
        from toolview.server.ingest.watch.tree import newest_first, session_files

        sent = 0
        for root in agent_folders():
            for path in newest_first(session_files(root.path)):
                if self._unchanged(path):
                    continue
                done = sync_file(path, self.readers, self.state, self.send, self.context)
                if done is None:
                    self.looked.pop(path, None)  # a sub-agent waiting for its link: look again
                sent += done or 0
        return sent

    def _unchanged(self, path: Path) -> bool:
        """Nothing to do: the same size and time as last looked, and already finished."""
        try:
            info = path.stat()
        except OSError:
            return True
        now = (info.st_size, info.st_mtime_ns)
        reader = self.readers.get(path)
        if self.looked.get(path) == now and (reader is None or reader.position.finished):
            return True
        self.looked[path] = now
        return False
