"""``toolview hooks install --claude|--codex [--uninstall] [--settings PATH] [--to URL]``.

Adds ``toolview hook claude-code`` to Claude Code's ``~/.claude/settings.json``
(``hooks.PermissionRequest``) or ``toolview hook codex`` to Codex's
``~/.codex/config.toml``; ``--uninstall`` removes ours and nothing else (the
edits: ``cli.hook_settings``). Why so careful with a file the user owns: a
malformed file is refused with the reason and left as it is; a change keeps the
previous bytes in ``PATH.toolview-backup``, is written to a temporary file in
the same folder with the file's mode and renamed over it (never half
written); a symlink is followed (dotfile managers link settings) and stays a
link, but a link to anything other than a regular file is refused. Twice is
once: an installed hook is not added again, and nothing is written.
"""

from __future__ import annotations

import argparse
import os
import shlex
import stat
import sys
import tempfile
from pathlib import Path
from typing import Final

from toolview.cli.failures import EXIT_USAGE

__all__ = ["SETTINGS_LIMIT", "register", "run"]

SETTINGS_LIMIT: Final = 4 * 1024 * 1024  # a settings file, not a data file


def register(subparsers: object) -> None:
    """Add ``hooks install``."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "hooks",
        help="install the permission hook in Claude Code's or Codex's settings",
        description="Manage toolview's permission hook in the agents' settings.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install",
        help="add (or with --uninstall remove) toolview's PermissionRequest hook",
        description="Add toolview's PermissionRequest hook to the agent's user settings "
        "(a backup kept, idempotent); --uninstall removes only toolview's.",
    )
    agent = install.add_mutually_exclusive_group(required=True)
    agent.add_argument("--claude", action="store_true", help="~/.claude/settings.json")
    agent.add_argument("--codex", action="store_true", help="~/.codex/config.toml")
    install.add_argument("--uninstall", action="store_true", help="remove toolview's hook")
    install.add_argument("--settings", metavar="PATH", type=Path, help="another settings file")
    install.add_argument(
        "--to", metavar="URL", help="the server the hook asks (else $TOOLVIEW_URL)"
    )
    install.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read, change, write atomically; exit 1 with the reason when the file is not safe."""
    from toolview.cli.hook_settings import SettingsError, claude_settings, codex_config

    agent = "codex" if args.codex else "claude-code"
    if args.to is not None and not args.to.startswith(("http://", "https://")):
        print("toolview hooks: want --to http(s)://HOST:PORT", file=sys.stderr)
        return EXIT_USAGE
    default = Path.home() / (".codex/config.toml" if args.codex else ".claude/settings.json")
    path: Path = args.settings or default
    words = [sys.executable, "-m", "toolview", "hook", agent]
    command = shlex.join(words + (["--to", args.to] if args.to else []))
    try:
        target, old = _read(path)
        edit = codex_config if args.codex else claude_settings
        new = edit(old, command, remove=args.uninstall)
    except (SettingsError, OSError, UnicodeDecodeError) as exc:
        print(f"toolview hooks: {path}: {exc}; nothing written", file=sys.stderr)
        return 1
    if new is None:
        print(f"{path}: toolview's hook is {'not there' if args.uninstall else 'there already'}")
        return 0
    _write(target, old, new)
    print(f"{path}: toolview's hook {'removed' if args.uninstall else 'added'}")
    if args.codex and not args.uninstall:
        print("Codex runs a new hook once you trust it: in codex, /hooks, trust toolview's.")
    return 0


def _read(path: Path) -> tuple[Path, str]:
    """The file to write (a link's target) and its text ("" when there is none yet)."""
    target = path.resolve() if path.is_symlink() else path
    if not target.exists():
        if path.is_symlink():
            raise OSError("a symlink to nothing")
        return target, ""
    if not stat.S_ISREG(target.stat().st_mode):
        raise OSError("not a regular file")
    if target.stat().st_size > SETTINGS_LIMIT:
        raise OSError(f"over {SETTINGS_LIMIT} bytes")
    return target, target.read_text(encoding="utf-8")


def _write(target: Path, old: str, new: str) -> None:
    """Back up ``old``, then put ``new`` in place by rename, with the file's mode (600 if new)."""
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o600
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        _atomic(target.with_name(f"{target.name}.toolview-backup"), old, mode)
    _atomic(target, new, mode)


def _atomic(target: Path, text: str, mode: int) -> None:
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(name, mode)
        os.replace(name, target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
