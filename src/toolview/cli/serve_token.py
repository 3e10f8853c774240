"""Where ``toolview serve`` takes its token: a file, the environment, or (deprecated) argv.

Why not the command line: every local user sees a process's arguments in
``ps``. A file only its owner can read, or ``$TOOLVIEW_TOKEN`` (the process's
environment is private to its user), keep the token out of sight.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

__all__ = ["TokenError", "read_token", "token_from_file"]


class TokenError(ValueError):
    """The token cannot be used; the message says why and what to do."""


def read_token(args: argparse.Namespace) -> str | None:
    """The token from ``--token-file``, ``--token`` (deprecated) or ``$TOOLVIEW_TOKEN``."""
    if args.token is not None:
        print(
            "toolview: --token VALUE is deprecated: other local users can read it in `ps`; "
            "use --token-file PATH or $TOOLVIEW_TOKEN",
            file=sys.stderr,
        )
        return str(args.token) or None
    if args.token_file is not None:
        return token_from_file(args.token_file)
    return os.environ.get("TOOLVIEW_TOKEN") or None


def token_from_file(path: Path) -> str:
    """The first line of ``path``, stripped; refused if others may read or change the file.

    Why refuse: a token others can read is no secret, and one they can write
    they could set themselves (ssh refuses such key files for the same reason).
    """
    try:
        with path.open(encoding="utf-8") as file:
            mode = os.fstat(file.fileno()).st_mode
            first = file.readline()
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenError(f"cannot read the token file {path}: {exc}") from None
    if mode & 0o066:
        raise TokenError(
            f"the token file {path} can be read or changed by other users "
            f"(mode {mode & 0o777:o}): chmod 600 {path}"
        )
    token = first.strip()
    if not token:
        raise TokenError(f"the token file {path} is empty: put the token on its first line")
    return token
