"""The ``toolview`` command line: one small module per subcommand.

Each module in ``COMMANDS`` exposes ``register(subparsers)``, which adds its
parser and sets ``handler`` to a function taking the parsed arguments and
returning the exit code. Modules are imported lazily by name so that a command
whose optional runtime is missing cannot break the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Final

from toolview.cli.inputs import InputError

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS: Final = (
    "toolview.cli.schema_cmd",
    "toolview.cli.check_cmd",
    "toolview.cli.run_cmd",
    "toolview.cli.pi_cmd",
    "toolview.cli.mcp_cmd",
    "toolview.cli.serve_cmd",
    "toolview.cli.show_cmd",
)

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="toolview",
        description="Render AI-agent tool results on every surface, safely.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMANDS:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse ``argv`` and run the chosen subcommand."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return handler(args)
    except InputError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
