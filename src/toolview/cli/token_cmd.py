"""``toolview token new NAME [--tokens FILE]``: a named token for a machine or a person.

It appends ``NAME TOKEN`` to the file ``serve --tokens FILE`` reads
(``token_file``), 0600 and atomically, and prints the token once: give it to
that machine's ``toolview sync --token-file`` or that person. To revoke one,
delete its line and restart the server.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from toolview.cli.serve_token import TokenError
from toolview.cli.token_file import add_token, default_tokens_path

__all__ = ["register", "run"]


def register(subparsers: object) -> None:
    """Add the ``token`` subcommand."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "token", help="make a named token (per machine or person) for serve --tokens"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="append NAME and a fresh token to the tokens file")
    new.add_argument("name", metavar="NAME", help="the machine's or person's name")
    new.add_argument(
        "--tokens", type=Path, metavar="FILE", help="the tokens file (default: config folder)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Append the token and print it (stdout); where it went goes to stderr."""
    path: Path = args.tokens or default_tokens_path()
    try:
        token = add_token(path, args.name)
    except (TokenError, OSError) as exc:
        print(f"toolview token: {exc}", file=sys.stderr)
        return 2
    print(token)
    print(f"toolview token: {args.name!r} added to {path}; restart the server", file=sys.stderr)
    return 0
