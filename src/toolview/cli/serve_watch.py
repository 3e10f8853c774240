"""``toolview serve --watch DIR`` / ``--watch-agents``: which folders the server watches.

Why apart from the command: the folders are checked before anything binds —
a ``--watch`` folder that does not exist is one clear line and exit 2 (a
typo would otherwise watch nothing, silently), while an agent's own folder
that is not there yet (that agent never ran here) is said and skipped.
The agents' folders honour their own settings: ``CLAUDE_CONFIG_DIR``,
``CODEX_HOME``, ``GEMINI_CLI_HOME``, ``QWEN_HOME`` and OpenCode's ``XDG_DATA_HOME``,
as the CLIs themselves do.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from toolview.cli.session_hosts import plugin_readers
from toolview.server.ingest.watch.root import WatchRoot

__all__ = ["WatchError", "agent_folders", "watch_roots"]


class WatchError(ValueError):
    """A folder to watch cannot be; the message says which and why."""


def agent_folders() -> list[WatchRoot]:
    """Claude Code's projects, Codex's sessions, Gemini CLI's chats (``tmp``), Qwen
    Code's projects, Copilot CLI's session-state folders and Cursor's projects (where
    saved runs are kept), wherever their settings put them, then each reader plug-in's
    home folder (``hosts.readers``)."""
    claude = Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")
    codex = Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")
    gemini = Path(os.environ.get("GEMINI_CLI_HOME") or Path.home()) / ".gemini"
    qwen = Path(os.environ.get("QWEN_HOME") or Path.home() / ".qwen")  # its .qwen itself
    copilot = Path(os.environ.get("COPILOT_HOME") or Path.home() / ".copilot")  # itself too
    cursor = Path.home() / ".cursor"  # saved stream-json runs kept beside its projects
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    plugins = [WatchRoot(Path.home().joinpath(*r.home), r.name) for r in plugin_readers()]
    return [
        WatchRoot(claude / "projects", "claude-code"),
        WatchRoot(codex / "sessions", "codex"),
        WatchRoot(gemini / "tmp", "gemini"),
        WatchRoot(qwen / "projects", "qwen"),
        WatchRoot(copilot / "session-state", "copilot"),
        WatchRoot(cursor / "projects", "cursor"),
        WatchRoot(data / "opencode", "opencode"),  # its database (``watch.database``)
        *plugins,
    ]


def watch_roots(args: argparse.Namespace) -> tuple[list[WatchRoot], list[str]]:
    """The folders to watch and the lines to say about them (``WatchError``: refuse to start)."""
    roots: list[WatchRoot] = []
    notes: list[str] = []
    for folder in args.watch:
        if not folder.is_dir():
            raise WatchError(f"cannot watch {folder}: no such folder")
        roots.append(WatchRoot(folder.resolve()))
    for root in agent_folders() if args.watch_agents else []:
        if root.path.is_dir():
            roots.append(root)
        else:
            notes.append(f"toolview: not watching {root.path}: no such folder (yet)")
    notes += [f"toolview: watching {root.path} for sessions" for root in roots]
    return roots, notes
