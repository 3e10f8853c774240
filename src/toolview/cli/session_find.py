"""Finding coding-agent sessions: under a folder, under the agents' homes, by id prefix.

Why here, shared by ``show`` and ``sessions``: both take the same ``--claude
DIR`` / ``--codex DIR`` (default ``~/.claude/projects`` and
``~/.codex/sessions``), and what ``sessions`` lists is what ``show`` finds.
Which files are sessions is each host's own knowledge (``session_files``);
this module only merges the hosts' lists, newest first (``cli.session_ids`` matches
ids).

A session's id is what the agent calls it: a Claude Code session file is
named by its id (``<id>.jsonl``), a Codex rollout ends with it
(``rollout-<time>-<id>.jsonl``). A file holding many sessions (OpenCode's
database: the reader's ``split``) is one ``Found`` per session, named by
the session's own id (``ses_…``) and dated by its last change.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolview.cli.inputs import HEAD_BYTES, path_arg
from toolview.cli.session_hosts import SessionHost, session_hosts
from toolview.hosts.sessions import session_id

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "Found",
    "add_root_options",
    "everywhere",
    "in_folder",
    "may_be_an_id",
    "roots",
    "session_id",
]


@dataclass(frozen=True)
class Found:
    """One session file and the host that reads it (or one session of a file of many)."""

    host: SessionHost
    path: Path
    session: str = ""
    """The session's id inside ``path`` when the file holds many (``Reader.split``)."""
    changed: float | None = None
    """That session's last change (epoch seconds); None: the file's own time."""

    @property
    def id(self) -> str:
        return self.session or session_id(self.path)

    @property
    def key(self) -> str:
        """What tells this session apart from every other (the summary cache's key)."""
        return f"{self.path}#{self.session}" if self.session else str(self.path)

    def load(self) -> Iterator[object]:
        """The session's observations and notes, streamed by its host."""
        if self.session and self.host.load_one is not None:
            return self.host.load_one(self.path, self.session)
        return self.host.load(self.path)


def add_root_options(parser: argparse.ArgumentParser) -> None:
    """``--claude``, ``--codex``, ``--gemini``, ``--qwen DIR``: where to look instead of the
    agents' homes."""
    parser.add_argument(
        "--claude",
        metavar="DIR",
        type=path_arg,
        help="where Claude Code keeps its sessions (default: ~/.claude/projects)",
    )
    parser.add_argument(
        "--codex",
        metavar="DIR",
        type=path_arg,
        help="where Codex keeps its sessions (default: ~/.codex/sessions)",
    )
    parser.add_argument(
        "--gemini",
        metavar="DIR",
        type=path_arg,
        help="where Gemini CLI keeps its chats (default: ~/.gemini/tmp)",
    )
    parser.add_argument(
        "--qwen",
        metavar="DIR",
        type=path_arg,
        help="where Qwen Code keeps its chats (default: ~/.qwen/projects)",
    )
    parser.add_argument(
        "--copilot",
        metavar="DIR",
        type=path_arg,
        help="where Copilot CLI keeps its sessions (default: ~/.copilot/session-state)",
    )
    parser.add_argument(
        "--cursor",
        metavar="DIR",
        type=path_arg,
        help="where saved Cursor agent stream-json runs are (default: ~/.cursor/projects)",
    )
    parser.add_argument(
        "--opencode",
        metavar="DIR",
        type=path_arg,
        help="where OpenCode keeps opencode.db (default: ~/.local/share/opencode)",
    )


def roots(args: argparse.Namespace) -> list[tuple[SessionHost, Path]]:
    """Each host this installation has, with the folder its sessions are looked for in."""
    given = {
        "claude-code": args.claude,
        "codex": args.codex,
        "gemini": args.gemini,
        "qwen": args.qwen,
        "opencode": args.opencode,
        "copilot": args.copilot,
        "cursor": args.cursor,
    }
    home = path_arg(os.path.expanduser("~"))
    return [
        (found, given.get(found.name) or home.joinpath(*found.home)) for found in session_hosts()
    ]


def may_be_an_id(word: str) -> bool:
    """Whether a path that does not exist may be a session id (prefix): no folder in it, no
    file extension (``missing.jsonl`` stays a missing file)."""
    return bool(word) and "/" not in word and "." not in word


def in_folder(folder: Path) -> list[Found]:
    """Every session under ``folder``, any host's, newest first."""
    return _newest_first(
        each
        for found in session_hosts()
        for path in _files(found, folder)
        for each in _split(found, path)
    )


def everywhere(places: list[tuple[SessionHost, Path]]) -> list[Found]:
    """Every session under each host's folder, newest first (a missing folder has none)."""
    return _newest_first(
        each
        for found, root in places
        for path in _files(found, root)
        for each in _split(found, path)
    )


def _split(found: SessionHost, path: Path) -> list[Found]:
    """``path``'s sessions: the file itself, or each of the many it holds."""
    if found.split is None:
        return [Found(found, path)]
    return [Found(found, path, session, changed) for session, changed in found.split(path)]


def _files(found: SessionHost, folder: Path) -> list[Path]:
    """The host's sessions under ``folder`` that it recognises as its own: a host may list
    every ``.jsonl`` (Claude Code's names say nothing), so the file's head decides."""
    if not folder.is_dir():
        return []
    return [path for path in found.files(folder) if _sniffs(found, path)]


def _sniffs(found: SessionHost, path: Path) -> bool:
    try:
        with path.open("rb") as stream:
            head = stream.read(HEAD_BYTES)
        return found.sniff(head)
    except Exception:  # unreadable, or the sniffer failing: not this host's
        return False


def _newest_first(sessions: Iterable[Found]) -> list[Found]:
    """By the time each file last changed, newest first (the hosts' lists merged)."""
    return sorted(
        sessions,
        key=lambda found: _mtime(found.path) if found.changed is None else found.changed,
        reverse=True,
    )


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
