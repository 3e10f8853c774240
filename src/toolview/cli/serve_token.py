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

__all__ = ["TOKEN_FILE_LIMIT", "TokenError", "private_text", "read_token", "token_from_file"]

TOKEN_FILE_LIMIT = 1 << 20  # a file of tokens is small: more is not one


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
    """The first line of ``path``, stripped; refused if others may read or change the file."""
    token = private_text(path).partition("\n")[0].strip()
    if not token:
        raise TokenError(f"the token file {path} is empty: put the token on its first line")
    return token


def private_text(path: Path) -> str:
    """The text of ``path`` (UTF-8, at most ``TOKEN_FILE_LIMIT`` bytes); refused if others
    may read or change the file.

    Why refuse: a token others can read is no secret, and one they can write
    they could set themselves (ssh refuses such key files for the same reason).
    """
    try:
        with path.open("rb") as file:
            mode = os.fstat(file.fileno()).st_mode
            data = file.read(TOKEN_FILE_LIMIT + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenError(f"cannot read the token file {path}: {exc}") from None
    if mode & 0o066:
        raise TokenError(
            f"the token file {path} can be read or changed by other users "
            f"(mode {mode & 0o777:o}): chmod 600 {path}"
        )
    if len(data) > TOKEN_FILE_LIMIT:
        raise TokenError(f"the token file {path} is over {TOKEN_FILE_LIMIT} bytes")
    return text
