"""``toolview schema``: print (or write) the JSON Schema of every wire shape."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from toolview.contract.schema import render_schema, schema_documents

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``schema`` subcommand."""
    parser = subparsers.add_parser("schema", help="print the JSON Schema of every wire shape")
    parser.add_argument(
        "--write",
        metavar="DIR",
        type=Path,
        help="write one NAME.schema.json file per shape into DIR instead of printing",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print all schemas as one JSON document keyed by file name, or write the files."""
    documents = schema_documents()
    if args.write is None:
        sys.stdout.write(render_schema(documents))
        return 0
    args.write.mkdir(parents=True, exist_ok=True)
    for name, schema in documents.items():
        (args.write / name).write_text(render_schema(schema), encoding="utf-8")
    return 0
