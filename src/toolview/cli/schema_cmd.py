"""``toolview schema``: print (or write) the JSON Schema of every wire shape and kind."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from toolview.contract.schema import render_schema, schema_documents

__all__ = ["EXIT_UNWRITABLE", "register", "run"]

EXIT_UNWRITABLE = 2  # like every command's unusable file (README, "Exit codes")


def register(subparsers: Any) -> None:
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser(
        "schema", help="print the JSON Schema of every wire shape and built-in kind's props"
    )
    parser.add_argument(
        "--write",
        metavar="DIR",
        type=Path,
        help="write one NAME.schema.json file per shape into DIR (kinds' props into DIR/kinds)"
        " instead of printing",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print all schemas as one JSON document keyed by file path, or write the files."""
    documents = schema_documents()
    if args.write is None:
        sys.stdout.write(render_schema(documents))
        return 0
    try:
        for name, schema in documents.items():
            path = args.write / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render_schema(schema), encoding="utf-8")
    except OSError as exc:  # a file where a folder should be, a read-only place, /proc…
        reason = exc.strerror or str(exc)
        print(f"toolview: cannot write the schemas into {args.write}: {reason}", file=sys.stderr)
        return EXIT_UNWRITABLE
    return 0
